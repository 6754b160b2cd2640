import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// The issue #14 command-line contract on a hand-written Core Data store
/// (Tests/Fixtures/coredata/Library.sql): `sift --db STORE [--model M]`, `.fetch`,
/// `sift batch --db STORE [--model M] --entity E` ("rows": Z_PK ascending), `sift schema
/// --model M` / `--db FILE [--model M]` printing a schema file `--schema` takes back.
@Suite("CLI on a Core Data store")
struct CoreDataCLITests {
  static let coredata = ExistingFixture.fixtures.appendingPathComponent("coredata")
  static let model = coredata.appendingPathComponent("Library.xcdatamodeld").path

  /// `(directory, Library.sqlite path)`; remove the directory when done.
  static func store() throws -> (URL, String) {
    let dir = try ExistingFixture.tempDir()
    let path = dir.appendingPathComponent("Library.sqlite").path
    let script = try String(contentsOf: coredata.appendingPathComponent("Library.sql"), encoding: .utf8)
    try SQLiteDatabase(path: path).executeScript(script)
    return (dir, path)
  }

  static func lines(_ text: String) throws -> [String: [String: SiftValue]] {
    var out: [String: [String: SiftValue]] = [:]
    for line in text.split(separator: "\n") {
      if case .dictionary(let d) = try SiftJSON.parse(String(line)), case .string(let id)? = d["id"] { out[id] = d }
    }
    return out
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func replOnTheStoreWithAndWithoutTheModel() throws {
    let (dir, path) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let bare = try SiftProcess.run(
      ["--db", path, "--entity", "Novel", "-c", "genre ==[c] 'fantasy'", "-c", ".tables"], stdin: "")
    #expect(bare.status == 0, "\(bare.stderr)")
    #expect(
      bare.stdout.contains("Good Omens") && bare.stdout.contains("Mort") && bare.stdout.contains("(2 rows)"),
      "\(bare.stdout)")
    #expect(bare.stdout.contains("createdat") && bare.stdout.contains("no model given"), "\(bare.stdout)")
    let r = try SiftProcess.run(
      [
        "--db", path, "--model", Self.model, "--entity", "Book", "--keep-going", "-c",
        "ANY authors.name == 'Neil Gaiman'",
        "-c", #".fetch BooksByAuthor AUTHOR="Terry Pratchett""#, "-c", ".fetch LongNovels MIN_PAGES=250",
        "-c", ".fetch BooksByAuthor", "-c", ".fetch Nope",
      ],
      stdin: "")
    #expect(r.status == 1, "two inputs fail")
    #expect(r.stdout.contains("The Sandman") && r.stdout.contains("createdAt"), "\(r.stdout)")
    #expect(r.stdout.contains(#"Book where ANY authors.name == "Terry Pratchett""#), "\(r.stdout)")
    #expect(
      r.stdout.contains("Novel where pages >= 250 AND genre ==[c] \"fantasy\"") && r.stdout.contains("(1 row)"),
      "\(r.stdout)")
    #expect(
      r.stdout.contains("template 'BooksByAuthor': needs $AUTHOR")
        || r.stderr.contains("template 'BooksByAuthor': needs $AUTHOR"))
    #expect(
      (r.stdout + r.stderr).contains(
        "no fetch request template 'Nope' (templates: BooksByAuthor, LongNovels, RecentItems, AllTags)"))
    let noModel = try SiftProcess.run(["--db", path, "-c", ".fetch AllTags"], stdin: "")
    #expect((noModel.stdout + noModel.stderr).contains("opened without its model"), "\(noModel.stdout)")
    #expect(ExistingFixture.snapshot(path) == before)
  }

  @Test func replOpenTakesAModel() throws {
    let (dir, path) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let session = REPLSession()
    let opened = session.execute(".open \"\(path)\" --model \"\(Self.model)\"")
    #expect(opened.status == .ok && opened.text.contains("8 tables"), "\(opened.text)")
    let fetched = session.execute(#".fetch BooksByAuthor AUTHOR="Neil Gaiman""#)
    #expect(
      fetched.status == .ok && fetched.text.contains("The Sandman") && fetched.text.contains("(2 rows)"),
      "\(fetched.text)")
    // Dates stored as seconds since 2001 show as dates (Library.sql: 2024-03-01 10:00 UTC).
    #expect(fetched.text.contains("2024-03-01 10:00:00Z") && !fetched.text.contains("730980000"), "\(fetched.text)")
    let typed = session.execute(".use Novel")
    #expect(typed.status == .ok)
    #expect(session.execute("genre ==[c] 'fantasy' AND pages < 250").text.contains("Mort"))
    let missing = session.execute(".open \"\(path)\" --model")
    #expect(missing.status == .failed && missing.text.contains("--model needs a value"))
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func batchAnswersWithZPKs() throws {
    let (dir, path) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let cases = [
      #"{"id": "a", "format": "ANY authors.name == %@", "args": ["Neil Gaiman"]}"#,
      #"{"id": "b", "format": "publisher.name == 'Gollancz' AND pages > 250"}"#,
      #"{"id": "c", "format": "createdAt < CAST(0, 'NSDate')"}"#,
      #"{"id": "d", "format": "notes.@count == 2"}"#,
      #"{"id": "e", "format": "nope == 1"}"#,
    ].joined(separator: "\n")
    let r = try SiftProcess.run(["batch", "--db", path, "--model", Self.model, "--entity", "Book"], stdin: cases)
    #expect(r.status == 0, "\(r.stderr)")
    let out = try Self.lines(r.stdout)
    #expect(out["a"]?["rows"] == [2, 4])
    #expect(out["b"]?["rows"] == [1, 2])
    #expect(out["c"]?["rows"] == [3])
    #expect(out["d"]?["rows"] == [3])
    #expect(out["e"]?["ok"] == false && out["e"]?["stage"] == "sql")
    // Without the model: keys from the columns; to-many inverses of foreign keys are unknown.
    let bare = try SiftProcess.run(
      ["batch", "--db", path, "--entity", "Book"],
      stdin: #"{"id": "a", "format": "createdat < CAST(0, 'NSDate') OR ANY authors.name == 'Neil Gaiman'"}"#
        + "\n" + #"{"id": "b", "format": "notes.@count == 2"}"#)
    let bareOut = try Self.lines(bare.stdout)
    #expect(bareOut["a"]?["rows"] == [2, 3, 4], "\(bare.stdout)")
    #expect(bareOut["b"]?["ok"] == false)
    let wrong = try SiftProcess.run(
      ["batch", "--db", path, "--model", Self.coredata.appendingPathComponent("Playlists").path, "--entity", "Song"],
      stdin: "")
    #expect(
      wrong.status == 1 && wrong.stderr.contains("has no entity 'Playlist' in Z_PRIMARYKEY (model "), "\(wrong.stderr)")
    #expect(ExistingFixture.snapshot(path) == before)
  }

  /// The same entities, tables, row filters, keys, attributes and relationships (a schema file
  /// lists members by name, so their order is not kept).
  static func same(_ a: SQLSchema, _ b: SQLSchema) -> Bool {
    guard a.entityNames.sorted() == b.entityNames.sorted(), a.dateEncoding == b.dateEncoding, a.layout == b.layout
    else { return false }
    return a.entityNames.allSatisfy { name in
      guard let x = a.entity(name), let y = b.entity(name) else { return false }
      return x.table == y.table && x.primaryKey == y.primaryKey && x.rowFilter == y.rowFilter
        && Set(x.attributes) == Set(y.attributes) && Set(x.relationships) == Set(y.relationships)
    }
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func schemaFilesRoundTrip() throws {
    let (dir, path) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fromModel = try SiftProcess.run(["schema", "--model", Self.model], stdin: "")
    #expect(fromModel.status == 0, "\(fromModel.stderr)")
    let model = try CoreDataModel(contentsOf: URL(fileURLWithPath: Self.model))
    #expect(Self.same(try SQLSchema(json: fromModel.stdout), try model.sqlSchema()))
    let withModel = try SiftProcess.run(["schema", "--db", path, "--model", Self.model], stdin: "")
    let store = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model)
    #expect(Self.same(try SQLSchema(json: withModel.stdout), store.schema))
    let bare = try SiftProcess.run(["schema", "--db", path], stdin: "")
    let inferred = try CoreDataStore(database: try SQLiteDatabase(readOnly: path))
    #expect(Self.same(try SQLSchema(json: bare.stdout), inferred.schema))

    // Saved, edited (a key renamed) and passed back with --schema.
    let file = dir.appendingPathComponent("library.schema.json")
    try bare.stdout.replacingOccurrences(of: #""createdat""#, with: #""createdAt""#).write(
      to: file, atomically: true, encoding: .utf8)
    let edited = try SiftProcess.run(
      ["batch", "--db", path, "--schema", file.path, "--entity", "Item"],
      stdin: #"{"id": "a", "format": "createdAt == nil"}"#)
    #expect(try Self.lines(edited.stdout)["a"]?["rows"] == [5], "\(edited.stdout)\(edited.stderr)")
    // The model's schema file over the store without --model (the Core Data stores article): the model's keys
    // replace the ones read from the columns (createdAt, not createdAt and createdat).
    let modelFile = dir.appendingPathComponent("model.schema.json")
    try fromModel.stdout.write(to: modelFile, atomically: true, encoding: .utf8)
    let repl = try SiftProcess.run(
      ["--db", path, "--schema", modelFile.path, "-c", ".use Book", "-c", "createdAt == nil"], stdin: "")
    #expect(
      repl.status == 0 && repl.stdout.contains("createdAt") && repl.stdout.contains("inPrint"),
      "\(repl.stdout)\(repl.stderr)")
    #expect(!repl.stdout.contains("createdat") && !repl.stdout.contains("inprint"), "\(repl.stdout)")
    let (notesDir, notes) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: notesDir) }
    let plain = try SiftProcess.run(["schema", "--db", notes], stdin: "")
    #expect(plain.status == 0 && plain.stdout.contains(#""note""#))
    let usage = try SiftProcess.run(["schema"], stdin: "")
    #expect(usage.status == 2 && usage.stderr.contains("schema needs --model MODEL or --db FILE"))
    let notAStore = try SiftProcess.run(["schema", "--db", notes, "--model", Self.model], stdin: "")
    #expect(notAStore.status == 1 && notAStore.stderr.contains("is not a Core Data store"), "\(notAStore.stderr)")
  }
}
