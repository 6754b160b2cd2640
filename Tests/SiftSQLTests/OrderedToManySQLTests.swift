import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// An ordered to-many (`"orderColumn"` in a schema file, Core Data's `Z_FOK_…`) on a database
/// Sift did not create: `[FIRST]`, `[LAST]`, `[n]` follow the order column, not the keys, on
/// SQLite and PostgreSQL alike, and agree with memory over the same objects in that order.
@Suite("Ordered to-many relationships in SQL")
struct OrderedToManySQLTests {
  static let schema = """
    {"layout": "existing", "entities": {
      "Venue": {"table": "venue", "attributes": {"id": "integer", "name": "string"},
        "relationships": {
          "items": {"toMany": "Item", "inverseForeignKey": "venue_id", "orderColumn": "pos"},
          "tags": {"toMany": "Tag", "joinTable": "venue_tag", "sourceColumn": "venue_id", "targetColumn": "tag_id",
                   "orderColumn": "pos"}}},
      "Item": {"table": "item", "attributes": {"id": "integer", "label": "string", "price": "double"}},
      "Tag": {"table": "tag", "attributes": {"id": "integer", "word": "string"}}}}
    """

  /// Order keys sparse and against the keys: item 3 comes first in venue 1, tag 2 before tag 1.
  static let script = [
    "CREATE TABLE venue (id BIGINT PRIMARY KEY, name TEXT)",
    "CREATE TABLE item (id BIGINT PRIMARY KEY, venue_id BIGINT, pos BIGINT, label TEXT, price DOUBLE PRECISION)",
    "CREATE TABLE tag (id BIGINT PRIMARY KEY, word TEXT)",
    "CREATE TABLE venue_tag (venue_id BIGINT, tag_id BIGINT, pos BIGINT)",
    "INSERT INTO venue VALUES (1, 'one'), (2, 'two'), (3, 'none')",
    "INSERT INTO item VALUES (1, 1, 3072, 'a', 1.5), (2, 1, 2048, 'b', 2.5), (3, 1, 1024, 'c', 3.5)",
    "INSERT INTO item VALUES (4, 2, 10, 'a', 9), (5, 2, 20, 'd', 0.5)",
    "INSERT INTO tag VALUES (1, 'x'), (2, 'y'), (3, 'z')",
    "INSERT INTO venue_tag VALUES (1, 2, 5), (1, 1, 7), (2, 1, 1), (2, 3, 2), (2, 2, 3)",
  ]

  static let records: [SiftValue] = [
    [
      "id": 1, "name": "one",
      "items": [
        ["id": 3, "label": "c", "price": 3.5], ["id": 2, "label": "b", "price": 2.5],
        ["id": 1, "label": "a", "price": 1.5],
      ],
      "tags": [["id": 2, "word": "y"], ["id": 1, "word": "x"]],
    ],
    [
      "id": 2, "name": "two",
      "items": [["id": 4, "label": "a", "price": 9.0], ["id": 5, "label": "d", "price": 0.5]],
      "tags": [["id": 1, "word": "x"], ["id": 3, "word": "z"], ["id": 2, "word": "y"]],
    ],
    ["id": 3, "name": "none", "items": [], "tags": []],
  ]

  static let predicates = [
    "items[FIRST].label == 'c'", "items[FIRST].label == 'a'", "items[LAST].label == 'a'", "items[1].label == 'b'",
    "items[2].price > 1", "items[FIRST] == nil", "items[LAST].price < items[FIRST].price", "items.label[LAST] == 'd'",
    "tags[FIRST].word == 'y'", "tags[LAST].word == 'y'", "tags[1].word == 'z'", "tags.word[FIRST] == 'x'",
    "tags[2] == nil", "SUBQUERY(items, $i, $i.price > 1)[LAST].label == 'a'",
  ]

  @Test func sqliteAndPostgresAgreeWithMemory() throws {
    let schema = try SQLSchema(json: Self.schema)
    let objects = try JSONRecords.records(from: .array(Self.records))
    let sqlite = try SQLiteDatabase(path: ":memory:")
    for s in Self.script { try sqlite.executeScript(s) }
    var engines: [(String, any SQLDatabase, any SQLDialect)] = [("sqlite", sqlite, SQLiteDialect())]
    let postgres = PostgresTestServer.isAvailable ? try PostgresTestServer.open() : nil
    defer { postgres?.close() }
    if let postgres {
      for s in Self.script { _ = try postgres.execute(SQLStatement(sql: s)) }
      engines.append(("postgres", postgres, PostgreSQLDialect()))
    }
    for format in Self.predicates {
      let p = try SiftPredicate(format: format)
      let memory = try p.compile().matchingIndices(objects).map { Int64($0 + 1) }
      #expect(!memory.isEmpty, "\(format) selects nothing: not a test")
      for (name, db, dialect) in engines {
        let compiler = SQLCompiler(dialect: dialect, schema: schema)
        let rows = try db.execute(try compiler.compile(SiftFetchRequest(entity: "Venue", predicate: p)))
        let keys = rows.map { row -> Int64 in
          switch row[0] {
          case .integer(let k): return k
          case .text(let t): return Int64(t) ?? -1
          default: return -1
          }
        }
        #expect(keys == memory, "\(name): \(format)")
      }
    }
  }
}
