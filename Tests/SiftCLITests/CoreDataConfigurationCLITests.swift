import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `--configuration NAME` with `--model` (issue #31): `sift schema`, `sift sql` and `sift
/// batch` see only the configuration's entities; an unknown name is an error listing the
/// names; the text `.schema` of the REPL and the schema file show uniqueness constraints
/// (unique indexes) and ordered relationships.
@Suite("CLI: Core Data configurations, uniqueness, order")
struct CoreDataConfigurationCLITests {
  static let model = CoreDataCLITests.model

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func schemaOfAConfiguration() throws {
    let cloud = try SiftProcess.run(["schema", "--model", Self.model, "--configuration", "Cloud"], stdin: "")
    #expect(cloud.status == 0, "\(cloud.stderr)")
    let schema = try SQLSchema(json: cloud.stdout)
    #expect(schema.entityNames == ["Tag"])
    #expect(schema.entity("Tag")?.indexes.first?.name == "Z_Tag_UNIQUE_name")
    let unknown = try SiftProcess.run(["schema", "--model", Self.model, "--configuration", "Local"], stdin: "")
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("no configuration 'Local'") && unknown.stderr.contains("Default, Cloud"))
    let text = try SiftProcess.run(["schema", "--model", Self.model, "--text"], stdin: "")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("  unique Z_Tag_UNIQUE_name: ZNAME\n"), "\(text.stdout)")
    #expect(
      text.stdout.contains("join table Z_1BOOKS(Z_3BOOKS, Z_1AUTHORS), ordered by Z_FOK_1AUTHORS"), "\(text.stdout)")
    #expect(text.stdout.contains("attribute itemCount: integer, column ZITEMCOUNT"), "\(text.stdout)")
    // A table without a primary key (a view, say) says so, rather than "primary key " and nothing.
    let keyless = FileManager.default.temporaryDirectory.appendingPathComponent("sift-keyless-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: keyless) }
    try SQLiteDatabase(path: keyless).executeScript("CREATE TABLE t (a TEXT); CREATE VIEW v AS SELECT a FROM t;")
    let plain = try SiftProcess.run(["schema", "--db", keyless, "--text"], stdin: "")
    #expect(plain.stdout.contains("entity t: table t, no primary key\n"), "\(plain.stdout) \(plain.stderr)")
    let alone = try SiftProcess.run(["schema", "--configuration", "Cloud"], stdin: "")
    #expect(alone.status == 2 && alone.stderr.contains("--configuration NAME goes with --model"), "\(alone.stderr)")
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func storeCommandsTakeTheConfiguration() throws {
    let (dir, path) = try CoreDataCLITests.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let batch = try SiftProcess.run(
      ["batch", "--db", path, "--model", Self.model, "--configuration", "Cloud", "--entity", "Tag"],
      stdin: #"{"id": "a", "format": "itemCount >= 1"}"#)
    #expect(try CoreDataCLITests.lines(batch.stdout)["a"]?["rows"] == [1, 2], "\(batch.stdout)\(batch.stderr)")
    let outside = try SiftProcess.run(
      ["sql", "title == 'x'", "--db", path, "--model", Self.model, "--configuration", "Cloud", "--entity", "Book"],
      stdin: "")
    #expect(outside.status != 0 && outside.stderr.contains("Book"), "\(outside.stdout)\(outside.stderr)")
    let repl = try SiftProcess.run(
      ["--db", path, "--model", Self.model, "--configuration", "Cloud", "-c", ".tables"], stdin: "")
    #expect(repl.status == 0 && repl.stdout.contains("Tag"), "\(repl.stdout)\(repl.stderr)")
    #expect(repl.stdout.split(separator: "\n").filter { $0.contains("| table |") }.count == 1, "\(repl.stdout)")
    let opened = try SiftProcess.run(
      ["-c", ".open \(path) --model \(Self.model) --configuration Cloud", "-c", ".tables"], stdin: "")
    #expect(opened.stdout.split(separator: "\n").filter { $0.contains("| table |") }.count == 1, "\(opened.stdout)")
    let loose = try SiftProcess.run(["--db", path, "--configuration", "Cloud", "-c", ".tables"], stdin: "")
    #expect(loose.status == 2 && loose.stderr.contains("--configuration NAME goes with --model"), "\(loose.stderr)")
    let sql = try SiftProcess.run(
      ["sql", "name == 'x'", "--db", path, "--model", Self.model, "--configuration", "Default", "--entity", "Tag"],
      stdin: "")
    #expect(sql.status == 0, "\(sql.stderr)")
  }

  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func replSchemaTextShowsUniqueAndOrdered() throws {
    let (dir, path) = try CoreDataCLITests.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try SiftProcess.run(
      ["--db", path, "--model", Self.model, "-c", ".schema Tag", "-c", ".schema Book"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("unique: Z_Tag_UNIQUE_name (ZNAME)"), "\(r.stdout)")
    #expect(r.stdout.contains("ordered by Z_FOK_1AUTHORS"), "\(r.stdout)")
    // .compare reads the to-many values for memory in their order (Gaiman before Pratchett in
    // Good Omens, against their keys): memory and SQL agree on [FIRST] and [LAST].
    let compare = try SiftProcess.run(
      [
        "--db", path, "--model", Self.model, "-c", ".use Book", "-c", ".compare authors[FIRST].name == 'Neil Gaiman'",
        "-c", ".compare authors[LAST].name == 'Terry Pratchett'",
      ], stdin: "")
    #expect(compare.stdout.components(separatedBy: "agree: 2 of 5 rows").count == 3, "\(compare.stdout)")
    #expect(!compare.stdout.contains("differ"), "\(compare.stdout)")
  }
}
