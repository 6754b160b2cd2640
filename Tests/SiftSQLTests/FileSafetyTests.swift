import Foundation
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftSQLite

/// Opening a user's file follows links to the real file, refuses what is not a regular file
/// before reading a byte, and creates nothing beside it, whatever its journal mode.
@Suite("Files beside the user's")
struct FileSafetyTests {
  enum Journal: String, CaseIterable { case delete = "DELETE", wal = "WAL" }

  /// A database `real.sqlite` in `dir`, in `journal` mode, with rows 1 to 3, closed.
  static func makeDatabase(_ dir: URL, _ journal: Journal) throws -> String {
    let path = dir.appendingPathComponent("real.sqlite").path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      "PRAGMA journal_mode = \(journal.rawValue); CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3);")
    return path
  }

  static func listing(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
  }

  /// The message opening `path` fails with, or nil when it opens.
  static func openError(_ path: String, untouched: Bool) -> String? {
    do {
      _ = untouched ? try SQLiteDatabase(untouched: path) : try SQLiteDatabase(readOnly: path)
      return nil
    } catch {
      return error.diagnostic.message
    }
  }

  static func count(_ db: SQLiteDatabase) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "SELECT count(*) FROM t"))
  }

  /// Direct, through an absolute link and through a relative link from another folder; with
  /// the file closed (no -wal/-shm) and with a writer holding it open (both exist).
  @Test(arguments: Journal.allCases, [false, true])
  func nothingIsCreatedBesideTheFile(journal: Journal, writerOpen: Bool) throws {
    let dir = try scratchDirectory("sift-files")
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = dir.appendingPathComponent("data")
    let links = dir.appendingPathComponent("links")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
    let real = try Self.makeDatabase(data, journal)
    let writer = writerOpen ? try SQLiteDatabase(path: real) : nil
    if let writer { try writer.executeScript("INSERT INTO t VALUES (4)") }
    let absolute = links.appendingPathComponent("absolute.sqlite").path
    let relative = links.appendingPathComponent("relative.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: absolute, withDestinationPath: real)
    try FileManager.default.createSymbolicLink(atPath: relative, withDestinationPath: "../data/real.sqlite")
    let before = (try Self.listing(data), try Self.listing(links))
    let rows: Int64 = writerOpen ? 4 : 3
    for path in [real, absolute, relative] {
      let db = try SQLiteDatabase(untouched: path)
      #expect(try Self.count(db) == [[.integer(rows)]], "\(path)")
      if journal == .delete || writerOpen {
        // Read in place: the same answer from init(readOnly:).
        #expect(try Self.count(try SQLiteDatabase(readOnly: path)) == [[.integer(rows)]], "\(path)")
      }
    }
    #expect(try Self.listing(data) == before.0)
    #expect(try Self.listing(links) == before.1)
    _ = writer
  }

  /// `init(readOnly:)` refuses a closed WAL-mode file (reading it in place would create
  /// -wal and -shm); `init(untouched:)` reads it from a private copy.
  @Test func closedWALFileIsRefusedInPlace() throws {
    let dir = try scratchDirectory("sift-files")
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = try Self.makeDatabase(dir, .wal)
    #expect(try Self.listing(dir) == ["real.sqlite"])
    do {
      _ = try SQLiteDatabase(readOnly: real)
      Issue.record("opened in place")
    } catch {
      #expect(
        error.diagnostic.message.contains("WAL-mode database whose real.sqlite-wal or real.sqlite-shm is missing"))
    }
    #expect(SQLiteDatabase.readingCreatesFiles(beside: real))
    let db = try SQLiteDatabase(untouched: real)
    #expect(db.readsPrivateCopy)
    #expect(try Self.count(db) == [[.integer(3)]])
    #expect(try Self.listing(dir) == ["real.sqlite"])
  }

  /// A FIFO, a directory, a device and a broken link are refused at once, by kind.
  @Test func notARegularFileIsRefusedBeforeAnyRead() throws {
    let dir = try scratchDirectory("sift-files")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe.sqlite").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let link = dir.appendingPathComponent("to-pipe.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "pipe.sqlite")
    let broken = dir.appendingPathComponent("broken.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: "nowhere.sqlite")
    let cases: [(String, String)] = [
      (fifo, "it is a FIFO (named pipe), not a database file"),
      (link, "it is a FIFO (named pipe), not a database file"),
      (dir.path, "it is a directory, not a database file"),
      ("/dev/null", "it is a device, not a database file"),
      (broken, "it is a link to a file that does not exist"),
    ]
    let start = Date()
    for (path, reason) in cases {
      for untouched in [false, true] {
        #expect(Self.openError(path, untouched: untouched) == "cannot open \(path): \(reason)")
      }
    }
    // Opened for writing too (watch --write, load): refused, not waited on.
    do {
      _ = try SQLiteDatabase(path: fifo)
      Issue.record("opened a FIFO read-write")
    } catch {
      #expect(error.diagnostic.message == "cannot open \(fifo): it is a FIFO (named pipe), not a database file")
    }
    #expect(Date().timeIntervalSince(start) < 5, "no wait on the FIFO")
  }

  /// A hot journal (a write left unfinished) is named in the user's words.
  @Test func hotJournalIsNamed() throws {
    let dir = try scratchDirectory("sift-files")
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = try Self.makeDatabase(dir, .delete)
    let crashed = dir.appendingPathComponent("crashed")
    try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
    let writer = try SQLiteDatabase(path: real)
    // synchronous = OFF writes the journal header at once (otherwise it is zero until the commit).
    try writer.executeScript("PRAGMA synchronous = OFF; BEGIN; UPDATE t SET a = a + 10;")
    // The file and its journal as a crash in the middle of the transaction leaves them.
    let copy = crashed.appendingPathComponent("real.sqlite").path
    try FileManager.default.copyItem(atPath: real, toPath: copy)
    try FileManager.default.copyItem(atPath: real + "-journal", toPath: copy + "-journal")
    try writer.executeScript("ROLLBACK")
    let before = try Self.listing(crashed)
    do {
      _ = try SQLiteDatabase(untouched: copy)
      Issue.record("opened a file with a hot journal")
    } catch {
      let message = error.diagnostic.message
      #expect(message.hasPrefix("cannot open \(copy): it has an unfinished write (a hot journal, real.sqlite-journal"))
      #expect(!message.contains("readonly database"))
    }
    #expect(try Self.listing(crashed) == before)
  }
}
