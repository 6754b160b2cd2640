import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A store Core Data wrote, committed with its model (Tests/Fixtures/coredata/real/CoreDataPlus,
/// MIT): every table and column the model maps to exists, sub-entities see only their rows,
/// and each predicate selects what a hand-written SQL query over the same tables selects. The
/// fixture folder is unchanged afterwards (the WAL-mode file is read from a private copy).
@Suite("A store Core Data wrote (committed fixture)")
struct RealStoreFixtureTests {
  static let folder = CoreDataFixtures.url("real/CoreDataPlus")
  static let path = folder.appendingPathComponent("SampleModel_V1.sqlite").path

  static func listing() throws -> [String: Data?] {
    Dictionary(
      uniqueKeysWithValues: try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
        ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path))
      })
  }

  static func keys(_ store: CoreDataStore, _ entity: String, _ format: String, _ args: SiftValue...) throws -> [Int64] {
    let st = try SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
      .compile(SiftFetchRequest(entity: entity, predicate: try SiftPredicate(format: format, arguments: args)))
    return try store.database.execute(st).map { if case .integer(let k) = $0[0] { k } else { -1 } }
  }

  /// The answer written directly in SQL, independent of Sift.
  static func sql(_ store: CoreDataStore, _ text: String) throws -> [Int64] {
    try store.database.execute(SQLStatement(sql: text)).map { if case .integer(let k) = $0[0] { k } else { -1 } }
  }

  @Test func withItsModel() throws {
    let before = try Self.listing()
    let model = try CoreDataModel(contentsOf: Self.folder.appendingPathComponent("SampleModel.xcdatamodel"))
    let store = try CoreDataStore(
      database: try SQLiteDatabase(untouched: Self.path), model: model, label: "SampleModel_V1.sqlite")
    #expect(store.warnings.isEmpty, "\(store.warnings)")
    // Numbering as observed (roots by name, descendants depth first) and Z_SUPER as the parent.
    #expect(
      store.entityRecords.map { "\($0.number) \($0.name) \($0.parent)" }
        == ["1 Car 0", "2 SportCar 1", "3 ExpensiveSportCar 2", "4 Person 0"])
    #expect(Dictionary(uniqueKeysWithValues: store.entityRecords.map { ($0.name, $0.number) }) == model.entityNumbers())
    // The computed columns are the store's (the init checks each), inherited ones included.
    let expensive = try #require(store.schema.entity("ExpensiveSportCar"))
    #expect(expensive.table == "ZCAR" && expensive.rowFilter == SQLRowFilter(column: "Z_ENT", values: [3]))
    #expect(expensive.attribute("isLimitedEdition")?.column == "ZISLIMITEDEDITION")
    #expect(expensive.attribute("numberPlate")?.column == "ZNUMBERPLATE")
    #expect(store.schema.entity("SportCar")?.rowFilter == SQLRowFilter(column: "Z_ENT", values: [2, 3]))
    #expect(store.schema.entity("Person")?.relationship("cars")?.kind == .toMany(inverseForeignKey: "ZOWNER"))

    let cases: [(String, String, String)] = [
      ("Car", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR ORDER BY Z_PK"),
      ("SportCar", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR WHERE Z_ENT IN (2, 3) ORDER BY Z_PK"),
      (
        "ExpensiveSportCar", "isLimitedEdition == YES",
        "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 3 AND ZISLIMITEDEDITION = 1 ORDER BY Z_PK"
      ),
      (
        "ExpensiveSportCar", "isLimitedEdition == NO",
        "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 3 AND ZISLIMITEDEDITION = 0 ORDER BY Z_PK"
      ),
      ("Car", "owner == nil", "SELECT Z_PK FROM ZCAR WHERE ZOWNER IS NULL ORDER BY Z_PK"),
      (
        "SportCar", "maker IN {'Lamborghini', 'McLaren'} AND owner != nil",
        "SELECT Z_PK FROM ZCAR WHERE Z_ENT IN (2, 3) AND ZMAKER IN ('Lamborghini', 'McLaren') AND ZOWNER IS NOT NULL ORDER BY Z_PK"
      ),
      (
        "Car", "owner.lastName BEGINSWITH 'M'",
        "SELECT c.Z_PK FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE p.ZLASTNAME LIKE 'M%' ORDER BY c.Z_PK"
      ),
      (
        "Person", "cars.@count == 0",
        "SELECT Z_PK FROM ZPERSON p WHERE NOT EXISTS (SELECT 1 FROM ZCAR c WHERE c.ZOWNER = p.Z_PK) ORDER BY Z_PK"
      ),
      (
        "Person", "ANY cars.maker == 'BMW'",
        "SELECT DISTINCT c.ZOWNER FROM ZCAR c WHERE c.ZMAKER = 'BMW' AND c.ZOWNER IS NOT NULL ORDER BY 1"
      ),
      (
        "Person", "cars.@count > 1",
        "SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) > 1 ORDER BY 1"
      ),
      (
        "Person", "id != nil AND firstName != nil",
        "SELECT Z_PK FROM ZPERSON WHERE ZID IS NOT NULL AND ZFIRSTNAME IS NOT NULL ORDER BY Z_PK"
      ),
      (
        "Car", "color == nil AND markedForDeletionAsOf == nil",
        "SELECT Z_PK FROM ZCAR WHERE ZCOLOR IS NULL AND ZMARKEDFORDELETIONASOF IS NULL ORDER BY Z_PK"
      ),
    ]
    for (entity, format, text) in cases {
      let expected = try Self.sql(store, text)
      #expect(try Self.keys(store, entity, format) == expected, "\(entity): \(format)")
      #expect(!expected.isEmpty || format.contains("== NO"), "\(format): a case that selects nothing proves little")
    }
    #expect(try Self.keys(store, "Car", "TRUEPREDICATE").count == 125)
    #expect(try Self.keys(store, "ExpensiveSportCar", "TRUEPREDICATE").count == 5)
    // Dates are seconds since 2001 stored as REAL: all 20 people were updated on 2021-04-07 (UTC).
    let day = Date(timeIntervalSinceReferenceDate: 639_446_400)  // 2021-04-07T00:00:00Z
    #expect(
      try Self.keys(
        store, "Person", "updatedAt >= %@ AND updatedAt < %@", SiftValue(day),
        SiftValue(day.addingTimeInterval(86400))
      ).count == 20)
    #expect(try Self.listing() == before)
  }

  @Test func withoutItsModel() throws {
    let before = try Self.listing()
    let store = try CoreDataStore(database: try SQLiteDatabase(untouched: Self.path))
    let car = try #require(store.schema.entity("ExpensiveSportCar"))
    #expect(
      car.attributes.map(\.name) == [
        "Z_PK", "owner", "islimitededition", "markedfordeletionasof", "maker", "model",
        "numberplate", "color",
      ])
    // ZOWNER points at Person, but no entity is named Owner: without the model it is a number.
    #expect(car.attribute("owner")?.type == .integer && car.relationships.isEmpty)
    #expect(
      store.warnings.contains {
        $0.hasPrefix("ZCAR.ZOWNER has Core Data's foreign-key index but no entity is named after it")
      })
    #expect(
      try Self.keys(store, "ExpensiveSportCar", "islimitededition == 1")
        == Self.sql(store, "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 3 AND ZISLIMITEDEDITION = 1 ORDER BY Z_PK"))
    #expect(try Self.keys(store, "Person", "lastname == 'Gleaves'").count >= 2)
    #expect(try Self.listing() == before)
  }
}
