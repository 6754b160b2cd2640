import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A store Core Data wrote, checked when it is present: it cannot be committed (no licence), so
/// `SIFT_COREDATA_REAL_STORES` names a folder holding `EasyLife 1.5.0.sqlite` and
/// `EasyLife.xcdatamodeld/` from `larromba/EasyLife` (EasyLifeTests/ and EasyLife/ at commit
/// 00461a65dcf7ce78d9330abf310213a31bacb320; Grammar/notes/coredata.md, [EL]). Skipped otherwise.
@Suite("A real Core Data store (opt-in)")
struct RealStoreTests {
  static let folder = ProcessInfo.processInfo.environment["SIFT_COREDATA_REAL_STORES"].map { URL(fileURLWithPath: $0) }

  static func keys(_ store: CoreDataStore, _ entity: String, _ format: String) throws -> [Int64] {
    let st = try SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
      .compile(SiftFetchRequest(entity: entity, predicate: try SiftPredicate(format: format)))
    return try store.database.execute(st).map { if case .integer(let k) = $0[0] { k } else { -1 } }
  }

  @Test(.enabled(if: folder != nil, "set SIFT_COREDATA_REAL_STORES to a folder with the EasyLife store and model"))
  func easyLifeWithAndWithoutItsModel() throws {
    let folder = try #require(Self.folder)
    let path = folder.appendingPathComponent("EasyLife 1.5.0.sqlite").path
    let before = (
      FileManager.default.contents(atPath: path),
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    )
    let model = try CoreDataModel(contentsOf: folder.appendingPathComponent("EasyLife.xcdatamodeld"))
    #expect(model.versionName == "EasyLife 1.5.0.xcdatamodel")
    // Every table and column the model maps to exists (the init checks), numbers as observed.
    let store = try CoreDataStore(database: try SQLiteDatabase(untouched: path), model: model)
    #expect(store.entityRecords.map(\.name) == ["Project", "TodoItem"])
    #expect(Dictionary(uniqueKeysWithValues: store.entityRecords.map { ($0.name, $0.number) }) == model.entityNumbers())
    #expect(
      store.schema.entity("TodoItem")?.relationship("blocking")?.kind
        == .manyToMany(joinTable: "Z_2BLOCKING", sourceColumn: "Z_2BLOCKEDBY", targetColumn: "Z_2BLOCKING"))
    #expect(try Self.keys(store, "TodoItem", "name CONTAINS[c] 'party'") == [4])
    #expect(try Self.keys(store, "TodoItem", "date < CAST(541369085, 'NSDate')") == [3, 4, 6])
    #expect(
      try Self.keys(
        store, "TodoItem", "project == nil AND blocking.@count == 0 AND blockedBy.@count == 0 AND done == nil")
        == [1, 2, 3, 4, 5, 6])
    #expect(try Self.keys(store, "Project", "todoItem.@count == 0") == [])
    // Without the model: the same join table and foreign key, found in the store.
    let bare = try CoreDataStore(database: try SQLiteDatabase(untouched: path))
    let item = try #require(bare.schema.entity("TodoItem"))
    #expect(item.relationship("blockedby")?.kind == store.schema.entity("TodoItem")?.relationship("blockedBy")?.kind)
    #expect(item.relationship("project")?.kind == .toOne(foreignKey: "ZPROJECT"))
    #expect(item.attributes.map(\.name).sorted() == ["Z_PK", "date", "done", "name", "notes", "repeats"])
    #expect(try Self.keys(bare, "TodoItem", "date < CAST(541369085, 'NSDate')") == [3, 4, 6])
    let after = (
      FileManager.default.contents(atPath: path),
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    )
    #expect(after.0 == before.0 && after.1 == before.1)
  }
}
