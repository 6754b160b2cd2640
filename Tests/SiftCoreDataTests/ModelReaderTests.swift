import Foundation
import SiftCoreData
import SiftSyntax
import SiftTestSupport
import Testing

@Suite("Core Data model reader")
struct ModelReaderTests {
  static let library: CoreDataModel? = try? CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))

  func library() throws -> CoreDataModel {
    try #require(
      Self.library,
      "Library.xcdatamodeld did not load: \(String(describing: try? CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))))"
    )
  }

  @Test func bundleReadsTheCurrentVersion() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    #expect(model.versionName == "Library 2.xcdatamodel")
    #expect(model.file.hasSuffix("Library.xcdatamodeld/Library 2.xcdatamodel/contents"))
    #expect(model.entities.map(\.name) == ["Author", "Item", "Book", "Novel", "Comic", "Note", "Publisher", "Tag"])
    #expect(
      try CoreDataModel.currentVersion(ofBundle: CoreDataFixtures.url("Library.xcdatamodeld"))
        == "Library 2.xcdatamodel")
  }

  @Test func inheritanceThreeLevelsUnderAnAbstractRoot() throws {
    let model = try library()
    #expect(model.entity("Item")?.isAbstract == true)
    #expect(model.entity("Book")?.isAbstract == false)
    #expect(model.entity("Novel")?.parentName == "Book")
    #expect(model.entity("Novel")?.representedClassName == "Novel")
    #expect(model.lineage(of: "Novel").map(\.name) == ["Novel", "Book", "Item"])
    #expect(model.rootEntity(of: "Comic")?.name == "Item")
    #expect(model.hierarchy(of: "Item") == ["Item", "Book", "Comic", "Novel"])
    #expect(model.subentityNames(of: "Book") == ["Comic", "Novel"])
    #expect(model.rootEntityNames == ["Author", "Item", "Note", "Publisher", "Tag"])
    #expect(
      model.allAttributes(of: "Novel").map(\.name) == ["createdAt", "scratch", "title", "inPrint", "pages", "genre"])
    #expect(model.allRelationships(of: "Comic").map(\.name) == ["notes", "tags", "authors", "publisher"])
    #expect(
      model.entityNumbers() == [
        "Author": 1, "Item": 2, "Book": 3, "Comic": 4, "Novel": 5, "Note": 6, "Publisher": 7, "Tag": 8,
      ])
  }

  @Test func attributesOptionalTransientDerived() throws {
    let model = try library()
    let item = try #require(model.entity("Item"))
    #expect(item.attribute("title")?.isOptional == false)
    #expect(item.attribute("createdAt")?.isOptional == true)
    #expect(item.attribute("createdAt")?.type == .date)
    let scratch = try #require(item.attribute("scratch"))
    #expect(scratch.isTransient && !scratch.isStored && scratch.type == .undefined)
    let count = try #require(model.entity("Tag")?.attribute("itemCount"))
    #expect(count.isDerived && count.isStored && count.derivationExpression == "items.@count")
    #expect(model.entity("Book")?.attribute("pages")?.defaultValue == "0")
    #expect(model.entity("Book")?.attribute("pages")?.line == 33)
  }

  @Test func relationshipsAndTheirCardinality() throws {
    let model = try library()
    func rel(_ e: String, _ r: String) throws -> CoreDataRelationship { try #require(model.entity(e)?.relationship(r)) }
    #expect(model.cardinality(of: try rel("Item", "tags")) == .manyToMany)
    #expect(model.cardinality(of: try rel("Tag", "items")) == .manyToMany)
    let authors = try rel("Book", "authors")
    #expect(authors.isToMany && authors.isOrdered && model.cardinality(of: authors) == .manyToMany)
    #expect(model.inverse(of: authors)?.name == "books")
    #expect(model.cardinality(of: try rel("Book", "publisher")) == .manyToOne)
    #expect(try rel("Book", "publisher").maxCount == 1)
    let books = try rel("Publisher", "books")
    #expect(books.isOrdered && model.cardinality(of: books) == .oneToMany && books.deletionRule == .deny)
    #expect(model.cardinality(of: try rel("Item", "notes")) == .oneToMany)
    #expect(try rel("Item", "notes").deletionRule == .cascade)
    #expect(model.cardinality(of: try rel("Note", "item")) == .manyToOne)
  }

  @Test func indexesAndUniquenessConstraints() throws {
    let model = try library()
    let item = try #require(model.entity("Item"))
    #expect(item.fetchIndexes.map(\.name) == ["byTitle", "byCreatedAtTitle"])
    let two = item.fetchIndexes[1].elements
    #expect(two.map(\.target) == [.property("createdAt"), .property("title")])
    #expect(two.map(\.ascending) == [false, true])
    #expect(model.entity("Tag")?.uniquenessConstraints == [["name"]])
  }

  /// A SUBQUERY's own variable is not a substitution variable the template needs.
  @Test func templateVariablesAreTheFreeOnes() throws {
    let model = try CoreDataModel(
      xml: #"""
        <model>
          <entity name="Book"><attribute name="title" attributeType="String"/></entity>
          <fetchRequest name="ByAuthor" entity="Book" predicateString="SUBQUERY(authors, $a, $a.name == $NAME).@count &gt; 0 AND title != '$x'"/>
        </model>
        """#)
    #expect(model.fetchRequest("ByAuthor")?.variables == ["NAME"])
    let r = try model.fetchRequest(named: "ByAuthor", substituting: ["NAME": "Ada"])
    #expect(
      r.predicate?.description == #"SUBQUERY(authors, $a, $a.name == "Ada").@count > 0 AND title != "$x""#,
      "\(String(describing: r.predicate))")
    expectSiftError(id: "invalid-model", stage: .model) { try model.fetchRequest(named: "ByAuthor") }
  }

  @Test func fetchRequestTemplatesAndFetchedProperties() throws {
    let model = try library()
    #expect(model.fetchRequests.map(\.name) == ["BooksByAuthor", "LongNovels", "RecentItems", "AllTags"])
    let long = try #require(model.fetchRequest("LongNovels"))
    #expect(long.entity == "Novel")
    #expect(long.predicateString == #"pages >= $MIN_PAGES AND genre ==[c] "fantasy""#)
    #expect(long.variables == ["MIN_PAGES"])
    let parsed = try SiftPredicate.parse(try #require(long.predicateString))
    #expect(parsed.variables == ["MIN_PAGES"])
    let recent = try #require(model.fetchRequest("RecentItems"))
    #expect(recent.fetchLimit == 10 && recent.options["includeSubentities"] == "YES")
    #expect(model.fetchRequest("AllTags")?.predicateString == nil)
    #expect(model.fetchRequest("AllTags")?.variables == [])
    let namesakes = try #require(model.entity("Author")?.fetchedProperties.first)
    #expect(namesakes.name == "namesakes" && namesakes.request.entity == "Author")
    #expect(namesakes.request.variables == ["FETCH_SOURCE"])
    #expect(
      CoreDataFetchRequest(name: "q", entity: "Book", predicateString: #"a == "$NOT" AND b == $YES_1 AND c == '\'$x'"#)
        .variables == ["YES_1"])
  }

  @Test func everyAttributeType() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("AllTypes.xcdatamodel"))
    #expect(model.versionName == nil)
    let sample = try #require(model.entity("Sample"))
    let types = Set(sample.attributes.map(\.type))
    #expect(types == Set(CoreDataAttributeType.allCases).subtracting([.undefined]))
    let stored = sample.attributes.filter(\.isStored).map(\.name)
    #expect(
      stored == [
        "binary", "boolean", "date", "decimal", "double", "float", "int16", "int32", "int64", "string", "transformable",
        "uri", "uuid", "shout",
      ])
    #expect(sample.attribute("boolean")?.isOptional == false && sample.attribute("binary")?.isOptional == true)
    #expect(sample.attribute("int64")?.isIndexed == true)
  }

  @Test func aLoneContentsFileAndOneToOne() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Playlists/contents"))
    let folder = try CoreDataModel(contentsOf: CoreDataFixtures.url("Playlists"))
    #expect(model == folder)
    let songs = try #require(model.entity("Playlist")?.relationship("songs"))
    #expect(songs.isOrdered && model.cardinality(of: songs) == .manyToMany)
    #expect(model.cardinality(of: try #require(model.entity("Playlist")?.relationship("cover"))) == .oneToOne)
    #expect(model.cardinality(of: try #require(model.entity("Song")?.relationship("sample"))) == .toOne)
  }

  // MARK: errors name the file, the line and the element

  /// The detailed model error beneath the SiftError (stage `.model`, id `invalid-model`).
  func error(_ xml: String) -> CoreDataModelError? {
    do {
      _ = try CoreDataModel(xml: xml, file: "Test.xcdatamodel/contents")
      return nil
    } catch {
      #expect(error.stage == .model && error.id == "invalid-model")
      return error.underlying as? CoreDataModelError
    }
  }

  @Test func unknownAttributeTypeIsNamed() throws {
    let e = try #require(
      error(
        """
        <model>
          <entity name="A">
            <attribute name="n" attributeType="Integer 128"/>
          </entity>
        </model>
        """))
    #expect(e.file == "Test.xcdatamodel/contents" && e.line == 3 && e.element == "attribute")
    #expect(e.message.contains("'Integer 128'") && e.message.contains("'n'"))
    #expect(
      e.description.hasPrefix(
        "Test.xcdatamodel/contents:3: <attribute>: attribute 'n' has unknown attributeType 'Integer 128'"))
  }

  @Test func malformedXMLHasALine() throws {
    let e = try #require(
      error("<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity>\n</model>"))
    #expect(e.message.hasPrefix("malformed XML"))
    #expect((e.line ?? 0) >= 3)
  }

  @Test func unknownElementsAndBadNames() throws {
    let widget = try #require(error("<model>\n  <entity name=\"A\">\n    <widget/>\n  </entity>\n</model>"))
    #expect(widget.line == 3 && widget.element == "widget" && widget.message.contains("unknown element <widget>"))
    let parent = try #require(error("<model>\n<entity name=\"B\" parentEntity=\"Nope\"/>\n</model>"))
    #expect(parent.line == 2 && parent.element == "entity" && parent.message.contains("'Nope'"))
    let dest = try #require(
      error(#"<model><entity name="A"><relationship name="r" destinationEntity="Z"/></entity></model>"#))
    #expect(dest.element == "relationship" && dest.message.contains("unknown destinationEntity 'Z'"))
    let inverse = try #require(
      error(
        #"""
        <model><entity name="A"><relationship name="r" destinationEntity="A" inverseName="back"/></entity></model>
        """#))
    #expect(inverse.message.contains("inverse 'back'"))
    let undefined = try #require(
      error(#"<model><entity name="A"><attribute name="u" attributeType="Undefined"/></entity></model>"#))
    #expect(undefined.message.contains("only a transient attribute"))
    let root = try #require(error("<plist/>"))
    #expect(root.element == "plist" && root.message.contains("not a Core Data model"))
    let cycle = try #require(
      error(#"<model><entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/></model>"#))
    #expect(cycle.message.contains("inherits from itself"))
    let flag = try #require(error(#"<model><entity name="A" isAbstract="MAYBE"/></model>"#))
    #expect(flag.message.contains("isAbstract=\"MAYBE\""))
    let missing = try #require(error(#"<model><entity name="A"><attribute name="a"/></entity></model>"#))
    #expect(missing.message.contains("attributeType"))
    let fetch = try #require(error(#"<model><entity name="A"/><fetchRequest name="f" entity="Q"/></model>"#))
    #expect(fetch.element == "fetchRequest" && fetch.message.contains("'Q'"))
  }

  @Test func bundleVersionChoice() throws {
    let dir = try CoreDataFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = #"<model><entity name="A"/></model>"#
    let bundle = dir.appendingPathComponent("M.xcdatamodeld")
    try CoreDataFixtures.write(model, to: bundle.appendingPathComponent("M.xcdatamodel/contents"))
    #expect(try CoreDataModel(contentsOf: bundle).versionName == "M.xcdatamodel")  // the only version

    try CoreDataFixtures.write(
      #"<model><entity name="B"/></model>"#, to: bundle.appendingPathComponent("M 2.xcdatamodel/contents"))
    expectSiftError(id: "invalid-model", stage: .model) { try CoreDataModel(contentsOf: bundle) }
    do { _ = try CoreDataModel(contentsOf: bundle) } catch {
      #expect(
        error.message.contains("2 model versions") && (error.underlying as? CoreDataModelError)?.file == bundle.path)
    }

    let plist = bundle.appendingPathComponent(".xccurrentversion")
    try CoreDataFixtures.write(
      #"""
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>M 3.xcdatamodel</string></dict></plist>
      """#, to: plist)
    do {
      _ = try CoreDataModel(contentsOf: bundle)
      Issue.record("a missing current version loaded")
    } catch {
      #expect(
        (error.underlying as? CoreDataModelError)?.file == plist.path && error.message.contains("'M 3.xcdatamodel'"))
    }
    try CoreDataFixtures.write(
      #"""
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string></dict></plist>
      """#, to: plist)
    #expect(try CoreDataModel(contentsOf: bundle).entities.map(\.name) == ["B"])

    let old = dir.appendingPathComponent("Old.xcdatamodel")
    try CoreDataFixtures.write("bplist00", to: old.appendingPathComponent("elements"))
    do {
      _ = try CoreDataModel(contentsOf: old)
      Issue.record("an old binary model loaded")
    } catch {
      #expect(error.message.contains("old binary model"))
    }
    expectSiftError(id: "invalid-model", stage: .model) {
      try CoreDataModel(contentsOf: dir.appendingPathComponent("none"))
    }
  }
}
