import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI

/// Transcripts of the REPL on each kind of database (`Transcripts/databases/*.txt`): every
/// command `.help` lists, run in script mode (`REPLLoop`, no terminal, as `sift --db FILE <
/// script` runs them), compared with the recorded text. Paths that differ per run are written
/// `$DB` (the database file or schema) and `$FIXTURES` (Tests/Fixtures), in the inputs and the
/// outputs alike. Re-record with `SIFT_RECORD_TRANSCRIPTS=1 swift test --filter REPLDatabaseTranscriptTests`.
enum DatabaseTranscript {
  static let directory = Transcript.directory.appendingPathComponent("databases")

  /// A session on the transcript's database, what `$DB` stands for, and what to clean up.
  struct Opened {
    var session: REPLSession
    var database: String
    var cleanup: () -> Void
  }

  /// Replays `text`'s inputs on `opened` and returns the transcript it produces.
  static func replay(_ text: String, _ opened: Opened, stopOnError: Bool = false) -> (String, Int32) {
    let fixtures = ExistingFixture.fixtures.path
    let inputs = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap {
      Transcript.input(in: String($0))
    }
    .map {
      $0.replacingOccurrences(of: "$FIXTURES", with: fixtures).replacingOccurrences(of: "$DB", with: opened.database)
    }
    var out = ""
    let loop = REPLLoop(
      session: opened.session, source: ScriptedLineSource(inputs), options: .init(echo: true, stopOnError: stopOnError)
    ) {
      text, _ in out += text
    }
    let status = loop.run().rawValue
    return (
      out.replacingOccurrences(of: opened.database, with: "$DB").replacingOccurrences(of: fixtures, with: "$FIXTURES"),
      status
    )
  }

  /// Compares with the file, or records it with `SIFT_RECORD_TRANSCRIPTS`.
  static func check(_ name: String, everyCommand: Bool = true, _ open: () throws -> Opened) throws {
    let url = directory.appendingPathComponent(name)
    let expected = try String(contentsOf: url, encoding: .utf8)
    let opened = try open()
    defer { opened.cleanup() }
    let (actual, _) = replay(expected, opened)
    if ProcessInfo.processInfo.environment["SIFT_RECORD_TRANSCRIPTS"] != nil {
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(actual == expected, "transcript \(name) differs; re-record with SIFT_RECORD_TRANSCRIPTS=1")
    guard everyCommand else { return }
    let typed = Set(
      expected.split(separator: "\n").compactMap { Transcript.input(in: String($0)) }.compactMap {
        REPLCommand.parse($0).flatMap { REPLCommandSpec.lookup($0.name)?.name }
      })
    let missing = REPLCommandSpec.all.map(\.name).filter { !typed.contains($0) }
    #expect(missing.isEmpty, "\(name) does not run \(missing)")
  }

  static func sqlite(writable: Bool = false) throws -> Opened {
    let (dir, path) = try ExistingFixture.notesFile()
    let session = REPLSession()
    _ = session.attach(try ExistingDatabase.open(sqlite: path))
    session.sql.writable = writable
    return Opened(session: session, database: path) { try? FileManager.default.removeItem(at: dir) }
  }

  static func coreData(model: Bool) throws -> Opened {
    let (dir, path) = try CoreDataCLITests.store()
    let session = REPLSession()
    _ = session.attach(try ExistingDatabase.open(sqlite: path, model: model ? CoreDataCLITests.model : nil))
    return Opened(session: session, database: path) { try? FileManager.default.removeItem(at: dir) }
  }

  static func postgres(_ conninfo: String) throws -> Opened {
    let owner = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_repl_shop"))
    let script = try String(
      contentsOf: ExistingFixture.fixtures.appendingPathComponent("existing/shop.postgres.sql"), encoding: .utf8)
    try owner.executeScript(script)
    let schema = owner.schemaName ?? "public"
    let session = REPLSession()
    _ = session.attach(try ExistingDatabase.open(postgres: conninfo, schema: schema))
    return Opened(session: session, database: schema) {
      session.sql.existing?.close()
      owner.close()
    }
  }
}

@Suite("REPL transcripts on databases")
struct REPLDatabaseTranscriptTests {
  @Test("every command on an SQLite file (read-only)")
  func sqliteFile() throws { try DatabaseTranscript.check("notes-sqlite.txt") { try DatabaseTranscript.sqlite() } }

