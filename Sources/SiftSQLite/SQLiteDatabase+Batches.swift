import CSQLite
import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// Steps the statement and hands its rows on `size` at a time, holding one batch
  /// (`SQLDatabase.fetch(_:compiler:batches:)`). `body` must not run the same statement text
  /// on this connection (the prepared statement is in use until the last batch).
  ///
  /// ```swift
  /// try db.forEachBatch(try compiler.compile(request), size: 100) { rows in print(rows.count) }
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`); `body`'s error.
  public func forEachBatch(
    _ statement: SQLStatement, size: Int, _ body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError) {
    let st = try bound(statement)
    defer { sqlite3_reset(st) }
    let size = max(1, size)
    let columns = sqlite3_column_count(st)
    var batch: [[SQLValue]] = []
    batch.reserveCapacity(min(size, 4096))
    var first = true
    while true {
      let rc = step(st, firstStep: first)
      first = false
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw lastError(statement.sql) }
      var row: [SQLValue] = []
      row.reserveCapacity(Int(columns))
      for c in 0..<columns { row.append(SQLiteDatabase.read(st, c)) }
      batch.append(row)
      if batch.count == size {
        try body(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    if !batch.isEmpty { try body(batch) }
  }
}
