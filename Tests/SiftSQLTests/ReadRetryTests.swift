import Foundation
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftSQLite

/// A reader of a file another program writes meets transient states (issue #35, item 4): a
/// WAL index caught mid-update (`SQLITE_READONLY_RECOVERY`, `SQLITE_READONLY_CANTINIT`, both
/// "attempt to write a readonly database"), a rebuild under way (`SQLITE_BUSY_RECOVERY`,
/// `SQLITE_PROTOCOL`). They are run again within the busy timeout and never shown; a lock
/// held past it is `sqlite-locked`, naming the file, not Sift's SQL with a caret.
@Suite("Reads retried through a writer's transient states")
struct ReadRetryTests {
  /// SQLite's result codes (sqlite3.h) this test uses.
  static let (row, corrupt): (Int32, Int32) = (100, 11)

  /// The retry decision, by extended result code.
  @Test func whichCodesAreRetried() {
    let retried: [(Int32, String)] = [
      (8 | 1 << 8, "SQLITE_READONLY_RECOVERY"), (8 | 5 << 8, "SQLITE_READONLY_CANTINIT"),
      (5, "SQLITE_BUSY"), (5 | 1 << 8, "SQLITE_BUSY_RECOVERY"), (5 | 3 << 8, "SQLITE_BUSY_TIMEOUT"),
      (15, "SQLITE_PROTOCOL"),
    ]
    let reported: [(Int32, String)] = [
      (8, "SQLITE_READONLY"), (8 | 3 << 8, "SQLITE_READONLY_ROLLBACK"), (8 | 4 << 8, "SQLITE_READONLY_DBMOVED"),
      (5 | 2 << 8, "SQLITE_BUSY_SNAPSHOT"), (1, "SQLITE_ERROR"), (11, "SQLITE_CORRUPT"), (26, "SQLITE_NOTADB"),
      (14, "SQLITE_CANTOPEN"), (9, "SQLITE_INTERRUPT"), (6, "SQLITE_LOCKED"),
    ]
    for (code, name) in retried { #expect(SQLiteRetry.isTransient(code), "\(name) is retried") }
    for (code, name) in reported { #expect(!SQLiteRetry.isTransient(code), "\(name) is the answer") }
    #expect(SQLiteRetry.readOnlyRecovery == 264 && SQLiteRetry.readOnlyCantInit == 1288)
  }

  /// A transient failure is run again until it passes; another failure, or a closed window,
  /// is the answer at once.
  @Test func transientFailuresAreRunAgain() {
    var codes: [Int32] = [8 | 1 << 8, 8 | 5 << 8, 5 | 1 << 8, Self.row]
    var attempts = 0
    let rc = SQLiteDatabase.retrying(milliseconds: 60_000, first: codes.removeFirst(), code: { 8 | 1 << 8 }) {
      attempts += 1
      return codes.removeFirst()
    }
    #expect(rc == Self.row && attempts == 3)

    attempts = 0
    let corrupt = SQLiteDatabase.retrying(milliseconds: 60_000, first: Self.corrupt, code: { Self.corrupt }) {
      attempts += 1
      return Self.row
    }
    #expect(corrupt == Self.corrupt && attempts == 0)

    let closed = SQLiteDatabase.retrying(milliseconds: 0, first: 8 | 1 << 8, code: { 8 | 1 << 8 }) {
      attempts += 1
      return Self.row
    }
    #expect(closed == 8 | 1 << 8 && attempts == 0)
  }

  /// Pauses grow and stay short beside the busy timeout.
  @Test func pausesGrowAndStayShort() {
    var retry = SQLiteRetry(milliseconds: 60_000)
    var pauses: [UInt32] = []
    for _ in 0..<8 {
      pauses.append(retry.pause)
      let again = retry.again(after: 5)
      #expect(again)
    }
    #expect(pauses.first == 500 && pauses == pauses.sorted() && pauses.last == SQLiteRetry.longestPause)
    #expect(retry.retries == 8)
  }

  /// A file locked past the busy timeout: `sqlite-locked` naming the file, not the SQL.
  @Test func aLockHeldPastTheTimeoutNamesTheFile() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("held.sqlite").path
    let writer = try SQLiteDatabase(path: path)
    try writer.executeScript("PRAGMA journal_mode = DELETE; CREATE TABLE t (a); INSERT INTO t VALUES (1)")
    let reader = try SQLiteDatabase(readOnly: path, busyTimeout: 20)
    try writer.executeScript("BEGIN EXCLUSIVE; INSERT INTO t VALUES (2)")
    let error = try #require(throws: SiftError.self) {
      try reader.execute(SQLStatement(sql: "SELECT count(*) FROM t"))
    }
    #expect(error.id == "sqlite-locked", "\(error)")
    #expect(
      error.message == "\(path) is locked by another connection (still after waiting 20 ms); "
        + "try again once it has finished writing")
    #expect(error.source.isEmpty && !error.description.contains("SELECT"), "\(error)")
    // The same on a writable connection told to wait (sift watch --write).
    let other = try SQLiteDatabase(path: path)
    other.waitWhenLocked(milliseconds: 20)
    let locked = try #require(throws: SiftError.self) {
      try other.execute(SQLStatement(sql: "SELECT name FROM sqlite_master"))
    }
    #expect(locked.id == "sqlite-locked" && locked.message.hasPrefix("\(path) is locked"), "\(locked)")
    try writer.executeScript("ROLLBACK")
    #expect(try reader.execute(SQLStatement(sql: "SELECT count(*) FROM t")) == [[.integer(1)]])
  }
}
