import CSQLite
import Dispatch
import Foundation

/// The transient states a reader meets while another program writes and checkpoints a file,
/// retried with a growing pause until the connection's busy timeout has passed.
///
/// SQLite's busy handler waits out a lock (`SQLITE_BUSY`), but a reader of a WAL-mode file
/// opened with `readonly_shm=1` can also catch the writer between two steps of updating the
/// `-shm` index: SQLite then answers `SQLITE_READONLY_RECOVERY` (the index looked torn and a
/// read-only connection may not rebuild it) or `SQLITE_READONLY_CANTINIT` (no connection had
/// the index open at that instant), both worded "attempt to write a readonly database", and
/// `SQLITE_BUSY_RECOVERY` or `SQLITE_PROTOCOL` while another connection rebuilds it. Each
/// is gone a moment later: the statement is reset and run again, before it has returned a
/// row (a read transaction starts at the first step, so nothing is read twice).
struct SQLiteRetry {
  /// The nanosecond clock reading after which no retry starts.
  let deadline: UInt64
  /// The next pause, in microseconds (doubled after each, up to `longestPause`).
  private(set) var pause: UInt32 = 500
  /// The longest pause between two tries: short beside a 200 ms busy timeout.
  static let longestPause: UInt32 = 20_000
  /// How many times the statement was run again.
  private(set) var retries = 0

  /// A retry window of `milliseconds` from now (none for 0).
  init(milliseconds: Int32) {
    deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, milliseconds)) &* 1_000_000
  }

  /// `SQLITE_READONLY_RECOVERY`, `SQLITE_READONLY_CANTINIT`, `SQLITE_BUSY_SNAPSHOT` (macros
  /// Swift does not import).
  static let readOnlyRecovery: Int32 = SQLITE_READONLY | 1 << 8
  static let readOnlyCantInit: Int32 = SQLITE_READONLY | 5 << 8
  static let busySnapshot: Int32 = SQLITE_BUSY | 2 << 8

  /// True when `extendedCode` (`sqlite3_extended_errcode`) is a transient state of a file
  /// another connection is writing, which the same statement run again a moment later gets past.
  static func isTransient(_ extendedCode: Int32) -> Bool {
    switch extendedCode {
    case readOnlyRecovery, readOnlyCantInit, SQLITE_PROTOCOL: true
    // SQLITE_BUSY and SQLITE_BUSY_RECOVERY (another connection rebuilds the WAL index);
    // SQLITE_BUSY_SNAPSHOT is a write's and not retried by running again.
    default: extendedCode & 0xFF == SQLITE_BUSY && extendedCode != busySnapshot
    }
  }

  /// True (after a pause) when `extendedCode` is transient and the window is still open;
  /// false when the failure is the answer.
  mutating func again(after extendedCode: Int32) -> Bool {
    guard Self.isTransient(extendedCode) else { return false }
    let now = DispatchTime.now().uptimeNanoseconds
    guard now < deadline else { return false }
    let left = UInt32(clamping: (deadline - now) / 1000)
    usleep(min(pause, left))
    pause = min(pause * 2, Self.longestPause)
    retries += 1
    return true
  }
}

extension SQLiteDatabase {
  /// `sqlite3_step`, run again while it fails in a transient state (`SQLiteRetry`) and no row
  /// was read yet (`firstStep`); the connection's busy timeout bounds the retries.
  func step(_ st: OpaquePointer, firstStep: Bool) -> Int32 {
    let rc = sqlite3_step(st)
    guard firstStep, rc != SQLITE_ROW, rc != SQLITE_DONE, let handle, retryMilliseconds > 0 else { return rc }
    return Self.retrying(milliseconds: retryMilliseconds, first: rc, code: { sqlite3_extended_errcode(handle) }) {
      sqlite3_reset(st)
      return sqlite3_step(st)
    }
  }

  /// `sqlite3_prepare_v2`, run again while it fails in a transient state (reading the schema
  /// starts a read transaction too).
  func prepareRetrying(_ sql: String, _ st: inout OpaquePointer?) -> Int32 {
    guard let handle else { return SQLITE_MISUSE }
    var prepared: OpaquePointer?
    let first = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
    guard first != SQLITE_OK, retryMilliseconds > 0 else {
      st = prepared
      return first
    }
    let rc = Self.retrying(milliseconds: retryMilliseconds, first: first, code: { sqlite3_extended_errcode(handle) }) {
      sqlite3_finalize(prepared)
      prepared = nil
      return sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
    }
    st = prepared
    return rc
  }

  /// Runs `attempt` again while `code()` (the failure's extended code) is transient and
  /// `milliseconds` have not passed since the first try; `first` is that try's result. The
  /// answer is the first result that is a success (`SQLITE_OK`, `SQLITE_ROW`, `SQLITE_DONE`)
  /// or a failure to report.
  static func retrying(
    milliseconds: Int32, first: Int32, code: () -> Int32, _ attempt: () -> Int32
  ) -> Int32 {
    var retry = SQLiteRetry(milliseconds: milliseconds)
    var rc = first
    while rc != SQLITE_OK, rc != SQLITE_ROW, rc != SQLITE_DONE, retry.again(after: code()) {
      rc = attempt()
    }
    return rc
  }
}
