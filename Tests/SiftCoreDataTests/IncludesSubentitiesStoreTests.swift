import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `includesSubentities = false` on a Core Data store: Book's own rows (`Z_ENT` 3), not its
/// sub-entities' Comic (4) and Novel (5) (Tests/Fixtures/coredata/Library.sql).
@Suite("Core Data: includesSubentities")
struct IncludesSubentitiesStoreTests {
  @Test func ownRowsOfAnEntityWithSubentities() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let store = try StoreFixture(model: model, script: "Library.sql")
    #expect(store.mapping.schema.entity("Book")?.ownRows == SQLRowFilter(column: "Z_ENT", values: [3]))
    #expect(store.mapping.schema.entity("Item")?.ownRows == SQLRowFilter(column: "Z_ENT", values: [2]))
    #expect(store.mapping.schema.entity("Novel")?.ownRows == nil)
    func titles(_ entity: String, includes: Bool) throws -> [SQLValue] {
      var r = SiftFetchRequest(
        entity: entity, sortDescriptors: [SiftSortDescriptor("title")], resultType: .properties(["title"]))
      r.includesSubentities = includes
      return try store.db.execute(try store.compiler.compile(r)).map { $0[0] }
    }
    #expect(try titles("Book", includes: false) == [.text("Reference Manual"), .text("Untitled")])
    #expect(try titles("Book", includes: true).count == 5)
    #expect(try titles("Novel", includes: false) == [.text("Good Omens"), .text("Mort")])
    #expect(try titles("Item", includes: false).isEmpty)
  }
}
