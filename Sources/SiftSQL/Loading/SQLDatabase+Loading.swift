import SiftSyntax

extension SQLDatabase {
  /// Creates the schema's tables and indexes (idempotent).
  ///
  /// ```swift
  /// try db.createTables(schema, dialect: SQLiteDialect())
  /// ```
  public func createTables(_ schema: SQLSchema, dialect: any SQLDialect) throws(SiftError) {
    for sql in SQLDDL(schema: schema, dialect: dialect).createStatements() { try executeScript(sql) }
  }

  /// Creates the tables and inserts `records` as rows of `entity` in one transaction.
  ///
  /// Rows stream from `SQLDataLoader.forEachRow` into the database as they are made: through
  /// the database's `SQLBulkLoading` writer when it has one (SQLite: one prepared INSERT per
  /// table; PostgreSQL: `COPY … FROM STDIN`), else one `execute` per row. The records can be in
  /// any form the loader reads (`SQLLoadRecord`), and are never all converted at once.
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())
  /// ```
  @inlinable
  public func load<Records: Collection>(
    _ records: Records, entity: String, schema: SQLSchema, dialect: any SQLDialect
  ) throws(SiftError) where Records.Element: SQLLoadRecord {
    let loader = SQLDataLoader(schema: schema, dialect: dialect)
    let tables = try loader.tables(for: entity)
    try createTables(schema, dialect: dialect)
    try executeScript("BEGIN")
    do throws(SiftError) {
      if let bulk = self as? any SQLBulkLoading {
        let writer = try bulk.rowWriter(for: tables)
        do throws(SiftError) {
          try loader.forEachRow(in: records, entity: entity) { table, values in try writer.write(table, values) }
          try writer.finish()
        } catch {
          writer.cancel()
          throw error
        }
      } else {
        try loader.forEachRow(in: records, entity: entity) { table, values in
          _ = try execute(SQLStatement(sql: tables[table].insertSQL, bindings: values))
        }
      }
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
  public func matchingIndices(
    of predicate: SiftPredicate, entity: String, compiler: SQLCompiler
  ) throws(SiftError) -> [Int] {
    let rows = try execute(try compiler.compileMatchingIndices(predicate, entity: entity))
    return rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } }
  }
}

/// A database that inserts many rows faster than one `execute` per row. `SQLDatabase.load`
/// asks it for a writer inside its transaction, hands it every row, then calls `finish`.
public protocol SQLBulkLoading: SQLDatabase {
  /// A writer for rows of `tables` (named by their `index`).
  func rowWriter(for tables: [SQLLoadTable]) throws(SiftError) -> any SQLRowWriter
}

/// Receives the rows of one load (see `SQLBulkLoading`).
public protocol SQLRowWriter: AnyObject {
  /// Inserts one row of `tables[table]`: one value per column, in order.
  func write(_ table: Int, _ values: [SQLValue]) throws(SiftError)
  /// Sends whatever is buffered and releases the writer's statements; the load then commits.
  func finish() throws(SiftError)
  /// Drops buffered rows and releases the statements after an error; the load rolls back.
  func cancel()
}
