import Foundation
import SiftSQLite
import Testing

@testable import SiftCLI

/// Unusable databases: a missing file, a directory, a file that is not a database, a locked
/// file, a server that is down. Each command answers with one line naming the file or the
/// server on standard error, exit status 1, nothing on standard output, and nothing written.
@Suite("CLI errors on unusable databases", .enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
struct ExistingDatabaseErrorTests {
  /// The three ways to use a database from the command line, on `path`.
  static func commands(_ path: String) -> [(args: [String], stdin: String)] {
    [
      (["--db", path, "-c", ".tables"], ""),
      (["sql", "title == 'x'", "--db", path, "--entity", "note"], ""),
      (["batch", "--db", path, "--entity", "note"], #"{"id": 1, "format": "title == 'x'"}"#),
    ]
  }

  static func expectOneLineError(_ r: SiftProcess.Result, naming name: String, saying words: String, _ what: String) {
    #expect(r.status == 1, "\(what): status \(r.status)")
    #expect(r.stdout.isEmpty, "\(what): stdout \(r.stdout)")
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(what): not one line: \(r.stderr)")
    #expect(r.stderr.contains(name) && r.stderr.contains(words), "\(what): \(r.stderr)")
  }

  @Test func missingFileIsNotCreated() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("missing.sqlite").path
    for (args, stdin) in Self.commands(path) {
      let r = try SiftProcess.run(args, stdin: stdin)
      Self.expectOneLineError(r, naming: path, saying: "no such file", args.joined(separator: " "))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "a file was created")
    let session = REPLSession()
    let open = session.execute(".open \(path)")
    #expect(open.status == .failed && open.text == "error: cannot open \(path): no such file\n", "\(open.text)")
  }

  @Test func notADatabaseAndADirectory() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let text = dir.appendingPathComponent("notes.txt").path
    try "just some notes\n".write(toFile: text, atomically: true, encoding: .utf8)
    let before = ExistingFixture.snapshot(text)
    for (args, stdin) in Self.commands(text) {
      let r = try SiftProcess.run(args, stdin: stdin)
      Self.expectOneLineError(r, naming: text, saying: "not an SQLite database", args.joined(separator: " "))
    }
    #expect(ExistingFixture.snapshot(text) == before)
    for (args, stdin) in Self.commands(dir.path) {
      let r = try SiftProcess.run(args, stdin: stdin)
      Self.expectOneLineError(r, naming: dir.path, saying: "directory", args.joined(separator: " "))
    }
  }

  /// Another connection holds an exclusive lock: a clear error after the busy timeout, and
  /// the file is as it was.
  @Test func lockedFile() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path).bytes
    let holder = try SQLiteDatabase(path: path)
    try holder.executeScript("BEGIN EXCLUSIVE; UPDATE note SET title = title WHERE id = 1;")
    for (args, stdin) in Self.commands(path) {
      let r = try SiftProcess.run(args, stdin: stdin)
      Self.expectOneLineError(r, naming: path, saying: "locked", args.joined(separator: " "))
    }
    try holder.executeScript("ROLLBACK;")
    #expect(ExistingFixture.snapshot(path).bytes == before)
  }

  /// A file the user cannot write is still readable: Sift only reads, so it works, unchanged.
  @Test func readOnlyFileIsQueried() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
    let before = ExistingFixture.snapshot(path)
    let r = try SiftProcess.run(
      ["batch", "--db", path, "--entity", "note"], stdin: #"{"id": 1, "format": "title BEGINSWITH 'Q'"}"#)
    #expect(r.status == 0 && r.stdout.contains(#""rows": [1]"#), "\(r.stdout) \(r.stderr)")
    #expect(ExistingFixture.snapshot(path) == before)
  }

  @Test func serverDown() throws {
    let conninfo = "host=127.0.0.1 port=1 user=sift password=sift dbname=sift connect_timeout=3"
    let commands: [[String]] = [
      ["--postgres", conninfo, "--pg-schema", "shop", "-c", ".tables"],
      ["sql", "x == 1", "--postgres", conninfo, "--pg-schema", "shop", "--entity", "t"],
      ["batch", "--postgres", conninfo, "--pg-schema", "shop", "--entity", "t"],
    ]
    for args in commands {
      let r = try SiftProcess.run(args, stdin: "")
      Self.expectOneLineError(
        r, naming: "127.0.0.1:1", saying: "cannot connect to PostgreSQL", args.joined(separator: " "))
    }
  }

  /// Usage mistakes are exit status 2, before anything is opened.
  @Test func usageMistakes() throws {
    for args in [
      ["sql", "x == 1", "--db", "a.sqlite"],
      ["sql", "x == 1", "--pg-schema", "s", "--entity", "t"],
      ["sql", "x == 1", "--db", "a.sqlite", "--entity", "t", "--dialect", "postgres"],
      ["batch", "--db", "a.sqlite"],
      ["batch", "--db", "a.sqlite", "--postgres", "dbname=x", "--entity", "t"],
      ["--pg-schema", "s"],
    ] {
      let r = try SiftProcess.run(args, stdin: "")
      #expect(r.status == 2, "\(args): \(r.stderr)")
    }
  }
}