  @Test("edits under .watch are written with --write, one transaction each")
  func sqliteFileWritable() throws {
    try DatabaseTranscript.check("notes-sqlite-write.txt", everyCommand: false) {
      try DatabaseTranscript.sqlite(writable: true)
    }
  }

  @Test("every command on a Core Data store with its model")
  func coreDataWithModel() throws {
    try DatabaseTranscript.check("library-coredata.txt") { try DatabaseTranscript.coreData(model: true) }
  }

  @Test("every command on a Core Data store without its model")
  func coreDataWithoutModel() throws {
    try DatabaseTranscript.check("library-coredata-bare.txt") { try DatabaseTranscript.coreData(model: false) }
  }

  @Test(
    "every command on a PostgreSQL schema",
    .enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func postgresSchema() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    try DatabaseTranscript.check("shop-postgres.txt") { try DatabaseTranscript.postgres(conninfo) }
  }

  /// Script mode: a command that does not apply says why and the run goes on; the exit status
  /// still says something failed. Any other error stops the run unless `--keep-going`.
  @Test("a refused command does not stop a script; an error does")
  func refusalsDoNotStopScripts() throws {
    let opened = try DatabaseTranscript.sqlite()
    defer { opened.cleanup() }
    let script =
      "note> .use note\nnote> .dialect postgres\nnote> .fetch AllTags\nnote> .count rating > 1\nnote> .count nope > 1\nnote> .count"
    let (out, status) = DatabaseTranscript.replay(script, opened, stopOnError: true)
    #expect(status == 1)
    #expect(out.contains("note> .count rating > 1\n2\n"), "\(out)")
    #expect(out.contains("nope") && !out.contains("note> .count\n"), "the error stops the script: \(out)")
  }

  /// The REPL article's session on a database (open, `.tables`, a predicate, `.plan` naming the
  /// index, `.agg`, `.compare`) is what the REPL prints.
  @Test("The REPL article's session on notes.sqlite is true")
  func articleSessionIsTrue() throws {
    let readme = try ReadmeSnippetTests.text(of: "Sources/SiftCLI/SiftCLI.docc/REPL.md")
    let opening = "$ swift run sift --db notes.sqlite --entity note\n"
    guard let start = readme.range(of: opening), let end = readme[start.upperBound...].range(of: "```") else {
      Issue.record("the session is not in REPL.md")
      return
    }
    let expected = String(readme[start.upperBound..<end.lowerBound])
    let opened = try DatabaseTranscript.sqlite()
    defer { opened.cleanup() }
    #expect(opened.session.execute(".use note").status == .ok)  // --entity note
    let (actual, status) = DatabaseTranscript.replay(expected, opened, stopOnError: true)
    #expect(status == 0)
    #expect(actual.replacingOccurrences(of: "$DB", with: "notes.sqlite") == expected)
    for piece in [
      "note> .tables", "note> .plan", "index: note_title_idx serves the predicate", "note> .agg ", "note> .compare",
      "agree: ",
    ] {
      #expect(expected.contains(piece), "the article's session shows \(piece)")
    }
  }

  /// A table larger than the sample is compared on its first rows by key, and says so.
  @Test(".compare on a sample states its size")
  func compareSamples() throws {
    let opened = try DatabaseTranscript.sqlite()
    defer { opened.cleanup() }
    opened.session.sql.compareSample = 3
    #expect(opened.session.execute(".use note").status == .ok)
    let r = opened.session.execute(".compare author.display_name == 'Ada' OR ANY tag.label == 'urgent'")
    #expect(r.status == .ok)
    #expect(r.text.contains("sample: the first 3 of 4 rows of note by id (.compare reads at most 3)"), "\(r.text)")
    #expect(r.text.contains("agree: 3 of 3 rows"), "\(r.text)")
  }

