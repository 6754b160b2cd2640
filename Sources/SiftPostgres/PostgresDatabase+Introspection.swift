import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// Reads the schema of the tables and views of PostgreSQL schema `named` (default
  /// `public`; see `SQLSchemaReader` for the naming rules, join tables, keys and warnings).
  /// Only reads the catalog and samples of `json`/`jsonb` columns: use it on a connection
  /// opened with `readOnly: true` for a database Sift did not create.
  ///
  /// ```swift
  /// let db = try PostgresDatabase(conninfo: info, readOnly: true)
  /// let result = try db.introspectSchema(named: "shop")
  /// ```
  /// - Throws: `SiftError`: the server's (a `PostgresError` as `underlying`) or `invalid-schema`.
  public func introspectSchema(named schema: String = "public", sampleLimit: Int = 1000) throws(SiftError)
    -> SQLIntrospection
  {
    do {
      let read = try SQLSchemaReader(source: .postgres(schema: schema), sampleLimit: sampleLimit).read(from: self)
      schemaChecks.passed(read.schema)  // the database's own description, from its own values
      return read
    } catch {
      throw SiftError.postgres(error)
    }
  }
}
