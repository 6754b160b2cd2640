import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// The model mapped onto the hand-written stores (Tests/Fixtures/coredata/*.sql) and queried
/// with `SQLCompiler` through the mapping's plain schema on a read-only connection.
@Suite("Core Data store layout as an SQLSchema")
struct StoreMappingTests {
  func library() throws -> (CoreDataModel, StoreFixture) {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    return (model, try StoreFixture(model: model, script: "Library.sql"))
  }

  static func date(_ iso: String) -> SiftValue {
    SiftValue(ISO8601DateFormatter().date(from: iso)!)
  }

  @Test func storeNumbersMatchTheModelsOrder() throws {
    let (model, store) = try library()
    #expect(try StoreFixture.entityNumbers(store.db) == model.entityNumbers())
  }

  @Test func mappingShape() throws {
    let (model, store) = try library()
    let m = store.mapping
    #expect(m.schema.dateEncoding == .referenceDateSeconds)
    #expect(model.storeTable(of: "Novel") == "ZITEM")
    #expect(m.storeTables["Note"] == "ZNOTE")
    #expect(
      m.entityFilters["Item"] == [2, 3, 4, 5] && m.entityFilters["Book"] == [3, 4, 5] && m.entityFilters["Novel"] == [5]
    )
    #expect(
      m.columns["Novel"] == [
        "createdAt": "ZCREATEDAT", "title": "ZTITLE", "inPrint": "ZINPRINT", "pages": "ZPAGES",
        "publisher": "ZPUBLISHER", "genre": "ZGENRE",
      ])
    let novel = try #require(m.schema.entity("Novel"))
    #expect(novel.table == "ZITEM" && novel.primaryKey == "Z_PK")
    #expect(novel.rowFilter == SQLRowFilter(column: "Z_ENT", values: [5]))
    #expect(m.schema.entity("Item")?.rowFilter == nil && m.schema.layout == .existing)
    #expect(novel.attribute("createdAt")?.dateEncoding == .referenceDateSeconds)
    #expect(novel.attributes.map(\.name) == ["Z_PK", "createdAt", "title", "inPrint", "pages", "genre"])
    #expect(novel.attribute("inPrint")?.type == .boolean && novel.attribute("createdAt")?.type == .date)
    #expect(m.schema.entity("Tag")?.attribute("itemCount")?.column == "ZITEMCOUNT")  // derived: Core Data's column
    #expect(
      m.schema.entity("Item")?.relationship("tags")?.kind
        == .manyToMany(joinTable: "Z_2TAGS", sourceColumn: "Z_2ITEMS", targetColumn: "Z_8TAGS"))
    #expect(
      m.schema.entity("Tag")?.relationship("items")?.kind
        == .manyToMany(joinTable: "Z_2TAGS", sourceColumn: "Z_8TAGS", targetColumn: "Z_2ITEMS"))
    #expect(
      m.schema.entity("Novel")?.relationship("authors")?.kind
        == .manyToMany(joinTable: "Z_1BOOKS", sourceColumn: "Z_3BOOKS", targetColumn: "Z_1AUTHORS"))
    #expect(m.schema.entity("Publisher")?.relationship("books")?.kind == .toMany(inverseForeignKey: "ZPUBLISHER"))
    #expect(m.schema.entity("Item")?.relationship("notes")?.kind == .toMany(inverseForeignKey: "ZITEM"))
    #expect(m.schema.entity("Book")?.relationship("notes")?.kind == .toMany(inverseForeignKey: "ZITEM"))
    #expect(m.unmapped.isEmpty)
  }

  @Test func subEntityFetchesSeeOnlyTheirRows() throws {
    let (_, s) = try library()
    #expect(try s.keys("Item", "TRUEPREDICATE") == [1, 2, 3, 4, 5])
    #expect(try s.keys("Book", "TRUEPREDICATE") == [1, 2, 3, 4, 5])
    #expect(try s.keys("Novel", "TRUEPREDICATE") == [2, 3])
    #expect(try s.keys("Comic", "TRUEPREDICATE") == [4])
    #expect(try s.keys("Novel", "genre ==[c] 'fantasy'") == [2, 3])
    #expect(try s.keys("Book", "pages > 250") == [1, 2])
    #expect(try s.keys("Comic", "illustrator BEGINSWITH 'Sam'") == [4])
  }

  @Test func booleansDatesAndNil() throws {
    let (_, s) = try library()
    #expect(try s.keys("Book", "inPrint == YES") == [1, 2, 4])
    #expect(try s.keys("Book", "inPrint == NO") == [3])
    #expect(try s.keys("Book", "inPrint == nil") == [5])
    #expect(try s.keys("Item", "createdAt < %@", Self.date("2001-01-01T00:00:00Z")) == [3])
    #expect(try s.keys("Item", "createdAt > %@", Self.date("2024-01-01T00:00:00Z")) == [2, 4])
    #expect(try s.keys("Item", "createdAt == %@", Self.date("2024-03-01T10:00:00Z")) == [2])
    #expect(try s.keys("Item", "createdAt == nil") == [5])
    #expect(try s.keys("Author", "born < %@", Self.date("1950-01-01T00:00:00Z")) == [1])
  }

  @Test func relationships() throws {
    let (_, s) = try library()
    // many-to-many
    #expect(try s.keys("Item", "ANY tags.name == 'fantasy'") == [2, 3, 4])
    #expect(try s.keys("Item", "tags.@count == 0") == [1, 5])
    #expect(try s.keys("Novel", "tags.@count == 2") == [3])
    #expect(try s.keys("Tag", "items.@count == 0") == [3])
    #expect(try s.keys("Tag", "ANY items.title == 'The Sandman'") == [1])
    // ordered many-to-many
    #expect(try s.keys("Book", "ANY authors.name BEGINSWITH 'Neil'") == [2, 4])
    #expect(try s.keys("Book", "authors.@count == 0") == [1, 5])
    #expect(try s.keys("Book", "SUBQUERY(authors, $a, $a.name CONTAINS 'Terry').@count > 0") == [2, 3])
    #expect(try s.keys("Author", "ANY books.title == 'Good Omens'") == [1, 2])
    #expect(try s.keys("Author", "books.@count == 0") == [3])
    // to-one and its ordered to-many inverse
    #expect(try s.keys("Book", "publisher.name == 'Gollancz'") == [1, 2, 3])
    #expect(try s.keys("Novel", "publisher == nil") == [])
    #expect(try s.keys("Book", "publisher == nil") == [4, 5])
    #expect(try s.keys("Publisher", "books.@count == 0") == [2])
    #expect(try s.keys("Publisher", "ANY books.title == 'Mort'") == [1])
    #expect(try s.keys("Publisher", "books.@sum.pages == 831") == [1])
    // one-to-many declared on the abstract root, used from sub-entities
    #expect(try s.keys("Item", "notes.@count > 0") == [1, 3])
    #expect(try s.keys("Book", "ANY notes.text CONTAINS 'edition'") == [3])
    #expect(try s.keys("Novel", "notes.@count == 2") == [3])
    #expect(try s.keys("Comic", "notes.@count == 0") == [4])
    #expect(try s.keys("Note", "item.title == 'Mort'") == [1, 2])
    #expect(try s.keys("Note", "item == nil") == [3])
  }

  @Test func fetchRequestTemplatesWithVariables() throws {
    let (model, s) = try library()
    func run(_ name: String, _ variables: [String: SiftValue]) throws -> [Int64] {
      let template = try #require(model.fetchRequest(name))
      let predicate = try SiftPredicate.parse(template.predicateString ?? "TRUEPREDICATE").substituting(variables)
      return try s.keys(template.entity, predicate)
    }
    #expect(try run("BooksByAuthor", ["AUTHOR": "Neil Gaiman"]) == [2, 4])
    #expect(try run("LongNovels", ["MIN_PAGES": 250]) == [2])
    #expect(try run("RecentItems", ["SINCE": Self.date("2024-01-01T00:00:00Z")]) == [2, 4])
    #expect(try run("AllTags", [:]) == [1, 2, 3])
  }

  @Test func playlistsStore() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Playlists"))
    let s = try StoreFixture(model: model, script: "Playlists.sql")
    #expect(try StoreFixture.entityNumbers(s.db) == model.entityNumbers())
    #expect(
      s.mapping.schema.entity("Playlist")?.relationship("songs")?.kind
        == .manyToMany(joinTable: "Z_2SONGS", sourceColumn: "Z_2PLAYLISTS", targetColumn: "Z_3SONGS"))
    #expect(try s.keys("Playlist", "ANY songs.title == 'Drive'") == [1, 2])
    #expect(try s.keys("Playlist", "songs.@count == 0") == [3])
    #expect(try s.keys("Playlist", "songs.@sum.seconds > 390") == [1, 2])
    #expect(try s.keys("Playlist", "cover != nil") == [1])
    #expect(try s.keys("Artwork", "playlist.name == 'Road Trip'") == [1])
    #expect(try s.keys("Song", "sample.title == 'Drive'") == [2])
    #expect(try s.keys("Song", "playlists.@count == 0") == [4])
    #expect(try s.keys("Song", "seconds > 200") == [1, 3])
  }

  @Test func duplicateColumnNamesGetNumbered() throws {
    let model = try CoreDataModel(
      xml: """
        <model>
          <entity name="Root" isAbstract="YES"><attribute name="timestamp" attributeType="Date"/><attribute name="timeStamp" attributeType="Date"/></entity>
          <entity name="A" parentEntity="Root"><attribute name="title" attributeType="String"/></entity>
          <entity name="B" parentEntity="Root"><attribute name="title" attributeType="Integer 16"/></entity>
        </model>
        """)
    let columns = model.columnNames()
    #expect(columns["Root"] == ["timeStamp": "ZTIMESTAMP", "timestamp": "ZTIMESTAMP1"])
    #expect(columns["A"]?["title"] == "ZTITLE" && columns["B"]?["title"] == "ZTITLE1")
    #expect(columns["B"]?["timestamp"] == "ZTIMESTAMP1")
    let schema = try model.sqlSchema()
    #expect(schema.entity("B")?.attribute("title")?.column == "ZTITLE1")
  }

  @Test func toManyWithoutInverseIsReported() throws {
    let model = try CoreDataModel(
      xml: """
        <model>
          <entity name="A"><relationship name="bs" toMany="YES" destinationEntity="B"/></entity>
          <entity name="B"/>
        </model>
        """)
    let m = try model.sqlMapping()
    #expect(m.schema.entity("A")?.relationship("bs") == nil)
    #expect(
      m.unmapped == [
        "A.bs: a to-many relationship without an inverse; left out (Core Data's storage for it is not described publicly: "
          + "give it an inverse in the model, or describe it in a schema file)"
      ])
    expectSiftError(id: "invalid-model", stage: .model) { try model.sqlMapping(entityNumbers: ["A": 1]) }
  }
}

