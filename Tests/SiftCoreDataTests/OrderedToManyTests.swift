import Foundation
import SiftCoreData
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Ordered to-many relationships (`ordered="YES"`) keep their order in SQL: `[FIRST]`,
/// `[LAST]`, `[n]` follow the `Z_FOK_…` order key, not the rows' keys, and answer as memory
/// does over the same objects in that order.
@Suite("Core Data ordered to-many relationships")
struct OrderedToManyTests {
  static let predicates = [
    "menu[FIRST].item == 'taco'", "menu[LAST].vegan == YES", "menu[1].price > 20", "menu[FIRST] == nil",
    "menu[LAST].price > menu[FIRST].price", "menu[5].item == nil", "menu.item[FIRST] == 'tea'",
    "menu.price[LAST] < 10", "menu[0].item ==[c] menu[LAST].item", "menu[SIZE] == 2",
    "SUBQUERY(menu, $m, $m.vegan == YES)[FIRST].item == 'pie'", "ANY menu.item == menu[LAST].item",
  ]

  /// The conformance venues with each menu's order key reversed against its rows' keys (the
  /// last row of a menu comes first), and memory's menus reversed to match: an answer that
  /// followed `Z_PK` instead of `Z_FOK_VENUE` would differ.
  @Test func venuesMenuFollowsItsOrderKey() throws {
    let (path, venues) = try StoreConformanceTests.build()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SQLiteDatabase(path: path).executeScript("UPDATE ZMENUITEM SET Z_FOK_VENUE = 1000000 - Z_FOK_VENUE")
    let reversed = venues.map { v -> SiftValue in
      guard case .dictionary(var d) = v, case .array(let menu)? = d["menu"] else { return v }
      d["menu"] = .array(menu.reversed())
      return .dictionary(d)
    }
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Venues.xcdatamodel"))
    let store = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model)
    #expect(store.schema.entity("Venue")?.relationship("menu")?.orderColumn == "Z_FOK_VENUE")
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
    let records = try JSONRecords.records(from: .array(reversed))
    for format in Self.predicates {
      let p = try SiftPredicate(format: format)
      let memory = try p.compile().matchingIndices(records).map { Int64($0 + 1) }
      let rows = try store.database.execute(try compiler.compile(SiftFetchRequest(entity: "Venue", predicate: p)))
      let keys = rows.map { row -> Int64 in if case .integer(let k) = row[0] { k } else { -1 } }
      #expect(keys == memory, "\(format)")
      #expect(!memory.isEmpty || format.contains("[5]"), "\(format) selects nothing: not a test")
    }
  }

  /// Book.authors is an ordered many-to-many (`Z_1BOOKS.Z_FOK_1AUTHORS`): Good Omens lists
  /// Gaiman (Z_PK 2) before Pratchett (Z_PK 1). With the model and without it.
  @Test func orderedManyToManyWithAndWithoutTheModel() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let withModel = try OpenedStore(script: "Library.sql", model: model)
    #expect(withModel.store.schema.entity("Book")?.relationship("authors")?.orderColumn == "Z_FOK_1AUTHORS")
    #expect(withModel.store.schema.entity("Publisher")?.relationship("books")?.orderColumn == "Z_FOK_PUBLISHER")
    #expect(try withModel.keys("Book", "authors[FIRST].name == 'Neil Gaiman'") == [2, 4])
    #expect(try withModel.keys("Book", "authors[LAST].name == 'Terry Pratchett'") == [2, 3])
    #expect(try withModel.keys("Book", "authors[1].name BEGINSWITH 'T'") == [2])
    #expect(try withModel.keys("Book", "authors[FIRST] == nil") == [1, 5])
    #expect(try withModel.keys("Book", "authors.name[FIRST] == 'Neil Gaiman'") == [2, 4])
    #expect(try withModel.keys("Publisher", "books[LAST].title == 'Mort'") == [1])
    #expect(try withModel.keys("Publisher", "books[FIRST].title == nil") == [2])
    let without = try OpenedStore(script: "Library.sql")
    #expect(try without.keys("Book", "authors[FIRST].name == 'Neil Gaiman'") == [2, 4])
    // Unordered to-many: still no order to index by.
    expectSiftError(id: "unsupported-in-sql", stage: .sql) { try withModel.keys("Book", "tags[FIRST].name == 'x'") }
  }

  /// The order column is part of the schema file: written by `jsonText`, read back, checked.
  @Test func orderColumnInTheSchemaFile() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let schema = try model.sqlSchema()
    let text = schema.jsonText
    #expect(text.contains("orderColumn") && text.contains("Z_FOK_1AUTHORS"))
    let back = try SQLSchema(json: text)
    #expect(back.entity("Book")?.relationship("authors")?.orderColumn == "Z_FOK_1AUTHORS")
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(
        json: #"""
          {"entities": {"A": {"attributes": {"id": "integer"},
            "relationships": {"b": {"toOne": "B", "orderColumn": "pos"}}},
            "B": {"attributes": {"id": "integer"}}}}
          """#)
    }
  }

  /// A model that says ordered, on a store without the order column: read unordered, with a
  /// warning naming the relationship.
  @Test func missingOrderColumnIsAWarning() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let path = try StoreFixture.build("Library.sql")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SQLiteDatabase(path: path).executeScript("ALTER TABLE ZITEM DROP COLUMN Z_FOK_PUBLISHER")
    let store = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model)
    #expect(store.schema.entity("Publisher")?.relationship("books")?.orderColumn == nil)
    #expect(store.warnings.contains { $0.contains("Publisher.books") && $0.contains("Z_FOK_PUBLISHER") })
  }
}
