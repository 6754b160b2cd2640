import Foundation
import SiftCoreData
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Derived attributes (`derived="YES"`): fetched from the column Core Data keeps, computed the
/// same way in memory, and refused clearly when the derivation is not one Core Data supports.
@Suite("Core Data derived attributes")
struct DerivedAttributeTests {
  static let model = Result { try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld")) }

  /// Tag.itemCount (`items.@count`) is read from ZITEMCOUNT, agrees with the count SQL computes,
  /// and memory computes the same numbers from the tags' items.
  @Test func storedColumnIsFetchedAndMatchesMemory() throws {
    let model = try Self.model.get()
    let store = try OpenedStore(script: "Library.sql", model: model)
    #expect(try store.keys("Tag", "itemCount == 3") == [1])
    #expect(try store.keys("Tag", "itemCount == items.@count") == [1, 2, 3])
    #expect(try store.keys("Tag", "itemCount > 0 AND name BEGINSWITH 'c'") == [2])
    let tags: [[String: SiftValue]] = [
      ["name": "fantasy", "items": [["title": "Good Omens"], ["title": "Mort"], ["title": "The Sandman"]]],
      ["name": "classic", "items": [["title": "Mort"]]],
      ["name": "unused", "items": []],
    ]
    let derived = try model.addingDerivedValues(to: tags, entity: "Tag")
    #expect(derived.map { $0["itemCount"] } == [3, 1, 0])
    let records = try JSONRecords.records(from: .array(derived.map { .dictionary($0) }))
    for format in ["itemCount == 3", "itemCount == items.@count", "itemCount > 0 AND name BEGINSWITH 'c'"] {
      let memory = try SiftPredicate(format: format).compile().matchingIndices(records).map { Int64($0 + 1) }
      #expect(try store.keys("Tag", format) == memory, "\(format)")
    }
  }

  @Test func everySupportedShapeComputesInMemory() throws {
    let record: [String: SiftValue] = [
      "name": "Élan Vital", "publisher": ["name": "Gollancz"],
      "items": [["pages": 100, "title": "A"], ["pages": 250, "title": "B"]],
    ]
    let cases: [(String, SiftValue)] = [
      ("name", "Élan Vital"), ("publisher.name", "Gollancz"), ("items.@count", 2), ("items.@sum.pages", 350),
      ("sum:(items.pages)", 350), ("count:(items)", 2), ("max:(items.pages)", 250), ("min:(items.pages)", 100),
      ("average:(items.pages)", 175.0), ("lowercase:(name)", "élan vital"), ("uppercase:(name)", "ÉLAN VITAL"),
      ("canonical:(name)", "elan vital"), (" canonical:( publisher.name ) ", "gollancz"),
    ]
    for (text, expected) in cases {
      let d = try CoreDataDerivation(text, attribute: "Thing.derived")
      #expect(try d.value(in: record) == expected, "\(text)")
    }
    let now = try CoreDataDerivation("now()")
    #expect(now.isNow)
    guard case .date = try now.value(in: [:]) else {
      Issue.record("now() is not a date")
      return
    }
  }

  @Test func unsupportedDerivationsAreRefusedNamingThem() throws {
    for text in [
      "name + 'x'", "1 + 2", "FUNCTION(name, 'uppercaseString')", "canonical:(1)", "sqrt:(pages)",
      "lowercase:('A')", "items.@count >", "", "SUBQUERY(items, $i, $i.pages > 1).@count",
    ] {
      let e = expectSiftError(id: "invalid-model", stage: .model) {
        try CoreDataAttribute(name: "odd", type: .string, isDerived: true, derivationExpression: text).derivation()
      }
      #expect(e?.diagnostic.message.contains("derivation expression '\(text)'") == true, "\(e?.description ?? "")")
    }
    let odd = try CoreDataModel(xml: Self.oddModel)
    #expect(odd.warnings.count == 1 && odd.warnings[0].contains("Tag.twice"), "\(odd.warnings)")
    #expect(odd.warnings.first?.contains("'name + name'") == true, "\(odd.warnings)")
    expectSiftError(id: "invalid-model", stage: .model) { try odd.derivedValues(of: "Tag", in: ["name": "x"]) }
    #expect(try Self.model.get().warnings.isEmpty)
    #expect(try CoreDataAttribute(name: "n", type: .string).derivation() == nil)
  }

  static let oddModel = """
    <model><entity name="Tag"><attribute name="name" attributeType="String"/>
    <attribute name="twice" attributeType="String" derived="YES" derivationExpression="name + name"/></entity></model>
    """

  /// A store without the derived attribute's column still opens: the attribute is left out of
  /// the schema with a warning naming it, and memory can compute it.
  @Test func storeWithoutTheColumnLeavesItOut() throws {
    let xml = """
      <model><entity name="Tag"><attribute name="name" attributeType="String"/>
      <attribute name="loud" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(name)"/>
      </entity></model>
      """
    let model = try CoreDataModel(xml: xml)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SiftSQLite.SQLiteDatabase(path: path).executeScript(
      """
      CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      INSERT INTO Z_PRIMARYKEY VALUES (1, 'Tag', 0, 1);
      INSERT INTO ZTAG VALUES (1, 1, 1, 'quiet');
      """)
    let store = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model)
    #expect(store.schema.entity("Tag")?.attribute("loud") == nil)
    #expect(store.warnings.contains { $0.contains("Tag.loud") }, "\(store.warnings)")
    #expect(try model.derivedValues(of: "Tag", in: ["name": "quiet"]) == ["loud": "QUIET"])
  }
}
