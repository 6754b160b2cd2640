import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Batch updates and inserts take plain Swift values (issue #32): a `Bool`, `Int`, `Date`
/// variable, an optional, an enum with a raw value.
@Suite("Batch values are plain Swift values")
struct BatchSwiftValueTests {
  enum Kind: String { case cafe, bar }

  @Test func updateAndInsertValuesAreSwiftValues() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE shop (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened DATETIME, open BOOLEAN, rating INTEGER,
        kind TEXT);
      INSERT INTO shop VALUES (1, 'a', NULL, 0, 3, 'bar'), (2, 'b', NULL, 0, 4, 'bar');
      """)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    let isOpen = true, rating: Int? = nil, opened = Date(timeIntervalSince1970: 1_700_000_000), kind = Kind.cafe
    let update = BatchUpdateRequest(
      entity: "shop", predicate: try SiftPredicate(format: "id == 1"),
      assignments: [
        ("open", .value(isOpen)), ("rating", .value(rating)), ("opened", .value(opened)),
        ("kind", .value(kind)),
      ])
    #expect(try db.run(update, compiler: compiler).count == 1)
    let name = "c", missing: Date? = nil
    let insert = try BatchInsertRequest(
      entity: "shop", objects: [["id": 3, "name": name, "opened": missing, "open": isOpen, "kind": Kind.bar]])
    #expect(try db.run(insert, compiler: compiler).count == 1)
    let rows = try db.execute(SQLStatement(sql: "SELECT id, open, rating, kind, opened IS NULL FROM shop ORDER BY id"))
    #expect(
      rows == [
        [.integer(1), .integer(1), .null, .text("cafe"), .integer(0)],
        [.integer(2), .integer(0), .integer(4), .text("bar"), .integer(1)],
        [.integer(3), .integer(1), .null, .text("bar"), .integer(1)],
      ])
    let stored = try db.execute(SQLStatement(sql: "SELECT opened FROM shop WHERE id = 1"))
    #expect(stored.first?.first != .null)
  }
}
