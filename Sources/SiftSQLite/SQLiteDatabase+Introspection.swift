import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// Reads the schema of this database's tables and views (see `SQLSchemaReader` for the
  /// naming rules, join tables, keys and warnings). Only reads: use it on a connection opened
  /// with `init(readOnly:)` for a file Sift did not create.
  ///
  /// ```swift
  /// let db = try SQLiteDatabase(readOnly: "notes.sqlite")
  /// let result = try db.introspectSchema()
  /// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: result.schema)
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`, or `invalid-schema`).
  public func introspectSchema(sampleLimit: Int = 1000) throws(SiftError) -> SQLIntrospection {
    let read = try SQLSchemaReader(source: .sqlite, sampleLimit: sampleLimit).read(from: self)
    schemaChecks.passed(read.schema)  // the file's own description, from its own values
    return read
  }
}
