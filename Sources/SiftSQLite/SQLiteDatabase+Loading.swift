import CSQLite
import SiftSQL
import SiftSyntax

extension SQLiteDatabase: SQLBulkLoading {
  /// A writer that prepares each table's INSERT once and binds, steps and resets it per row
  /// (inside `load`'s transaction): the plain loop SQLite is fastest with. Rows are held back
  /// per table and inserted a few thousand at a time, table by table (each table's rows in
  /// their order): alternating tables row by row (a venue, then its tags) cost about a third
  /// more than the same rows table by table (`sift-bench --suite scale`, `sqlite_copy`).
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())   // uses it
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`) when an INSERT does not prepare.
  public func rowWriter(for tables: [SQLLoadTable]) throws -> any SQLRowWriter {
    guard let handle else { throw SQLiteDatabase.error("database is closed", sql: "") }
    let writer = SQLiteRowWriter(handle: handle)
    for t in tables {
      var st: OpaquePointer?
      guard sqlite3_prepare_v2(handle, t.insertSQL, -1, &st, nil) == SQLITE_OK, let st else {
        let message = String(cString: sqlite3_errmsg(handle))
        sqlite3_finalize(st)
        writer.cancel()
        throw SQLiteDatabase.error(message, sql: t.insertSQL)
      }
      writer.statements.append((st, t.insertSQL))
    }
    return writer
  }
}

/// One load's prepared INSERTs (see `SQLiteDatabase.rowWriter(for:)`).
final class SQLiteRowWriter: SQLRowWriter {
  let handle: OpaquePointer
  var statements: [(statement: OpaquePointer, sql: String)] = [] {
    didSet { pending = statements.map { _ in [] } }
  }
  /// Rows held back, per table.
  var pending: [[[SQLValue]]] = []
  var pendingCount = 0
  /// Rows held back before they are inserted.
  static let batch = 8192

  init(handle: OpaquePointer) { self.handle = handle }

  deinit { cancel() }

  func write(_ table: Int, _ values: [SQLValue]) throws {
    pending[table].append(values)
    pendingCount += 1
    if pendingCount >= SQLiteRowWriter.batch { try flush() }
  }

  func flush() throws {
    for t in pending.indices where !pending[t].isEmpty {
      let rows = pending[t]
      pending[t].removeAll(keepingCapacity: true)
      for values in rows { try insert(t, values) }
    }
    pendingCount = 0
  }

  func insert(_ table: Int, _ values: [SQLValue]) throws {
    let (st, sql) = statements[table]
    defer { sqlite3_reset(st) }
    for (i, v) in values.enumerated() {
      guard SQLiteDatabase.bind(v, to: st, at: Int32(i + 1)) == SQLITE_OK else { throw failure(sql) }
    }
    guard sqlite3_step(st) == SQLITE_DONE else { throw failure(sql) }
  }

  func failure(_ sql: String) -> SiftError {
    SiftError(
      stage: .sql,
      diagnostic: Diagnostic(
        id: "sqlite-error", message: String(cString: sqlite3_errmsg(handle)), range: SourceRange(start: 0, end: sql.utf8.count)),
      source: sql)
  }

  func finish() throws {
    try flush()
    cancel()
  }

  func cancel() {
    for (st, _) in statements { sqlite3_finalize(st) }
    statements = []
    pendingCount = 0
  }
}
