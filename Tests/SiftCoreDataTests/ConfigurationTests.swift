import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Configurations (`<configuration name=…><memberEntity …/>`) choose the entities a store
/// holds; uniqueness constraints become the unique indexes Core Data creates.
@Suite("Core Data configurations and uniqueness constraints")
struct ConfigurationTests {
  static let model = Result { try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld")) }

  @Test func configurationsAreRead() throws {
    let model = try Self.model.get()
    #expect(model.configurations == [CoreDataConfiguration(name: "Cloud", entities: ["Tag"], line: 68)])
  }

  /// The Cloud configuration holds Tag alone: its relationship into Item (another store) is
  /// left out with a warning; a store holding only ZTAG opens with it and not without it.
  @Test func aConfigurationChoosesTheEntities() throws {
    let cloud = try Self.model.get().restricted(toConfiguration: "Cloud")
    #expect(cloud.entities.map(\.name) == ["Tag"])
    #expect(cloud.entity("Tag")?.relationship("items") == nil)
    #expect(cloud.warnings.contains { $0.contains("Tag.items") && $0.contains("Cloud") }, "\(cloud.warnings)")
    #expect(cloud.fetchRequests.map(\.name) == ["AllTags"])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try SQLiteDatabase(path: path).executeScript(
      """
      CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEMCOUNT INTEGER, ZNAME VARCHAR );
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      INSERT INTO Z_PRIMARYKEY VALUES (1, 'Tag', 0, 2);
      INSERT INTO ZTAG VALUES (1, 1, 1, 0, 'cloudy');
      INSERT INTO ZTAG VALUES (2, 1, 1, 4, 'sunny');
      """)
    let db = try SQLiteDatabase(readOnly: path)
    let store = try CoreDataStore(database: db, model: cloud)
    let rows = try store.fetch(
      SiftFetchRequest(entity: "Tag", predicate: try SiftPredicate(format: "itemCount > 0")), as: SiftRow.self)
    #expect(rows.count == 1)
    let whole = expectSiftError(id: "invalid-store", stage: .model) {
      try CoreDataStore(database: db, model: try Self.model.get())
    }
    #expect(whole?.diagnostic.message.contains("--configuration Cloud") == true, "\(whole?.description ?? "")")
  }

  @Test func unknownConfigurationListsTheNames() throws {
    let model = try Self.model.get()
    let e = expectSiftError(id: "invalid-model", stage: .model) { try model.restricted(toConfiguration: "Local") }
    #expect(e?.diagnostic.message.contains("no configuration 'Local'") == true, "\(e?.description ?? "")")
    #expect(e?.diagnostic.message.contains("Default, Cloud") == true, "\(e?.description ?? "")")
    #expect(try model.restricted(toConfiguration: "Default") == model)
    let bad = try CoreDataModel(
      xml: #"<model><entity name="A"/><configuration name="X"><memberEntity name="B"/></configuration></model>"#)
    expectSiftError(id: "invalid-model", stage: .model) { try bad.restricted(toConfiguration: "X") }
    expectSiftError(id: "invalid-model", stage: .model) {
      try CoreDataModel(xml: #"<model><configuration name="X"><member name="A"/></configuration></model>"#)
    }
  }

  /// Tag's constraint on `name` is the unique index Core Data creates, `Z_Tag_UNIQUE_name`
  /// on ZNAME (the one Library.sql has), in the schema and the schema file; a constraint on
  /// two properties lists both columns; a sub-entity inherits its parent's.
  @Test func uniquenessConstraintsAreUniqueIndexes() throws {
    let schema = try Self.model.get().sqlSchema()
    let tag = try #require(schema.entity("Tag"))
    #expect(tag.indexes == [SQLIndex(name: "Z_Tag_UNIQUE_name", columns: ["ZNAME"], isUnique: true)])
    #expect(schema.jsonText.contains("Z_Tag_UNIQUE_name"))
    #expect(try SQLSchema(json: schema.jsonText).entity("Tag")?.indexes.first?.isUnique == true)
    let two = try CoreDataModel(
      xml: """
        <model><entity name="Person"><attribute name="first" attributeType="String"/>
        <attribute name="last" attributeType="String"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="first"/><constraint value="last"/>
        </uniquenessConstraint></uniquenessConstraints></entity>
        <entity name="Pilot" parentEntity="Person"/></model>
        """)
    let s = try two.sqlSchema()
    let expected = [SQLIndex(name: "Z_Person_UNIQUE_first_last", columns: ["ZFIRST", "ZLAST"], isUnique: true)]
    #expect(s.entity("Person")?.indexes == expected && s.entity("Pilot")?.indexes == expected)
  }
}
