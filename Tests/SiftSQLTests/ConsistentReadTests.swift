import Foundation
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftSQLite

/// A read of a live WAL-mode file sees one committed state: a writer keeps exactly one row
/// flagged, moving it and checkpointing as fast as it can (closing and reopening now and then,
/// which deletes `-wal` and `-shm`, so both of `init(untouched:)`'s paths are taken), while
/// thousands of reads open the file through Sift's opening path and count the flagged rows.
@Suite("Consistent reads of a live store", .serialized)
struct ConsistentReadTests {
  static let rows = 3_000

  /// A WAL-mode file with `rows` rows, row 1 flagged, pages padded so a checkpoint writes many.
  static func makeStore(_ dir: URL) throws -> String {
    let path = dir.appendingPathComponent("live.sqlite").path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      PRAGMA journal_mode = WAL;
      CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER NOT NULL, pad TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
      INSERT INTO t SELECT i, i = 1, hex(randomblob(200)) FROM n;
      """)
    return path
  }

  /// The writer's statements, one move and one checkpoint a step (modes in turn). The move
  /// writes only the two rows' pages (far apart), so a state torn between two commits shows.
  static func step(_ i: Int) -> String {
    let modes = ["PASSIVE", "FULL", "RESTART", "TRUNCATE"]
    let row = (i * 97) % rows + 1
    return "BEGIN; UPDATE t SET flag = 0 WHERE flag = 1; UPDATE t SET flag = 1 WHERE id = \(row); COMMIT; "
      + "PRAGMA wal_checkpoint(\(modes[i % modes.count]));"
  }

  /// Reads through `init(untouched:)` until `budget` seconds pass or `limit` reads are done.
  static func read(_ path: String, budget: TimeInterval, limit: Int) -> (
    reads: Int, wrong: [String], errors: [String], copies: Int
  ) {
    var reads = 0, copies = 0
    var wrong: [String] = [], errors: [String] = []
    let end = Date().addingTimeInterval(budget)
    while Date() < end, reads < limit {
      do {
        let db = try SQLiteDatabase(untouched: path)
        if db.readsPrivateCopy { copies += 1 }
        let rows = try db.execute(SQLStatement(sql: "SELECT count(*), (SELECT count(*) FROM t) FROM t WHERE flag = 1"))
        reads += 1
        if rows != [[.integer(1), .integer(Int64(Self.rows))]] { wrong.append("\(rows)") }
      } catch {
        errors.append(error.diagnostic.message)
      }
      // A pause now and then, so the writer can close as the last connection (deleting -wal
      // and -shm: the next reads take the private-copy path).
      if reads % 4 == 0 { usleep(200) }
    }
    return (reads, wrong, errors, copies)
  }

  @Test func readsUnderAWriterThreadAreNeverTorn() throws {
    let dir = try scratchDirectory("sift-live")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.makeStore(dir)
    let stop = StopFlag()
    let writer = Thread {
      var i = 0
      while !stop.isSet {
        // Bursts of 30 steps on a fresh connection; closing the last one deletes -wal and
        // -shm, and the pause after it lets the file settle, so reads copy it (and a burst
        // may start in the middle of a copy).
        do {
          guard let db = try? SQLiteDatabase(path: path) else { continue }
          for _ in 0..<30 where !stop.isSet {
            i += 1
            try? db.executeScript(Self.step(i))
          }
        }
        usleep(UInt32.random(in: 100_000...200_000))
      }
      stop.finished()
    }
    writer.start()
    let result = Self.read(path, budget: 8, limit: 20_000)
    stop.set()
    stop.waitUntilFinished()
    print("thread writer: \(result.reads) reads, \(result.copies) from a private copy, \(result.errors.count) errors")
    #expect(result.reads >= 500)
    #expect(result.wrong.isEmpty, "torn reads: \(result.wrong.count), e.g. \(result.wrong.prefix(3))")
    #expect(result.errors.count * 100 <= result.reads, "errors: \(Set(result.errors))")
    // A writer's transient states are waited out, never shown (issue #35, item 4: about 3 in
    // 1,000 reads said "attempt to write a readonly database").
    #expect(!result.errors.contains { $0.contains("readonly") }, "errors: \(Set(result.errors))")
    // Which path the reads take depends on the writer's timing (on a loaded machine every read
    // may find the writer's -wal and read in place); both are checked for torn reads above, and
    // the copy path's own consistency check has its own tests in FileSafetyTests.
    if result.copies == 0 { print("note: no read took the private-copy path this run") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { $0.hasPrefix("live.sqlite") })
  }

  /// The same with the `sqlite3` shell as the writer, in its own process (skipped without it).
  @Test func readsUnderAWriterProcessAreNeverTorn() throws {
    guard
      let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return }
    let dir = try scratchDirectory("sift-live")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.makeStore(dir)
    var script = ""
    for i in 1...60_000 {
      script += Self.step(i) + "\n"
      // Closes (deleting -wal and -shm), pauses so reads copy the file, and reopens.
      if i % 30 == 0 { script += ".open :memory:\n.shell sleep 0.15\n.open \(path)\n" }
    }
    let scriptURL = dir.appendingPathComponent("writer.sql")
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = [path]
    process.standardInput = try FileHandle(forReadingFrom: scriptURL)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // SIGKILL, then a wait: the child inherits the test thread's blocked signals, and a
    // `terminate()` (SIGTERM) left the writer running its script for minutes after the test.
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    Thread.sleep(forTimeInterval: 0.2)
    let result = Self.read(path, budget: 8, limit: 20_000)
    #expect(process.isRunning, "the writer ran for the whole test")
    print("process writer: \(result.reads) reads, \(result.copies) from a private copy, \(result.errors.count) errors")
    #expect(result.reads >= 500)
    // Which path the reads take depends on the writer's timing (on a loaded machine every read
    // may find the writer's -wal and read in place); both are checked for torn reads above, and
    // the copy path's own consistency check has its own tests in FileSafetyTests.
    if result.copies == 0 { print("note: no read took the private-copy path this run") }
    #expect(result.wrong.isEmpty, "torn reads: \(result.wrong.count), e.g. \(result.wrong.prefix(3))")
    #expect(result.errors.count * 100 <= result.reads, "errors: \(Set(result.errors))")
    // A writer's transient states are waited out, never shown (issue #35, item 4: about 3 in
    // 1,000 reads said "attempt to write a readonly database").
    #expect(!result.errors.contains { $0.contains("readonly") }, "errors: \(Set(result.errors))")
  }
}

/// A flag the writer thread polls, and a semaphore it signals when it stops.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  private let done = DispatchSemaphore(value: 0)
  var isSet: Bool { lock.withLock { flag } }
  func set() { lock.withLock { flag = true } }
  func finished() { done.signal() }
  func waitUntilFinished() { done.wait() }
}