extension StoreMappingTests {
  /// The shape of a real store's reflexive many-to-many (larromba/EasyLife, notes section 3):
  /// TodoItem.blockedBy <-> TodoItem.blocking is stored in Z_2BLOCKING(Z_2BLOCKEDBY, Z_2BLOCKING).
  @Test func reflexiveManyToManyIsNamedAfterTheLaterName() throws {
    let model = try CoreDataModel(
      xml: """
        <model>
          <entity name="Project"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="todoItem" optional="YES" toMany="YES" destinationEntity="TodoItem" inverseName="project" inverseEntity="TodoItem"/></entity>
          <entity name="TodoItem"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="blockedBy" optional="YES" toMany="YES" destinationEntity="TodoItem" inverseName="blocking" inverseEntity="TodoItem"/>
            <relationship name="blocking" optional="YES" toMany="YES" destinationEntity="TodoItem" inverseName="blockedBy" inverseEntity="TodoItem"/>
            <relationship name="project" optional="YES" maxCount="1" destinationEntity="Project" inverseName="todoItem" inverseEntity="Project"/></entity>
        </model>
        """)
    #expect(model.entityNumbers() == ["Project": 1, "TodoItem": 2])
    let m = try model.sqlMapping()
    let item = try #require(m.schema.entity("TodoItem"))
    #expect(
      item.relationship("blocking")?.kind
        == .manyToMany(joinTable: "Z_2BLOCKING", sourceColumn: "Z_2BLOCKEDBY", targetColumn: "Z_2BLOCKING"))
    #expect(
      item.relationship("blockedBy")?.kind
        == .manyToMany(joinTable: "Z_2BLOCKING", sourceColumn: "Z_2BLOCKING", targetColumn: "Z_2BLOCKEDBY"))
    #expect(item.relationship("project")?.kind == .toOne(foreignKey: "ZPROJECT"))
    #expect(m.schema.entity("Project")?.relationship("todoItem")?.kind == .toMany(inverseForeignKey: "ZPROJECT"))
  }
}

