import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A STRICT table's `ANY` column keeps each value as given: introspection takes the storage
/// class its values share (it read `double` before, so `a == "a"` compiled to `1 = 0`), and
/// leaves a mixed one out with a note.
@Suite("STRICT tables with ANY columns")
struct StrictAnyColumnTests {
  @Test func anyColumnTakesItsValuesKind() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE t (id INTEGER PRIMARY KEY, a ANY, n ANY, mixed ANY) STRICT;
      INSERT INTO t VALUES (1, 'a', 1, 'x'), (2, 'b', 2, 2);
      """)
    let read = try db.introspectSchema()
    let entity = try #require(read.schema.entity("t"))
    #expect(entity.attribute("a")?.type == .string)
    #expect(entity.attribute("n")?.type == .integer)
    #expect(entity.attribute("mixed") == nil)
    #expect(read.warnings.contains { $0.message.contains("mixed is declared ANY and its values mix integer, string") })
    let rows = try db.fetch(
      SiftFetchRequest(entity: "t", predicate: try SiftPredicate(format: "a == %@ AND n < %@", "a", 2)),
      as: SiftRow.self)
    #expect(rows.map { $0["id"] } == [.int(1)])
  }
}
