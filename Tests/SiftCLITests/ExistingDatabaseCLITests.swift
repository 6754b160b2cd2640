import Foundation
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// A hand-made SQLite file (Tests/Fixtures/existing/notes.sqlite.sql) in a fresh temporary
/// directory, and a snapshot of it to prove nothing was written.
enum ExistingFixture {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func tempDir() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cli-existing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// `(directory, notes.sqlite path)`; remove the directory when done.
  static func notesFile() throws -> (URL, String) {
    let dir = try tempDir()
    let path = dir.appendingPathComponent("notes.sqlite").path
    let script = try String(contentsOf: fixtures.appendingPathComponent("existing/notes.sqlite.sql"), encoding: .utf8)
    try SQLiteDatabase(path: path).executeScript(script)
    return (dir, path)
  }

  /// Bytes, modification time and the directory's listing.
  struct Snapshot: Equatable {
    var bytes: Data?
    var modified: Date?
    var listing: [String]
  }

  static func snapshot(_ path: String) -> Snapshot {
    let dir = (path as NSString).deletingLastPathComponent
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return Snapshot(
      bytes: FileManager.default.contents(atPath: path), modified: attributes?[.modificationDate] as? Date,
      listing: ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted())
  }

  static let binaryAvailable = TmuxHarness.siftBinary != nil
}

/// `sift --db`, `.open`, `sift sql --db` and `sift batch --db` on a SQLite file Sift did not
/// make: what was read is shown, predicates run on the file's own tables, nothing is written.
@Suite("CLI on an existing SQLite file")
struct ExistingDatabaseCLITests {
  @Test func replOpensTheFilesTablesReadOnly() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let session = try REPLSession.withSampleData()
    let opened = session.execute(".open \"\(path)\"")
    #expect(opened.status == .ok, "\(opened.text)")
    #expect(opened.text.contains("8 tables"), "\(opened.text)")

    let tables = session.execute(".tables").text
    #expect(tables.contains("note_tag") && tables.contains("note_id, tag_id (composite)"), "\(tables)")
    #expect(tables.contains("recent_note") && tables.contains("view"), "\(tables)")
    #expect(tables.contains("[nameCollision]"), "collisions are shown: \(tables)")
    #expect(tables.contains("JSON data sets: venues, notes"), "\(tables)")

    let schema = session.execute(".schema note").text
    for piece in [
      "created_at  | created_at  | date (iso8601)", "due_on      | due_on      | date (isoDate)",
      "updated_at  | updated_at  | date (millisecondsSince1970)", "labels      | labels      | stringArray (json)",
      "author       | to-one       | author   | note.author_id → author.id",
      "tag          | many-to-many | tag      | note_tag(note_id → note, tag_id → tag)",
    ] {
      #expect(schema.contains(piece), "missing \(piece) in\n\(schema)")
    }

