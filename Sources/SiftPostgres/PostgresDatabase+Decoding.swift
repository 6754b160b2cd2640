import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// The records (or rows of any shape) `request` selects, decoded as `type` through
  /// `Decodable`: coding keys are the schema's attribute names, and each value is read in its
  /// column's own encoding (`SQLColumnCodec`: `timestamptz`, `timestamp`, `date`, numbers or
  /// text for dates, `boolean`, `uuid`, native and JSON arrays). `SiftRow.self` gives rows with
  /// named access. Without `schema`, the database's own is read (`introspectSchema`, of this
  /// connection's schema or `public`). `keys` maps stored names to coding keys (`updated_at`
  /// fills `updatedAt` with `.snakeCase`).
  ///
  /// ```swift
  /// let notes = try db.fetch(SiftFetchRequest(entity: "note"), as: Note.self)
  /// ```
  /// - Throws: `SiftError`: the server's (a `PostgresError` as `underlying`), the compiler's, or a decoding
  ///   error naming the row, key, column and what was found).
  public func fetch<T: Decodable>(
    _ request: SiftFetchRequest, as type: T.Type, schema: SQLSchema? = nil, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> [T] {
    let schema = try self.schema(schema)
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    do { return try compiler.fetch(request, as: type, in: self, keys: keys) } catch { throw SiftError.postgres(error) }
  }

  /// The number of records `request` selects (its limit and offset applied).
  ///
  /// ```swift
  /// let n = try db.fetchCount(SiftFetchRequest(entity: "note"))
  /// ```
  /// - Throws: `SiftError` (the server's, with its `PostgresError` as `underlying`, or the compiler's).
  public func fetchCount(_ request: SiftFetchRequest, schema: SQLSchema? = nil) throws(SiftError) -> Int {
    let schema = try self.schema(schema)
    do { return try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).fetchCount(request, in: self) } catch {
      throw SiftError.postgres(error)
    }
  }

  /// The connection's own schema, read from the database.
  func readSchema() throws(SiftError) -> SQLSchema {
    try introspectSchema(named: schemaName ?? "public").schema
  }

  /// `given` (checked against the database on first use: `SQLSchema.checkStorage`), or the
  /// connection's own schema.
  func schema(_ given: SQLSchema?) throws(SiftError) -> SQLSchema {
    if let given {
      try schemaChecks.check(given, in: self, dialect: PostgreSQLDialect())
      return given
    }
    return try readSchema()
  }
}
