import SiftSyntax

extension SQLDatabase {
  /// Creates the schema's tables and indexes (idempotent).
  ///
  /// ```swift
  /// try db.createTables(schema, dialect: SQLiteDialect())
  /// ```
  public func createTables(_ schema: SQLSchema, dialect: any SQLDialect) throws {
    for sql in SQLDDL(schema: schema, dialect: dialect).createStatements() { try executeScript(sql) }
  }

  /// Creates the tables and inserts `records` as rows of `entity` in one transaction.
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())
  /// ```
  public func load(_ records: [SiftValue], entity: String, schema: SQLSchema, dialect: any SQLDialect) throws {
    let statements = try SQLDataLoader(schema: schema, dialect: dialect).insertStatements(for: records, entity: entity)
    try createTables(schema, dialect: dialect)
    try executeScript("BEGIN")
    do {
      for s in statements { _ = try execute(s) }
      try executeScript("COMMIT")
    } catch {
      try? executeScript("ROLLBACK")
      throw error
    }
  }

  /// The positions (in the loaded JSON array) of the records of `entity` matching
  /// `predicate`, ascending: what the CLI reports as `sqlMatches`.
  ///
  /// ```swift
  /// let hits = try db.matchingIndices(of: p, entity: "Venue", compiler: compiler)
  /// ```
  public func matchingIndices(of predicate: SiftPredicate, entity: String, compiler: SQLCompiler) throws -> [Int] {
    let rows = try execute(try compiler.compileMatchingIndices(predicate, entity: entity))
    return rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } }
  }
}
