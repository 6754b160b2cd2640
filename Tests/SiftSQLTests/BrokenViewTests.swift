import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A view whose definition no longer compiles is left out with a note naming it; the rest of
/// the file opens and answers.
@Suite("A view that does not compile")
struct BrokenViewTests {
  @Test func brokenViewIsLeftOutAndNamed() throws {
    let dir = try scratchDirectory("sift-views")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("views.sqlite").path
    do {
      let db = try SQLiteDatabase(path: path)
      try db.executeScript(
        """
        CREATE TABLE a (x INTEGER PRIMARY KEY, y TEXT);
        INSERT INTO a VALUES (1, 'one'), (2, 'two');
        CREATE TABLE gone (z INTEGER);
        CREATE VIEW broken AS SELECT z FROM gone;
        CREATE VIEW fine AS SELECT x, y FROM a;
        DROP TABLE gone;
        """)
    }
    let db = try SQLiteDatabase(untouched: path)
    let read = try db.introspectSchema()
    #expect(read.schema.entityNames.sorted() == ["a", "fine"])
    let note = try #require(read.warnings.first { $0.kind == .brokenView })
    #expect(note.table == "broken")
    #expect(note.description.contains("view broken does not compile (no such table: main.gone)"))
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: read.schema)
    let st = try compiler.compile(
      SiftFetchRequest(entity: "fine", predicate: try SiftPredicate(format: "y == 'two'"), resultType: .count))
    #expect(try db.execute(st) == [[.integer(1)]])
  }
}
