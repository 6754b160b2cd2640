import Foundation
import SiftCoreData
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
