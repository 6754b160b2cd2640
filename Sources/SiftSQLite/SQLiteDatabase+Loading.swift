import CSQLite
import SiftSQL
import SiftSyntax

extension SQLiteDatabase: SQLBulkLoading {
  /// A writer that prepares each table's INSERT once and binds, steps and resets it per row
  /// (inside `load`'s transaction): the plain loop SQLite is fastest with. Rows are held back
  /// per table and inserted a few thousand at a time, table by table (each table's rows in
  /// their order): alternating tables row by row (a venue, then its tags) cost about a third
  /// more than the same rows table by table (`sift-bench --suite scale`, `sqlite_copy`).
  /// The batches are inserted on a second thread while the next batch is made
  /// (`SQLiteRowWriter`).
  ///
  /// ```swift
  /// try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())   // uses it
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-error`) when an INSERT does not prepare.
  public func rowWriter(for tables: [SQLLoadTable]) throws(SiftError) -> any SQLRowWriter {
    guard let handle else { throw SQLiteDatabase.error("database is closed", sql: "") }
    let inserts = SQLiteInserts(handle: handle)
    for t in tables {
      var st: OpaquePointer?
      guard sqlite3_prepare_v2(handle, t.insertSQL, -1, &st, nil) == SQLITE_OK, let st else {
        let message = String(cString: sqlite3_errmsg(handle))
        sqlite3_finalize(st)
        inserts.finalize()
        throw SQLiteDatabase.error(message, sql: t.insertSQL)
      }
      inserts.statements.append((st, t.insertSQL, t.columns.count))
    }
    return SQLiteRowWriter(inserts)
  }
}
