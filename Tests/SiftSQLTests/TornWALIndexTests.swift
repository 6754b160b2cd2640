import Foundation
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftSQLite

/// The transient state itself, on a real file (issue #35, item 4): another process (the
/// `sqlite3` shell) holds a WAL-mode file open, and its `-shm` index header is caught torn
/// (its two copies differ, as they do for an instant while a writer updates them). A reader
/// with `readonly_shm` gets `SQLITE_READONLY_RECOVERY`, "attempt to write a readonly
/// database": retried until the header is whole again, and past the busy timeout reported as
/// `sqlite-locked`, never in SQLite's words. Skipped without the `sqlite3` shell.
@Suite("A torn WAL index under another process", .serialized)
struct TornWALIndexTests {
  static let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs `body` while the shell holds `path` open (it wrote once, then sleeps).
  static func whileHeldOpen(_ path: String, _ body: () throws -> Void) throws {
    guard let shell else { return }
    let ready = path + ".ready"
    let done = path + ".done"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    // Holds the file open until `done` exists (at most 30 s).
    let wait = ".shell for i in $(seq 600); do [ -e '\(done)' ] && break; sleep 0.05; done"
    process.arguments = [path, "INSERT INTO t VALUES (2)", ".shell touch '\(ready)'", wait]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      _ = FileManager.default.createFile(atPath: done, contents: nil)
      process.waitUntilExit()
    }
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: ready), Date() < deadline { usleep(10_000) }
    try #require(FileManager.default.fileExists(atPath: ready), "the sqlite3 shell did not start")
    try body()
  }

  /// Flips one byte of the second copy of the `-shm` header (offset 48 + 16: its page count).
  static func tear(_ path: String) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path + "-shm"))
    defer { try? handle.close() }
    try handle.seek(toOffset: 48 + 16)
    let byte = try handle.read(upToCount: 1)?.first ?? 0
    try handle.seek(toOffset: 48 + 16)
    try handle.write(contentsOf: [byte ^ 0xFF])
  }

  /// A WAL-mode file made by the shell (no connection of this process touches it).
  static func store(_ shell: String) throws -> (URL, String) {
    let dir = try scratchDirectory("sift-torn")
    let path = dir.appendingPathComponent("held.sqlite").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = [path, "PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)"]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (dir, path)
  }

  @Test func aTornIndexIsWaitedOutThenNamedAsALock() throws {
    guard let shell = Self.shell else { return }
    let (dir, path) = try Self.store(shell)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.whileHeldOpen(path) {
      let reader = try SQLiteDatabase(readOnly: path, busyTimeout: 50)
      #expect(try reader.execute(SQLStatement(sql: "SELECT count(*) FROM t")) == [[.integer(2)]])
      try Self.tear(path)
      let error = try #require(throws: SiftError.self) {
        try reader.execute(SQLStatement(sql: "SELECT count(*) FROM t"))
      }
      #expect(error.id == "sqlite-locked", "\(error)")
      #expect(!error.message.contains("readonly") && error.message.contains(path), "\(error)")
      // Mended while a reader waits (opening reads the schema): it goes through.
      let mender = Thread {
        usleep(30_000)
        try? Self.tear(path)
      }
      mender.start()
      let patient = try SQLiteDatabase(readOnly: path, busyTimeout: 10_000)
      #expect(try patient.execute(SQLStatement(sql: "SELECT count(*) FROM t")) == [[.integer(2)]])
      #expect(try reader.execute(SQLStatement(sql: "SELECT count(*) FROM t")) == [[.integer(2)]])
    }
  }
}
