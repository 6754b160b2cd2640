import CLibPQ
import Foundation
import SiftSQL
import SiftSyntax

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PostgresDatabase {
  /// `execute(_:)` for an `async` caller that may cancel (`NSAsynchronousFetchRequest`): rows
  /// stream from the server one at a time (libpq single-row mode); `progress` is called every
  /// `progressInterval` rows, and every 100 ms while the server has sent nothing new (a long
  /// scan or aggregate), with the rows so far. A cancelled task asks the server to cancel the
  /// statement (`PQcancel`, repeated until it ends, which also stops a long scan that has sent
  /// nothing yet) and abandons the rest of the rows, throwing `PostgresError` of kind
  /// `.cancelled`; the connection stays usable.
  ///
  /// ```swift
  /// let rows = try await db.executeAsync(try compiler.compile(request)) { p in print(p.scanned) }
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does (`missing-sift-functions` included), or id
  ///   `cancelled` (a `PostgresError` of kind `.cancelled` beneath).
  public func executeAsync(
    _ statement: SQLStatement, progressInterval: Int = 1000, progress: (@Sendable (SiftFetchProgress) -> Void)? = nil
  ) async throws(SiftError) -> [[SQLValue]] {
    try checkSchema(of: statement)
    do throws(PostgresError) {
      return try await executeAsyncChecked(statement, progressInterval: progressInterval, progress: progress)
    } catch {
      throw error.siftError
    }
  }

  func executeAsyncChecked(
    _ statement: SQLStatement, progressInterval: Int, progress: (@Sendable (SiftFetchProgress) -> Void)?
  ) async throws(PostgresError) -> [[SQLValue]] {
    let cancelled = PostgresError(kind: .cancelled, message: "the statement was cancelled", statement: statement.sql)
    if Task.isCancelled { throw cancelled }
    try checkFunctions(statement.requiredFunctionReferences)
    let step = max(1, progressInterval)
    let canceller = PostgresCanceller()
    let rows: [[PostgresWireValue]]
    do {
      rows = try await withTaskCancellationHandler {
        try self.query(
          statement.sql, statement.bindings.map(PostgresWireValue.init), canceller: canceller,
          afterRow: { n in
            if n % step == 0 { progress?(SiftFetchProgress(scanned: n, total: nil, matched: n)) }
            return !Task.isCancelled
          },
          waiting: { n in progress?(SiftFetchProgress(scanned: n, total: nil, matched: n)) })
      } onCancel: {
        canceller.cancel()
      }
    } catch {
      if Task.isCancelled || canceller.wasCancelled { throw cancelled }
      if let e = error as? PostgresError { throw e }
      throw PostgresError(kind: .query, message: "\(error)", statement: statement.sql)
    }
    if Task.isCancelled { throw cancelled }
    return rows.map { $0.map(SQLValue.init) }
  }
}

/// Cancels the statement a connection is running, from any thread: `PQcancel` with the
/// connection's cancel object, which exists only while the statement runs.
final class PostgresCanceller: @unchecked Sendable {
  private let lock = NSLock()
  private var object: OpaquePointer?
  private var cancelled = false

  /// Whether `cancel()` was called.
  var wasCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Takes the connection's cancel object for the statement about to run.
  func arm(_ conn: OpaquePointer) {
    lock.lock()
    defer { lock.unlock() }
    object = PQgetCancel(conn)
    if cancelled, let object { Self.send(object) }
  }

  /// Frees the cancel object once the statement is over.
  func disarm() {
    lock.lock()
    defer { lock.unlock() }
    if let object { PQfreeCancel(object) }
    object = nil
  }

  /// Asks the server to cancel the running statement (nothing when none runs).
  func cancel() {
    lock.lock()
    defer { lock.unlock() }
    cancelled = true
    if let object { Self.send(object) }
  }

  private static func send(_ object: OpaquePointer) {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = PQcancel(object, &buffer, Int32(buffer.count))
  }
}

extension PostgresConnection {
  /// `execute` in single-row mode: `afterRow(n)` runs after the n-th row; when it returns
  /// false the statement is cancelled on the server and the remaining results are drained.
  func executeRows(
    _ sql: String, parameters: [PostgresWireParameter], canceller: PostgresCanceller, afterRow: (Int) -> Bool,
    waiting: (Int) -> Void
  ) throws(PostgresError) -> [[PostgresCell]] {
    let conn = try open()
    guard !sql.utf8.contains(0) else {
      throw PostgresError(kind: .unsupportedValue, message: "SQL text contains a NUL character", statement: sql)
    }
    guard parameters.count <= Int(Int32.max) else {
      throw PostgresError(kind: .unsupportedValue, message: "too many parameters", statement: sql)
    }
    let buffers = ParameterBuffers(parameters)
    defer { buffers.deallocate() }
    guard
      PQsendQueryParams(
        conn, sql, Int32(parameters.count), buffers.types, buffers.values, buffers.lengths, buffers.formats, 0) == 1
    else {
      throw PostgresError(
        kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)), statement: sql)
    }
    _ = PQsetSingleRowMode(conn)
    canceller.arm(conn)
    defer { canceller.disarm() }
    var rows: [[PostgresCell]] = []
    var failure: PostgresError?
    var stopped = false
    // Every result must be read, even after a failure or a stop, or the connection stays busy.
    while let result = nextResult(conn, canceller, waiting: { waiting(rows.count) }) {
      defer { PQclear(result) }
      if stopped || failure != nil { continue }
      do {
        guard PQresultStatus(result) == PGRES_SINGLE_TUPLE else {
          try check(result, conn: conn, statement: sql)
          continue
        }
        rows += try PostgresConnection.rows(of: result, statement: sql)
        if !afterRow(rows.count) {
          stopped = true
          canceller.cancel()
        }
      } catch {
        failure = error
      }
    }
    if stopped { throw PostgresError(kind: .cancelled, message: "the statement was cancelled", statement: sql) }
    if let failure { throw failure }
    return rows
  }

  /// The next result, waiting in slices of 100 ms (`waiting` after each empty one): once the
  /// statement is to be cancelled (the task was cancelled, or `afterRow` stopped it) the cancel
  /// request is sent again every slice, since one that reaches the server before the
  /// statement starts is ignored.
  private func nextResult(_ conn: OpaquePointer, _ canceller: PostgresCanceller, waiting: () -> Void) -> OpaquePointer?
  {
    while PQisBusy(conn) == 1 {
      var fd = pollfd(fd: PQsocket(conn), events: Int16(POLLIN), revents: 0)
      let ready = poll(&fd, 1, 100)
      if ready < 0 && errno != EINTR { break }
      if PQconsumeInput(conn) == 0 { break }  // PQgetResult reports the connection's error
      if ready == 0 && !canceller.wasCancelled { waiting() }
      if Task.isCancelled || canceller.wasCancelled { canceller.cancel() }
    }
    return PQgetResult(conn)
  }
}
