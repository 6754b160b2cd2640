import Foundation
import SiftPostgres
import SiftSQL
import Testing

/// `sift watch --postgres`: the SQLite watch's JSON Lines for commits on a PostgreSQL table,
/// read-only, the client's filter narrowed by `--policy` (Grammar/notes/live.md, "PostgreSQL").
@Suite("sift watch --postgres")
struct WatchPostgresTests {
  /// Starts the watch, waits for its snapshot, runs `commit` from another connection, then sends
  /// one edit line (answered with an error after the commit's change set) and ends the input.
  static func watch(_ args: [String], commit: String) throws -> [String] {
    let db = try PostgresDatabase(conninfo: REPLPostgres.conninfo ?? "", schema: .temporary(prefix: "sift_watch"))
    defer { db.close() }
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, city text, rating int8, owner int8)")
    try db.run(
      "INSERT INTO venue VALUES (1, 'Blue', 'Oslo', 4, 7), (2, 'Red', 'Paris', 2, 7), (3, 'Kiosk', 'Oslo', 5, 8)")
    var w = try RunningWatch(
      ["watch"] + args + [
        "--postgres", REPLPostgres.conninfo ?? "", "--pg-schema", db.schemaName ?? "", "--entity", "venue",
      ])
    try db.run(commit)
    w.send(#"{"delete": 1}"#)
    return try w.finish()
  }

  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func commitsArePrintedAsTheSQLiteWatchPrintsThem() throws {
    // The Live results article's transcript, and the answer to an input line.
    let article = try ReadmeSnippetTests.text(of: "Sources/SiftLive/SiftLive.docc/LiveResults.md")
    #expect(article.contains("`UPDATE venue SET rating = 1 WHERE id = 1`"))
    guard let start = article.range(of: "--sort name --section city\n"),
      let end = article[start.upperBound...].range(of: "```")
    else {
      Issue.record("transcript not found in LiveResults.md")
      return
    }
    let expected = article[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    let lines = try Self.watch(
      ["rating > 2", "--sort", "name", "--section", "city"], commit: "UPDATE venue SET rating = 1 WHERE id = 1")
    #expect(
      lines == expected + [
        #"{"error": {"message": "watch --postgres is read-only: edits are not written (write with sift batch)", "line": 1}}"#
      ])
  }

  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func thePolicyNarrowsTheClientsFilter() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-watch-pg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let policy = dir.appendingPathComponent("policy.json")
    try #"{"keys": ["name", "city", "rating", "owner"], "require": "owner == $USER"}"#.write(
      to: policy, atomically: true, encoding: .utf8)
    let lines = try Self.watch(
      ["rating > 0", "--sort", "name", "--policy", policy.path, "--var", "USER=7"],
      commit: "INSERT INTO venue VALUES (4, 'Amber', 'Rome', 3, 7), (5, 'Zinc', 'Rome', 3, 8)")
    #expect(lines.first == #"{"snapshot": {"sections": [{"name": "", "ids": [1, 2]}]}}"#)
    #expect(lines.dropFirst().first?.contains(#""inserted": [[0, 0]]"#) == true)
    #expect(lines.dropFirst().first?.contains(#""ids": [4, 1, 2]"#) == true)
  }
}

/// The REPL's `.watch` on a PostgreSQL session: read-only, other programs' commits shown at the
/// next `.watch` as delegate calls, edits refused.
@Suite("REPL .watch on PostgreSQL")
struct REPLWatchPostgresTests {
  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func watchShowsCommitsAndRefusesEdits() throws {
    let db = try PostgresDatabase(conninfo: REPLPostgres.conninfo ?? "", schema: .temporary(prefix: "sift_watch"))
    defer { db.close() }
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, city text, rating int8)")
    try db.run("INSERT INTO venue VALUES (1, 'Blue', 'Oslo', 4), (2, 'Red', 'Paris', 2), (3, 'Kiosk', 'Oslo', 5)")
    let binary = try #require(TmuxHarness.siftBinary)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = ["--postgres", REPLPostgres.conninfo ?? "", "--pg-schema", db.schemaName ?? ""]
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    p.environment = environment
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = output
    try p.run()
    input.fileHandleForWriting.write(Data(".use venue\n.sort name\n.watch rating > 2 --section city\n.delete 1\n".utf8))
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("edits are not written") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += chunk
    }
    try db.run("UPDATE venue SET rating = 3 WHERE id = 2")
    input.fileHandleForWriting.write(Data(".watch\n".utf8))
    try input.fileHandleForWriting.close()
    seen += output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let text = String(decoding: seen, as: UTF8.self)
    #expect(text.contains(#"2 of venue: "Oslo" [1, 3]"#), "\(text)")
    #expect(text.contains("error: venue is watched read-only on PostgreSQL"), "\(text)")
    #expect(
      text.contains("committed elsewhere:\ncontrollerWillChangeContent\n  section 1 \"Paris\": insert"), "\(text)")
    #expect(text.contains(#"3 of venue: "Oslo" [1, 3] · "Paris" [2]"#), "\(text)")
  }
}