  /// Memory reads the rows through the schema's types; where the database's SQL reads them
  /// otherwise, the rows are listed. Here a schema file calls text in SQLite's own shape
  /// (`2024-01-05 10:30:00`) ISO-8601: SQL compares the text, memory the dates.
  @Test(".compare lists the rows where memory and the database disagree")
  func compareDisagrees() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("events.sqlite").path
    try SQLiteDatabase(path: path).executeScript(
      """
      CREATE TABLE event (id INTEGER PRIMARY KEY, title TEXT NOT NULL, at TEXT);
      INSERT INTO event VALUES (1, 'early', '2024-01-04T09:00:00Z'), (2, 'spaced', '2024-01-05 10:30:00'), (3, 'late', '2024-02-01T00:00:00Z');
      """)
    let schema = dir.appendingPathComponent("event.json").path
    try #"{"entities": {"event": {"attributes": {"at": {"type": "date", "dateEncoding": "iso8601"}}}}}"#
      .write(toFile: schema, atomically: true, encoding: .utf8)
    let session = REPLSession()
    #expect(session.execute(".open \(path) --schema \(schema)").status == .ok)
    let r = session.execute(#".compare at >= CAST("2024-01-05", "NSDate")"#)
    #expect(r.status == .failed)
    #expect(r.text.contains("  sqlite   1 match\n  memory   2 matches\ndiffer: 1 row\n"), "\(r.text)")
    #expect(r.text.contains(" memory     |  2 | spaced"), "\(r.text)")
  }

  /// The binary: a refused command goes on to the next (exit status 1 at the end), and
  /// `--write` lets `.delete` under `.watch` write to the file.
  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func binaryScriptsAndWrites() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let refused = try SiftProcess.run(
      ["--db", path, "--entity", "note", "-c", ".dialect postgres", "-c", ".count rating > 1"], stdin: "")
    #expect(refused.status == 1)
    #expect(
      refused.stdout == "2\n" && refused.stderr.contains("is an SQLite database"), "\(refused.stdout) \(refused.stderr)"
    )
    let readOnly = try SiftProcess.run(
      ["--db", path, "--entity", "note", "-c", ".watch", "-c", ".delete 4", "-c", ".count"], stdin: "")
    #expect(
      readOnly.status == 1 && readOnly.stdout.hasSuffix("4\n") && readOnly.stderr.contains("--write"),
      "\(readOnly.stdout) \(readOnly.stderr)")
    let written = try SiftProcess.run(
      ["--db", path, "--write", "--entity", "note", "-c", ".watch", "-c", ".delete 3", "-c", ".count"], stdin: "")
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      written.stdout.contains("object 3 at [0, 2]: delete") && written.stdout.hasSuffix("3\n"), "\(written.stdout)")
    // The file's declared keys decide (issue #35): note 4 has a comment (NO ACTION), so its
    // delete is refused and nothing changes; note 3's tags went with it (ON DELETE CASCADE).
    let refusedDelete = try SiftProcess.run(
      ["--db", path, "--write", "--entity", "note", "-c", ".watch", "-c", ".delete 4"], stdin: "")
    #expect(refusedDelete.status == 1, "\(refusedDelete.stdout)")
    #expect(refusedDelete.stderr.contains("FOREIGN KEY constraint failed"), "\(refusedDelete.stderr)")
    let db = try SQLiteDatabase(readOnly: path)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT id FROM note ORDER BY id")) == [
        [.integer(1)], [.integer(2)], [.integer(4)],
      ])
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM note_tag WHERE note_id = 3")) == [[.integer(0)]])
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_key_check")).isEmpty)
  }

  /// The file is written only with `--write`, and then only by edits.
  @Test("nothing is written without --write")
  func readOnlyFileIsUntouched() throws {
    let opened = try DatabaseTranscript.sqlite()
    defer { opened.cleanup() }
    let before = ExistingFixture.snapshot(opened.database)
    for input in [
      ".watch rating > 1", #".update 1 {"rating": 1}"#, ".delete 2", ".compare rating > 1", ".plan title == 'x'",
    ] {
      _ = opened.session.execute(input)
    }
    #expect(ExistingFixture.snapshot(opened.database) == before)
  }
}
