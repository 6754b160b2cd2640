import CSQLite
import Foundation
import SiftSQL
import SiftSyntax

/// One load's rows on their way into SQLite (see `SQLiteDatabase.rowWriter(for:)`): rows are
/// held back per table, and each batch is inserted on a second thread while the loader makes
/// the next one, so making rows and inserting them take one core each. Batches are inserted
/// in order, one at a time, each table's rows in their order; at most two wait. An INSERT that
/// fails stops the rest: the error comes out of the next `write` or `finish`.
///
/// Why a second thread: `sift-bench --suite scale`, `sqlite_copy_vs_baseline` (the REPL's copy
/// on first SQL use over a plain prepared-INSERT loop over ready-made rows): making the rows
/// is about a third of a one-thread copy.
///
/// ```swift
/// let w = try db.rowWriter(for: loader.tables(for: "Venue"))
/// try w.write(0, [.integer(1), .text("Blue Cafe")])
/// try w.finish()
/// ```
final class SQLiteRowWriter: SQLRowWriter {
  let inserts: SQLiteInserts
  /// Rows held back, per table, one after another (a table's rows all have its width): one
  /// array per table rather than one per row, so the rows' own arrays are freed at once on
  /// the loading thread, where they were made.
  var pending: [[SQLValue]]
  var pendingCount = 0
  /// Rows held back before a batch goes to the inserting thread.
  static let batch = 8192
  let queue = DispatchQueue(label: "sift.sqlite.load")
  /// Batches handed over and not yet inserted (at most two).
  let slots = DispatchSemaphore(value: 2)
  let failure = SQLiteLoadFailure()

  init(_ inserts: SQLiteInserts) {
    self.inserts = inserts
    pending = inserts.statements.map { _ in [] }
  }

  deinit { cancel() }

  func write(_ table: Int, _ values: [SQLValue]) throws(SiftError) {
    guard values.count == inserts.statements[table].width else {
      throw SQLiteDatabase.error(
        "\(values.count) values for \(inserts.statements[table].width) columns", sql: inserts.statements[table].sql)
    }
    pending[table].append(contentsOf: values)
    pendingCount += 1
    if pendingCount >= SQLiteRowWriter.batch { try flush() }
  }

  /// Hands the rows held back to the inserting thread (waiting while two batches wait).
  func flush() throws(SiftError) {
    if let error = failure.error { throw error }
    guard pendingCount > 0 else { return }
    let rows = pending
    pending = pending.map { _ in [] }
    pendingCount = 0
    slots.wait()
    let (inserts, failure, slots) = (inserts, failure, slots)
    queue.async {
      defer { slots.signal() }
      guard failure.error == nil else { return }
      do throws(SiftError) { try inserts.insert(rows) } catch { failure.record(error) }
    }
  }

  func finish() throws(SiftError) {
    try flush()
    queue.sync {}
    let error = failure.error
    cancel()
    if let error { throw error }
  }

  func cancel() {
    // The database is the caller's again only once the inserting thread is done with it.
    queue.sync {}
    inserts.finalize()
    pending = pending.map { _ in [] }
    pendingCount = 0
  }
}

/// The prepared INSERTs of one load and their connection: used by one thread at a time (the
/// writer's inserting thread while a load runs, the caller's after `finish`/`cancel` have
/// waited for it), hence `@unchecked Sendable`.
final class SQLiteInserts: @unchecked Sendable {
  let handle: OpaquePointer
  var statements: [(statement: OpaquePointer, sql: String, width: Int)] = []

  init(handle: OpaquePointer) { self.handle = handle }

  /// Inserts a batch: each table's rows (its values one row after another), table by table.
  func insert(_ rows: [[SQLValue]]) throws(SiftError) {
    for t in rows.indices where !rows[t].isEmpty {
      let (st, sql, width) = statements[t]
      guard width > 0 else { continue }
      var start = 0
      while start + width <= rows[t].count {
        defer { sqlite3_reset(st) }
        for i in 0..<width {
          guard SQLiteDatabase.bind(rows[t][start + i], to: st, at: Int32(i + 1)) == SQLITE_OK else {
            throw failure(sql)
          }
        }
        guard sqlite3_step(st) == SQLITE_DONE else { throw failure(sql) }
        start += width
      }
    }
  }

  func failure(_ sql: String) -> SiftError {
    SQLiteDatabase.error(String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  func finalize() {
    for (st, _, _) in statements { sqlite3_finalize(st) }
    statements = []
  }
}

/// The first error of a load's inserting thread, read by the loading thread.
final class SQLiteLoadFailure: @unchecked Sendable {
  private let lock = NSLock()
  private var first: SiftError?

  var error: SiftError? {
    lock.lock()
    defer { lock.unlock() }
    return first
  }

  func record(_ error: SiftError) {
    lock.lock()
    defer { lock.unlock() }
    if first == nil { first = error }
  }
}
