import Foundation
import SiftSQL
import SiftSQLite
import Testing

/// `sift watch --db FILE --entity TABLE [--write]`, run as a process: edits written to the
/// database, changes committed by another connection reported as `"external": true` lines, a
/// read-only database left alone.
@Suite(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
struct WatchDatabaseTests {
  static func database() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-watch-\(UUID().uuidString).sqlite")
      .path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);
      INSERT INTO Venue VALUES (1, 'Alpha', 'Oslo', 5), (2, 'Bravo', 'Oslo', 3), (3, 'Cafe', 'Paris', 4), (4, 'Deli', 'Paris', 1);
      """)
    return path
  }

  static let args = ["rating > 0", "--sort", "rating desc", "--section", "city", "--entity", "Venue"]

  @Test func editsAreWrittenWithWrite() throws {
    let path = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = try SiftProcess.run(
      ["watch"] + Self.args + ["--db", path, "--write"],
      stdin: #"{"update": {"id": 2, "set": {"rating": 6}}}"# + "\n"
        + #"{"batch": [{"delete": 4}, {"update": {"id": 3, "set": {"nope": 1}}}]}"# + "\n"
        + #"{"insert": {"id": 5, "name": "Eel", "city": "Rome", "rating": 2}}"# + "\n")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(r.status == 0)
    #expect(
      lines == [
        #"{"snapshot": {"sections": [{"name": "Oslo", "ids": [1, 2]}, {"name": "Paris", "ids": [3, 4]}]}}"#,
        #"{"sections": {"deleted": [], "inserted": []}, "deleted": [], "inserted": [], "moved": [[[0, 1], [0, 0]]], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1]}, {"name": "Paris", "ids": [3, 4]}]}}"#,
        #"{"error": {"message": "table 'Venue' has no column 'nope'", "line": 2}}"#,
        #"{"sections": {"deleted": [], "inserted": [2]}, "deleted": [], "inserted": [[2, 0]], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1]}, {"name": "Paris", "ids": [3, 4]}, {"name": "Rome", "ids": [5]}]}}"#,
      ])
    let db = try SQLiteDatabase(readOnly: path)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT id, rating FROM Venue ORDER BY id")) == [
        [.integer(1), .integer(5)], [.integer(2), .integer(6)], [.integer(3), .integer(4)], [.integer(4), .integer(1)],
        [.integer(5), .integer(2)],
      ])
  }

  @Test func withoutWriteTheDatabaseIsLeftAlone() throws {
    let path = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let r = try SiftProcess.run(["watch"] + Self.args + ["--db", path], stdin: #"{"delete": 1}"# + "\n")
    #expect(
      r.stdout.contains(
        #"{"error": {"message": "the database is open read-only; pass --write to write edits to it", "line": 1}}"#))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let missing = path + ".missing"
    let m = try SiftProcess.run(["watch"] + Self.args + ["--db", missing, "--write"], stdin: "")
    #expect(m.status == 1 && m.stderr.contains("no such file"))
    #expect(!FileManager.default.fileExists(atPath: missing))
    #expect(try SiftProcess.run(["watch", "TRUEPREDICATE", "--db", path], stdin: "").status == 2)
    #expect(try SiftProcess.run(["watch", "TRUEPREDICATE", "--data", path, "--write"], stdin: "").status == 2)
    let noTable = try SiftProcess.run(["watch", "TRUEPREDICATE", "--db", path, "--entity", "Nope"], stdin: "")
    #expect(noTable.status == 1 && noTable.stderr.contains("no table 'Nope'"))
    let gone = try SiftProcess.run(["watch"] + Self.args + ["--db", missing], stdin: "")
    #expect(
      gone.status == 1 && gone.stderr == "sift watch: cannot open \(missing): no such file\n",
      "one line naming the file: \(gone.stderr)")
  }

  /// A WAL-mode file nobody has open: a read-only watch would create -wal/-shm beside it, so
  /// it is refused (with --write it is allowed).
  @Test func aQuietWALFileIsNotTouchedWithoutWrite() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-watch-wal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("w.sqlite").path
    do {
      let db = try SQLiteDatabase(path: path)
      try db.executeScript(
        "PRAGMA journal_mode = WAL; CREATE TABLE Venue (id INTEGER PRIMARY KEY, city TEXT, rating INTEGER); INSERT INTO Venue VALUES (1, 'Oslo', 5)"
      )
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["w.sqlite"])
    let refused = try SiftProcess.run(["watch"] + Self.args + ["--db", path], stdin: "")
    #expect(
      refused.status == 1 && refused.stderr.contains("WAL-mode") && refused.stderr.contains("--write"),
      "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["w.sqlite"])
    let allowed = try SiftProcess.run(["watch"] + Self.args + ["--db", path, "--write"], stdin: "")
    #expect(allowed.status == 0 && allowed.stdout.contains(#""ids": [1]"#), "\(allowed.stderr)")
  }

  @Test func commitsByOthersArePrintedAsExternal() throws {
    let path = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let binary = try #require(TmuxHarness.siftBinary)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = ["watch"] + Self.args + ["--db", path, "--write"]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    // Wait for the snapshot, then commit from another connection, then send an edit.
    var seen = Data()
    while !seen.contains(0x0A) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += chunk
    }
    let other = try SQLiteDatabase(path: path)
    try other.executeScript("DELETE FROM Venue WHERE id = 1")
    input.fileHandleForWriting.write(Data((#"{"delete": 4}"# + "\n").utf8))
    try input.fileHandleForWriting.close()
    seen += output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(
      lines.dropFirst().first
        == #"{"external": true, "sections": {"deleted": [], "inserted": []}, "deleted": [[0, 0]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2]}, {"name": "Paris", "ids": [3, 4]}]}}"#
    )
    #expect(
      lines.last
        == #"{"sections": {"deleted": [], "inserted": []}, "deleted": [[1, 1]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2]}, {"name": "Paris", "ids": [3]}]}}"#
    )
  }
}