/// `sift watch --postgres --mode push`: commits streamed from the slot `sift setup-sql --live`
/// made; without that setup a clear refusal naming it.
@Suite("sift watch --postgres --mode push")
struct WatchPostgresPushTests {
  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func commitsAreStreamedAfterTheSetup() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let db = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_watch_push"))
    defer { db.close() }
    let schema = try #require(db.schemaName)
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, rating int8)")
    try db.run("INSERT INTO venue VALUES (1, 'Blue', 4), (2, 'Red', 1)")
    let slot = "sift_watch_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let watchArgs = [
      "watch", "rating >= 2", "--postgres", conninfo, "--pg-schema", schema, "--entity", "venue", "--mode", "push",
      "--slot", slot, "--sort", "rating desc",
    ]
    // A slot name PostgreSQL would not take is a usage error (it is never put into SQL).
    var hostile = watchArgs
    hostile[hostile.count - 3] = "bad'; DROP TABLE venue; --"
    let badSlot = try SiftProcess.run(hostile, stdin: "")
    #expect(badSlot.status == 2 && badSlot.stderr.contains("--slot 'bad"), "\(badSlot.stderr)")
    // Before the setup: refused, naming it.
    let refused = try SiftProcess.run(watchArgs, stdin: "")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("sift setup-sql --live"), "\(refused.stderr)")

    let setup = ["setup-sql", "--live", "--slot", slot, "--postgres", conninfo]
    defer { _ = try? SiftProcess.run(setup + ["--drop"], stdin: "") }
    let made = try SiftProcess.run(setup + ["--pg-schema", schema, "--entity", "venue"], stdin: "")
    #expect(made.status == 0, "\(made.stderr)")

    var w = try RunningWatch(watchArgs)
    try db.run("UPDATE venue SET rating = 5 WHERE id = 2")
    try db.run("BEGIN; INSERT INTO venue VALUES (3, 'Green', 9); DELETE FROM venue WHERE id = 1; COMMIT")
    w.read(lines: 3, within: 20)
    let lines = try w.finish()
    #expect(
      lines == [
        #"{"snapshot": {"sections": [{"name": "", "ids": [1]}]}}"#,
        #"{"external": true, "sections": {"deleted": [], "inserted": []}, "deleted": [], "inserted": [[0, 0]], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "", "ids": [2, 1]}]}}"#,
        #"{"external": true, "sections": {"deleted": [], "inserted": []}, "deleted": [[0, 1]], "inserted": [[0, 0]], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "", "ids": [3, 2]}]}}"#,
      ])
  }
}

/// A `sift watch` process and its pipes: `init` returns once the first line (the snapshot) was
/// printed; `finish` ends the input and returns every line printed, expecting exit status 0.
struct RunningWatch {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  var seen = Data()

  init(_ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: try #require(TmuxHarness.siftBinary))
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    read(lines: 1, within: 20)
  }

  var lines: [String] { String(decoding: seen, as: UTF8.self).split(separator: "\n").map(String.init) }

  /// Reads until `lines` lines were printed, the output ended or `seconds` passed.
  mutating func read(lines count: Int, within seconds: Double) {
    let deadline = Date().addingTimeInterval(seconds)
    while seen.filter({ $0 == 0x0A }).count < count, Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += chunk
    }
  }

  func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

  mutating func finish() throws -> [String] {
    try input.fileHandleForWriting.close()
    seen += output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return lines
  }
}
