import Foundation
import SiftCoreData
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// Models as Xcode writes them open: a transient attribute saved without a type ("Undefined"),
/// the older `<compoundIndexes>` element; a file nested absurdly deep is a clear error, not a
/// stack overflow.
@Suite("Core Data models Xcode writes")
struct ModelRobustnessTests {
  @Test func transientAttributeWithoutATypeOpens() throws {
    let model = try CoreDataModel(
      xml: """
        <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES"/>
          </entity>
        </model>
        """)
    let item = try #require(model.entity("Item"))
    #expect(item.attributes.map(\.name) == ["title", "scratch"])
    #expect(item.attributes.last?.type == .undefined)
    #expect(item.attributes.last?.isTransient == true)
    // Not transient and no type is still an error naming the attribute.
    expectSiftError(id: "invalid-model", stage: .model) {
      try CoreDataModel(xml: #"<model><entity name="Item"><attribute name="x"/></entity></model>"#)
    }
  }

  @Test func compoundIndexesOpenAsFetchIndexes() throws {
    let model = try CoreDataModel(
      xml: """
        <model>
          <entity name="Item">
            <attribute name="a" attributeType="String"/>
            <attribute name="b" attributeType="Integer 64"/>
            <compoundIndexes>
              <compoundIndex>
                <index value="a"/>
                <index value="b"/>
              </compoundIndex>
              <compoundIndex>
                <index value="b"/>
              </compoundIndex>
            </compoundIndexes>
          </entity>
        </model>
        """)
    let indexes = try #require(model.entity("Item")).fetchIndexes
    #expect(indexes.map(\.name) == ["compoundIndex1", "compoundIndex2"])
    #expect(indexes.first?.elements.map(\.target) == [.property("a"), .property("b")])
    // An unknown property in one is the usual error.
    expectSiftError(id: "invalid-model", stage: .model) {
      try CoreDataModel(
        xml:
          #"<model><entity name="I"><compoundIndexes><compoundIndex><index value="nope"/></compoundIndex></compoundIndexes></entity></model>"#
      )
    }
  }

  @Test func deeplyNestedFileIsAClearError() throws {
    let depth = 70_000
    let xml =
      "<model>" + String(repeating: "<entity name=\"E\">", count: depth) + String(repeating: "</entity>", count: depth)
      + "</model>"
    do {
      _ = try CoreDataModel(xml: xml, file: "deep.xml")
      Issue.record("a 70,000-deep model opened")
    } catch {
      #expect(
        error.description.contains("nested more than 64 deep") || error.description.contains("malformed XML"),
        "\(error)")
    }
  }
}

/// A composite attribute (Xcode 15) no longer makes the whole model unreadable (issue #35,
/// item 9e): it is left out with a warning naming it; the rest of the model reads as usual.
@Suite("Composite attributes")
struct CompositeAttributeTests {
  static let xml = #"""
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23A344">
        <entity name="Quake" representedClassName="Quake" syncable="YES">
            <attribute name="code" optional="YES" attributeType="String"/>
            <attribute name="magnitude" optional="YES" attributeType="Composite" composite="Magnitude"/>
            <attribute name="place" optional="YES" attributeType="String"/>
            <compositeAttribute name="location">
                <attribute name="latitude" optional="YES" attributeType="Double"/>
            </compositeAttribute>
        </entity>
        <composite name="Magnitude">
            <attribute name="richter" optional="YES" attributeType="Double" defaultValueString="0.0"/>
            <attribute name="scale" optional="YES" attributeType="String"/>
        </composite>
    </model>
    """#

  @Test func theCompositeIsLeftOutAndNamed() throws {
    let model = try CoreDataModel(xml: Self.xml, file: "Quakes.xcdatamodel/contents")
    #expect(model.entity("Quake")?.attributes.map(\.name) == ["code", "place"])
    #expect(model.warnings.count == 2, "\(model.warnings)")
    #expect(
      model.warnings.first
        == "Quakes.xcdatamodel/contents:5: attribute Quake.magnitude is a composite attribute (Xcode 15), which Sift "
        + "does not read yet; left out (its key paths, such as magnitude.ELEMENT, are unknown keys)")
    #expect(model.warnings.last?.contains("attribute Quake.location is a composite attribute") == true)
    // The rest of the model works: its SQL schema, and a predicate on the other attributes.
    let schema = try model.sqlSchema()
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    #expect(throws: Never.self) {
      try compiler.compile(SiftFetchRequest(entity: "Quake", predicate: try SiftPredicate(format: "place == 'x'")))
    }
    let error = try #require(throws: SiftError.self) {
      try compiler.compile(
        SiftFetchRequest(entity: "Quake", predicate: try SiftPredicate(format: "magnitude.richter > 4.5")))
    }
    #expect(error.id == "unknown-key-path", "\(error)")
  }
}
