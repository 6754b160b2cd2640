import SiftSQL
import SiftSyntax

extension MySQLDatabase {
  /// Reads the schema of the tables and views of database `named` (default: the connection's
  /// own, from its URL) from `information_schema` (see `SQLSchemaReader` for the naming rules,
  /// join tables, keys and warnings; the "MySQL and MariaDB" article for the type mapping). Only reads:
  /// a read-only connection or a user with nothing but `SELECT` is enough.
  ///
  /// ```swift
  /// let db = try MySQLDatabase(url: "mysql://reader:pw@127.0.0.1/shop")
  /// let result = try db.introspectSchema()
  /// print(result.schema.entityNames, result.warnings)
  /// ```
  /// - Throws: `SiftError`: the server's (a `MySQLError` as `underlying`), `mysql-connection`
  ///   when no database is named and the URL names none, or `invalid-schema`.
  public func introspectSchema(named database: String? = nil) throws(SiftError) -> SQLIntrospection {
    guard let database = database ?? databaseName else {
      throw MySQLError(
        kind: .connection, message: "no database to read: name one in the URL (mysql://USER@HOST/DATABASE)"
      ).siftError
    }
    let read = try SQLSchemaReader.mysql(database: database).read(from: self)
    schemaChecks.passed(read.schema)  // the database's own description, from its own values
    return read
  }
}
