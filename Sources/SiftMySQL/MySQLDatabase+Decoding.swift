import SiftSQL
import SiftSyntax

extension MySQLDatabase {
  /// The records (or rows of any shape) `request` selects, decoded as `type` through
  /// `Decodable`: coding keys are the schema's attribute names, each value read in its
  /// column's own encoding (`SQLColumnCodec`: `DATETIME`/`TIMESTAMP` as UTC, `DATE`,
  /// `TINYINT(1)` booleans). `SiftRow.self` gives rows with named access. Without `schema`, the
  /// database's own is read (`introspectSchema()`). Compiled with `MySQLDialect()`, whose
  /// functions (`[c]`/`[d]`, division) live in the database `sift` (`sift setup-sql --dialect
  /// mysql`). `keys` maps stored names to coding keys.
  ///
  /// ```swift
  /// let notes = try db.fetch(SiftFetchRequest(entity: "note"), as: Note.self)
  /// ```
  /// - Throws: `SiftError`: the server's (a `MySQLError` as `underlying`), the compiler's, or a
  ///   decoding error naming the row, key, column and what was found.
  public func fetch<T: Decodable>(
    _ request: SiftFetchRequest, as type: T.Type, schema: SQLSchema? = nil, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> [T] {
    let schema = try self.schema(schema)
    let compiler = SQLCompiler(dialect: MySQLDialect(), schema: schema)
    do { return try compiler.fetch(request, as: type, in: self, keys: keys) } catch { throw SiftError.mysql(error) }
  }

  /// The number of records `request` selects (its limit and offset applied).
  ///
  /// ```swift
  /// let n = try db.fetchCount(SiftFetchRequest(entity: "note"))
  /// ```
  /// - Throws: `SiftError` (the server's, with its `MySQLError` as `underlying`, or the compiler's).
  public func fetchCount(_ request: SiftFetchRequest, schema: SQLSchema? = nil) throws(SiftError) -> Int {
    let schema = try self.schema(schema)
    do { return try SQLCompiler(dialect: MySQLDialect(), schema: schema).fetchCount(request, in: self) } catch {
      throw SiftError.mysql(error)
    }
  }

  /// `given` (checked against the database on first use: `SQLSchema.checkStorage`), or the
  /// connection's own schema, read from the database.
  func schema(_ given: SQLSchema?) throws(SiftError) -> SQLSchema {
    if let given {
      try schemaChecks.check(given, in: self, dialect: MySQLDialect())
      return given
    }
    return try introspectSchema().schema
  }

  /// A compiled statement's schema checked against the database on its first use
  /// (`SQLStatement.schema`, `SQLSchema.checkStorage`), whichever way the statement is run.
  func checkSchema(of statement: SQLStatement) throws(SiftError) {
    if let schema = statement.schema { try schemaChecks.check(schema, in: self, dialect: MySQLDialect()) }
  }
}