    #expect(session.execute(".use note").status == .ok)
    let found = session.execute("ANY tag.label == 'personal'")
    #expect(found.status == .ok)
    #expect(
      found.text.contains("Groceries") && found.text.contains("Café ideas") && found.text.contains("(2 rows)"),
      "\(found.text)")
    #expect(session.execute(".count author.display_name == 'Ada'").text == "2\n")
    #expect(session.execute(".count category.parent.name == 'work'").text == "1\n")
    #expect(session.execute(".count reviewer == nil").text == "2\n")
    let sql = session.execute(".sql category.name == 'work'").text
    #expect(sql.contains(#"FROM "note" t0"#) && sql.contains("?1='work'"), "\(sql)")
    // The session's sort reaches the database with its comparison and nil placement.
    #expect(session.execute(".sort title [c] desc, rating nulls first").status == .ok)
    let sorted = session.execute(".sql TRUEPREDICATE").text
    #expect(
      sorted.contains(#"ORDER BY sift_fold(t0."title", 1) DESC NULLS LAST, t0."rating" ASC NULLS FIRST"#), "\(sorted)")
    let rows = session.execute("TRUEPREDICATE").text
    #expect(rows.range(of: "Standup notes").map { rows[$0.upperBound...].contains("Café ideas") } == true, "\(rows)")
    let unknown = session.execute("nope == 1")
    #expect(unknown.status == .failed && unknown.text.contains("nope"), "\(unknown.text)")
    // The sample data is still there, under its own names.
    #expect(session.execute(".use venues").status == .ok)
    #expect(session.execute(".count distance < 1").status == .ok)

    #expect(ExistingFixture.snapshot(path) == before, "the file was written")
  }

  /// The Existing databases article's library example (SiftSQL.docc/ExistingDatabases.md), as
  /// written there.
  @Test func readmeLibraryExample() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let db = try SQLiteDatabase(untouched: path)
    let read = try db.introspectSchema()
    #expect(read.warnings.count == 5)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: read.schema)
    let p = try SiftPredicate(format: "author.display_name == %@ AND ANY tag.label == %@", "Ada", "urgent")
    let statement = try compiler.compile(SiftFetchRequest(entity: "note", predicate: p))
    let rows = try db.execute(statement)
    #expect(rows.map { $0.first } == [.integer(1)])
    #expect(ExistingFixture.snapshot(path) == before)
  }

  /// `.open FILE --schema S.json`: the file names what collided; the merged schema answers.
  @Test func schemaFileMergesOverWhatWasRead() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let schemaPath = dir.appendingPathComponent("names.json").path
    try #"{"entities": {"author": {"relationships": {"notes": {"toMany": "note", "inverseForeignKey": "author_id"}}}}}"#
      .write(toFile: schemaPath, atomically: true, encoding: .utf8)
    let before = ExistingFixture.snapshot(path)
    let session = REPLSession()
    #expect(session.execute(".open \(path) --schema \(schemaPath)").status == .ok)
    #expect(session.execute(".use author").status == .ok)
    let author = session.execute(".schema").text
    #expect(
      author.contains(" notes ") && author.contains("to-many") && author.contains("note.author_id → author.id"),
      "\(author)")
    #expect(session.execute(".count ANY notes.title CONTAINS 'plan'").text == "1\n")
    #expect(ExistingFixture.snapshot(path) == before)
    let bad = session.execute(".open \(path) --schema \(dir.path)/missing.json")
    #expect(bad.status == .failed && bad.text.contains("missing.json"), "\(bad.text)")
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func siftDbRunsTheREPLOnTheFile() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let r = try SiftProcess.run(
      ["--db", path, "--entity", "note", "-c", "category.name == 'work' OR rating > 4", "-c", ".tables"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Quarterly plan") && r.stdout.contains("(1 row)"), "\(r.stdout)")
    #expect(r.stdout.contains("* note "), "\(r.stdout)")
    #expect(!r.stdout.contains("venues"), "no sample data with --db")
    #expect(ExistingFixture.snapshot(path) == before)
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func sqlCommandUsesTheReadSchema() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try SiftProcess.run(
      [
        "sql", "author.display_name == %@ AND ANY tag.label == 'urgent'", "--db", path, "--entity", "note", "--arg",
        #""Ada""#,
      ],
      stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    // A to-one key path compared with a constant is a semi-join, so an index on author serves it.
    #expect(
      r.stdout.contains(
        #"FROM "note" t0 WHERE (t0."author_id" IN (SELECT t1."id" FROM "author" t1 WHERE t1."display_name" = ?)"#),
      "\(r.stdout)")
    #expect(r.stdout.contains(#"FROM "note_tag" j2 JOIN "tag" t3"#), "\(r.stdout)")
    #expect(r.stdout.contains("-- ?1 = 'Ada'") && r.stdout.contains("-- ?2 = 'urgent'"), "\(r.stdout)")
    let wrong = try SiftProcess.run(["sql", "x == 1", "--db", path, "--entity", "nots"], stdin: "")
    #expect(wrong.status == 1 && wrong.stderr.contains("did you mean 'note'?"), "\(wrong.stderr)")
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func batchAnswersWithPrimaryKeys() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let cases = [
      #"{"id": "a", "format": "ANY tag.label == %@", "args": ["urgent"]}"#,
      #"{"id": "b", "format": "category.name == 'work' OR reviewer == nil"}"#,
      #"{"id": "c", "format": "word_count >= 2 AND title CONTAINS 'e'"}"#,
      #"{"id": "d", "format": "rating > 1 AND nope == 1"}"#,
      #"{"id": "e", "format": "author.is_active == NO"}"#,
    ].joined(separator: "\n")
    let r = try SiftProcess.run(["batch", "--db", path, "--entity", "note"], stdin: cases)
    #expect(r.status == 0, "\(r.stderr)")
    var out: [String: [String: SiftValue]] = [:]
    for line in r.stdout.split(separator: "\n") {
      if case .dictionary(let d) = try SiftJSON.parse(String(line)), case .string(let id)? = d["id"] { out[id] = d }
    }
    #expect(out["a"]?["rows"] == [1, 2])
    #expect(out["a"]?["bindings"] == ["urgent"])
    #expect(out["b"]?["rows"] == [1, 2, 4])
    #expect(out["c"]?["rows"] == [1, 4])
    #expect(out["e"]?["rows"] == [4])
    if case .string(let sql)? = out["a"]?["sql"] {
      #expect(sql.contains(#"FROM "note" t0"#) && !sql.contains("urgent"))
    } else {
      Issue.record("no sql for a")
    }
    #expect(out["d"]?["ok"] == false && out["d"]?["stage"] == "sql")
    if case .dictionary(let e)? = out["d"]?["error"] {
      #expect(e["id"] == "unknown-key-path" && e["column"] == 16 && e["offset"] == 15, "\(e)")
    } else {
      Issue.record("no error object for d")
    }
    let composite = try SiftProcess.run(
      ["batch", "--db", path, "--entity", "note_tag"], stdin: #"{"id": 1, "format": "tag_id == 1"}"#)
    #expect(
      composite.stdout.contains(#""stage": "sql""#)
        && composite.stdout.contains("entity 'note_tag' has a composite primary key (note_id, tag_id)"),
      "\(composite.stdout)")
    #expect(ExistingFixture.snapshot(path) == before)
  }
}
