import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `sift index --db FILE --fold TABLE.COLUMN`: the one write it makes (an expression index on
/// sift_fold), that SQLite's plan then uses it for `[c]` comparisons Sift compiles, and its
/// refusals (missing file, unknown table or column, bad options, a Core Data store).
@Suite("sift index", .enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
struct IndexCommandTests {
  static func notes(in dir: URL) throws -> String {
    let path = dir.appendingPathComponent("notes.sqlite").path
    try SQLiteDatabase(path: path).executeScript(
      """
      CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO note SELECT i, 'Meeting ' || i FROM n;
      ANALYZE;
      """)
    return path
  }

  /// SQLite's plan for the statement Sift compiles for `format` on the file's introspected schema.
  static func plan(_ path: String, _ format: String) throws -> String {
    let db = try SQLiteDatabase(readOnly: path)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    let st = try compiler.compile(
      SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: format), resultType: .count))
    let rows = try db.execute(SQLStatement(sql: "EXPLAIN QUERY PLAN " + st.sql, bindings: st.bindings))
    return rows.map { $0.map(\.description).joined(separator: " ") }.joined(separator: "\n")
  }

  @Test func createsTheFoldIndexThePlanUses() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.notes(in: dir)
    #expect(!(try Self.plan(path, "title BEGINSWITH[c] 'meeting 12'")).contains("note_title_sift_fold_c"))
    let r = try SiftProcess.run(["index", "--db", path, "--fold", "note.title"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(#"created index "note_title_sift_fold_c" ON "note" (sift_fold("title", 1))"#), "\(r.stdout)")
    for format in ["title BEGINSWITH[c] 'meeting 12'", "title ==[c] 'MEETING 7'", "title IN[c] {'meeting 1', 'x'}"] {
      let plan = try Self.plan(path, format)
      #expect(plan.contains("USING INDEX note_title_sift_fold_c"), "\(format): \(plan)")
    }
    let again = try SiftProcess.run(["index", "--db", path, "--fold", "note.title"], stdin: "")
    #expect(again.status == 0 && again.stdout.contains("already exists"), "\(again.stdout)")
    let cd = try SiftProcess.run(["index", "--db", path, "--fold", "note.title", "--options", "cd"], stdin: "")
    #expect(cd.status == 0 && cd.stdout.contains(#"(sift_fold("title", 3))"#), "\(cd.stdout) \(cd.stderr)")
    #expect(try Self.plan(path, "title BEGINSWITH[cd] 'meeting 12'").contains("note_title_sift_fold_cd"))
  }

  @Test func refusesWhatItCannotIndex() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.notes(in: dir)
    let before = ExistingFixture.snapshot(path)
    let table = try SiftProcess.run(["index", "--db", path, "--fold", "nope.title"], stdin: "")
    #expect(table.status == 1 && table.stderr.contains("no table 'nope' (tables: note)"), "\(table.stderr)")
    let column = try SiftProcess.run(["index", "--db", path, "--fold", "note.body"], stdin: "")
    #expect(column.status == 1 && column.stderr.contains("no column 'body' (columns: id, title)"), "\(column.stderr)")
    #expect(ExistingFixture.snapshot(path) == before, "a refused command wrote")
    let missing = dir.appendingPathComponent("missing.sqlite").path
    let m = try SiftProcess.run(["index", "--db", missing, "--fold", "note.title"], stdin: "")
    #expect(m.status == 1 && m.stderr.contains("does not exist"), "\(m.stderr)")
    #expect(!FileManager.default.fileExists(atPath: missing), "a missing file was created")
    #expect(
      try SiftProcess.run(["index", "--db", path, "--fold", "note.title", "--options", "x"], stdin: "").status == 2)
    #expect(try SiftProcess.run(["index", "--db", path, "--fold", "title"], stdin: "").status == 2)
    #expect(try SiftProcess.run(["index", "--db", path], stdin: "").status == 2)

    let store = dir.appendingPathComponent("store.sqlite").path
    try SQLiteDatabase(path: store).executeScript(
      """
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
      """)
    let s = try SiftProcess.run(["index", "--db", store, "--fold", "ZNOTE.ZTITLE"], stdin: "")
    #expect(s.status == 1 && s.stderr.contains("Core Data store"), "\(s.stderr)")
  }
}

/// `.plan` names `sift index` when a `[c]`/`[d]` predicate reads every row.
@Suite("sift index hint in .plan", .enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
struct IndexHintTests {
  @Test func planNamesTheCommand() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try IndexCommandTests.notes(in: dir)
    let c = try SiftProcess.run(["--db", path, "-c", ".plan title BEGINSWITH[c] 'meet'"], stdin: "")
    #expect(c.stdout.contains("sift index --db FILE --fold note.title\n"), "\(c.stdout) \(c.stderr)")
    let cd = try SiftProcess.run(["--db", path, "-c", ".plan title ==[cd] 'meet'"], stdin: "")
    #expect(cd.stdout.contains("sift index --db FILE --fold note.title --options cd"), "\(cd.stdout) \(cd.stderr)")
  }
}
