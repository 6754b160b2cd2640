import Foundation
import SiftSQL
import SiftSQLite
import Testing

/// `sift watch --db FILE --entity NAME` reads the entity as `sift batch --db` does: attribute
/// names and to-one key paths, on plain SQLite files and on Core Data stores (with or without
/// `--model`); edits name attributes.
@Suite(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
struct WatchEntityTests {
  /// A Core Data store: `Note` by its model's names, `item.title` through the to-one; an update
  /// of `text` is written to `ZTEXT` with Core Data's bookkeeping.
  @Test(arguments: [false, true])
  func coreDataEntityByModelNames(withModel: Bool) throws {
    let (dir, path) = try CoreDataCLITests.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = withModel ? ["--model", CoreDataCLITests.model] : []
    let r = try SiftProcess.run(
      [
        "watch", "item.title == 'Mort' OR text BEGINSWITH 'coffee'", "--db", path, "--entity", "Note", "--write",
        "--sort", "text",
      ]
        + model,
      stdin: #"{"update": {"id": 4, "set": {"text": "a coffee stain"}}}"# + "\n")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(lines.first == #"{"snapshot": {"sections": [{"name": "", "ids": [4, 2, 1]}]}}"#, "\(lines) \(r.stderr)")
    #expect(
      lines.count == 2 && lines[1].contains(#""ids": [2, 1]"#) && lines[1].contains(#""deleted": [[0, 0]]"#), "\(lines)"
    )
    let db = try SQLiteDatabase(readOnly: path)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT ZTEXT, Z_OPT FROM ZNOTE WHERE Z_PK = 4")) == [
        [.text("a coffee stain"), .integer(2)]
      ])
  }

  /// A plain SQLite file: the to-one `author` read from `author_id`.
  @Test func plainFileToOneKeyPath() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try SiftProcess.run(["watch", "author.display_name == 'Ada'", "--db", path, "--entity", "note"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == #"{"snapshot": {"sections": [{"name": "", "ids": [1, 3]}]}}"# + "\n", "\(r.stdout) \(r.stderr)")
  }
}