extension StoreMappingTests {
  /// The store's own tables, no view and nothing Sift-only: a sub-entity's WHERE starts with
  /// its bound `Z_ENT` filter, a to-many into a sub-entity filters its rows too, `@count` is a
  /// COUNT subquery, dates bind as seconds since 2001.
  @Test func plainSQLOnTheStoresTables() throws {
    let (_, s) = try library()
    let novel = try s.compiler.compileWhere(try SiftPredicate(format: "notes.@count == 2"), entity: "Novel")
    #expect(novel.sql.hasPrefix("(t0.\"Z_ENT\" IN (?) AND "), "\(novel.sql)")
    #expect(novel.sql.contains("(SELECT COUNT(*) FROM \"ZNOTE\" t1 WHERE t1.\"ZITEM\" = t0.\"Z_PK\")"), "\(novel.sql)")
    #expect(novel.bindings == [.integer(5), .integer(2)])
    let books = try s.compiler.compileWhere(try SiftPredicate(format: "ANY books.pages > 300"), entity: "Publisher")
    #expect(books.sql.contains("t1.\"Z_ENT\" IN (?, ?, ?)"), "\(books.sql)")
    let when = try s.compiler.compileWhere(
      try SiftPredicate(format: "createdAt > %@", Self.date("2001-01-01T00:01:40Z")), entity: "Item")
    #expect(when.sql == "t0.\"ZCREATEDAT\" > ?" && when.bindings == [.double(100)])
    for (entity, format) in [
      ("Item", "tags == nil"), ("Book", "authors != nil AND notes.@count > 0"), ("Tag", "items.@count == 0"),
    ] {
      let st = try s.compiler.compileWhere(try SiftPredicate(format: format), entity: entity)
      #expect(!st.sql.contains("__sift") && !st.sql.contains("sift_cd"), "\(format): \(st.sql)")
    }
    #expect(try s.keys("Item", "tags == nil") == [])
    #expect(try s.keys("Item", "tags != nil") == [1, 2, 3, 4, 5])
  }
}
