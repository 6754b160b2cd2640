import CSQLite
import Foundation
import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// `execute(_:)` for an `async` caller that may cancel (`NSAsynchronousFetchRequest`): the
  /// statement runs on the calling task; `progress` is called every `progressInterval` rows
  /// and, during long scans that return nothing yet, every `progressInterval × 100` SQLite
  /// virtual-machine steps (with the rows so far). A cancelled task stops the statement
  /// (`sqlite3_interrupt`, and a check at every report) with the error `cancelled`; the
  /// connection stays usable.
  ///
  /// ```swift
  /// let rows = try await db.executeAsync(try compiler.compile(request)) { p in print(p.scanned) }
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does, or `cancelled` (stage `.sql`).
  public func executeAsync(
    _ statement: SQLStatement, progressInterval: Int = 1000, progress: (@Sendable (SiftFetchProgress) -> Void)? = nil
  ) async throws(SiftError) -> [[SQLValue]] {
    guard let handle = connectionHandle else { return try execute(statement) }
    if Task.isCancelled { throw .cancelled(stage: .sql) }
    let step = min(max(1, progressInterval), Int(Int32.max) / 100)  // rows; VM steps = step * 100 fit in Int32
    let ticker = ProgressTicker(progress)
    let interrupt = Interrupt(handle)
    let box = Unmanaged.passRetained(ticker)
    sqlite3_progress_handler(
      handle, Int32(clamping: step * 100),
      { context in
        guard let context else { return 0 }
        let ticker = Unmanaged<ProgressTicker>.fromOpaque(context).takeUnretainedValue()
        ticker.report()
        return Task.isCancelled ? 1 : 0
      }, box.toOpaque())
    defer {
      sqlite3_progress_handler(handle, 0, nil, nil)
      box.release()
    }
    do {
      return try await withTaskCancellationHandler {
        try self.rows(statement) { (n) throws(SiftError) in
          ticker.rows = n
          if n % step == 0 { ticker.report() }
          if Task.isCancelled { throw .cancelled(stage: .sql) }
        }
      } onCancel: {
        interrupt.fire()
      }
    } catch {
      if Task.isCancelled { throw .cancelled(stage: .sql) }
      if let e = error as? SiftError { throw e }
      throw SQLiteDatabase.error("\(error)", sql: statement.sql)
    }
  }
}

/// Calls a progress closure with the rows read so far (from the row loop and from SQLite's
/// progress handler, both on the statement's thread).
final class ProgressTicker {
  let progress: (@Sendable (SiftFetchProgress) -> Void)?
  var rows = 0

  init(_ progress: (@Sendable (SiftFetchProgress) -> Void)?) { self.progress = progress }

  func report() { progress?(SiftFetchProgress(scanned: rows, total: nil, matched: rows)) }
}

/// `sqlite3_interrupt` from the cancelling thread; it only sets a flag the running statement
/// checks, and the handle outlives the statement.
struct Interrupt: @unchecked Sendable {
  let handle: OpaquePointer
  init(_ handle: OpaquePointer) { self.handle = handle }
  func fire() { sqlite3_interrupt(handle) }
}
