import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// `CoreDataStore`: a store opened with its model, and without one (entities from
/// `Z_PRIMARYKEY`, keys from column names, relationships from foreign-key columns and join
/// tables); fetch request templates by name.
@Suite("Core Data stores opened by the library")
struct StoreReadingTests {
  static let libraryModel = Result { try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld")) }

  @Test func withoutAModelEntitiesComeFromZPrimaryKey() throws {
    let s = try OpenedStore(script: "Library.sql")
    #expect(s.store.isModelInferred)
    #expect(
      s.store.entityRecords.map(\.name) == ["Author", "Item", "Book", "Comic", "Novel", "Note", "Publisher", "Tag"])
    #expect(s.store.model.entity("Novel")?.parentName == "Book" && s.store.model.entity("Book")?.parentName == "Item")
    let novel = try #require(s.store.schema.entity("Novel"))
    #expect(novel.table == "ZITEM" && novel.rowFilter == SQLRowFilter(column: "Z_ENT", values: [5]))
    #expect(s.store.schema.entity("Book")?.rowFilter == SQLRowFilter(column: "Z_ENT", values: [3, 4, 5]))
    // Every column of the hierarchy's table, keyed without Z, lower-cased, in the table's order.
    #expect(novel.attributes.map(\.name) == ["Z_PK", "inprint", "pages", "createdat", "title", "genre", "illustrator"])
    #expect(
      novel.attribute("createdat")?.type == .date && novel.attribute("createdat")?.dateEncoding == .referenceDateSeconds
    )
    #expect(novel.attribute("inprint")?.type == .integer)  // a boolean is an INTEGER column: 0/1
    #expect(novel.relationship("publisher")?.kind == .toOne(foreignKey: "ZPUBLISHER"))
    #expect(s.store.schema.entity("Note")?.relationship("item")?.kind == .toOne(foreignKey: "ZITEM"))
    #expect(
      s.store.schema.entity("Item")?.relationship("tags")?.kind
        == .manyToMany(joinTable: "Z_2TAGS", sourceColumn: "Z_2ITEMS", targetColumn: "Z_8TAGS"))
    #expect(
      s.store.schema.entity("Author")?.relationship("books")?.kind
        == .manyToMany(joinTable: "Z_1BOOKS", sourceColumn: "Z_1AUTHORS", targetColumn: "Z_3BOOKS"))
    #expect(s.store.model.entity("Book")?.relationship("authors")?.isOrdered == true)
    #expect(s.store.model.entity("Author")?.relationship("books")?.isOrdered == false)
    // Not in the store: the to-many side of a foreign key (Publisher.books, Item.notes).
    #expect(s.store.schema.entity("Publisher")?.relationships.isEmpty == true)
    #expect(s.store.warnings.contains { $0.contains("no model given") })
  }

  /// The same questions, asked with the model's keys and with the store's lower-cased keys,
  /// select the same objects.
  @Test func inferredKeysAnswerLikeTheModel() throws {
    let model = try Self.libraryModel.get()
    let withModel = try OpenedStore(script: "Library.sql", model: model)
    let without = try OpenedStore(script: "Library.sql")
    #expect(!withModel.store.isModelInferred && withModel.store.warnings.isEmpty)
    let cases: [(String, String, String)] = [
      ("Novel", "genre ==[c] 'fantasy'", "genre ==[c] 'fantasy'"),
      ("Book", "inPrint == YES", "inprint == YES"),
      ("Book", "inPrint == nil", "inprint == nil"),
      ("Item", "createdAt < CAST(0, 'NSDate')", "createdat < CAST(0, 'NSDate')"),
      ("Item", "ANY tags.name == 'fantasy'", "ANY tags.name == 'fantasy'"),
      ("Book", "authors.@count == 2", "authors.@count == 2"),
      ("Author", "ANY books.title == 'Good Omens'", "ANY books.title == 'Good Omens'"),
      ("Book", "publisher.name == 'Gollancz' AND pages > 250", "publisher.name == 'Gollancz' AND pages > 250"),
      ("Note", "item.title == 'Mort'", "item.title == 'Mort'"),
      ("Note", "item == nil", "item == nil"),
      ("Tag", "items.@count == 0", "items.@count == 0"),
      ("Comic", "TRUEPREDICATE", "TRUEPREDICATE"),
    ]
    for (entity, modelFormat, storeFormat) in cases {
      let a = try withModel.keys(entity, modelFormat)
      let b = try without.keys(entity, storeFormat)
      #expect(a == b, "\(entity): \(modelFormat)")
    }
    #expect(try without.keys("Novel", "genre ==[c] 'fantasy'") == [2, 3])
    #expect(try without.keys("Note", "item.title == 'Mort'") == [1, 2])
  }

  @Test func playlistsWithoutAModel() throws {
    let s = try OpenedStore(script: "Playlists.sql")
    let schema = s.store.schema
    // ZPLAYLIST is named after an entity; ZCOVER and ZSAMPLE are not and have no foreign-key
    // index: plain integers.
    #expect(schema.entity("Artwork")?.relationship("playlist")?.kind == .toOne(foreignKey: "ZPLAYLIST"))
    #expect(schema.entity("Playlist")?.attribute("cover")?.type == .integer)
    #expect(schema.entity("Song")?.attribute("seconds")?.type == .double)
    #expect(schema.entity("Artwork")?.attribute("png")?.type == .data)
    #expect(
      schema.entity("Playlist")?.relationship("songs")?.kind
        == .manyToMany(joinTable: "Z_2SONGS", sourceColumn: "Z_2PLAYLISTS", targetColumn: "Z_3SONGS"))
    #expect(s.store.model.entity("Playlist")?.relationship("songs")?.isOrdered == true)
    #expect(try s.keys("Playlist", "ANY songs.title == 'Drive'") == [1, 2])
    #expect(try s.keys("Song", "playlists.@count == 0") == [4])
    #expect(try s.keys("Artwork", "playlist.name == 'Road Trip'") == [1])
  }

  @Test func aModelOfAnotherVersionIsNamedInTheError() throws {
    let old = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld/Library.xcdatamodel"))
    #expect {
      _ = try OpenedStore(script: "Library.sql", model: old)
    } throws: { error in
      let text = "\(error)"
      return text.contains("Library.sql store does not match the model")
        && text.contains("no table ZBOOK for entity Book")
        && text.contains("model version")
    }
    let other = try CoreDataModel(xml: "<model><entity name=\"Gadget\"/></model>", file: "Gadgets.xcdatamodel")
    #expect {
      _ = try OpenedStore(script: "Library.sql", model: other)
    } throws: { "\($0)".contains("has no entity 'Gadget' in Z_PRIMARYKEY (model Gadgets.xcdatamodel)") }
  }

  @Test func storeEntitiesTheModelLacksAreNamed() throws {
    let part = try CoreDataModel(
      xml: "<model><entity name=\"Publisher\"><attribute name=\"name\" attributeType=\"String\"/></entity></model>")
    let s = try OpenedStore(script: "Library.sql", model: part)
    #expect(s.store.schema.entityNames == ["Publisher"])
    #expect(s.store.warnings.contains("entity Item (Z_ENT 2) is in the store but not in the model; left out"))
    #expect(s.store.warnings.count == 7)
    #expect(try s.keys("Publisher", "name BEGINSWITH 'G'") == [1])
  }

  @Test func aPlainDatabaseIsNotAStore() throws {
    let db = try SQLiteDatabase()
    try db.executeScript("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);")
    #expect(!CoreDataStore.isStore(db))
    #expect { _ = try CoreDataStore(database: db, label: "notes.sqlite") } throws: {
      "\($0)" == "notes.sqlite is not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA tables)"
    }
    expectSiftError(id: "invalid-store", stage: .model) { try CoreDataStore.schema(model: nil, store: nil) }
  }

  @Test func schemaFromAModelURL() throws {
    let schema = try CoreDataStore.schema(model: CoreDataFixtures.url("Library.xcdatamodeld"), store: nil)
    #expect(schema.entity("Novel")?.rowFilter == SQLRowFilter(column: "Z_ENT", values: [5]))
    #expect(schema.entity("Novel")?.attribute("createdAt")?.column == "ZCREATEDAT")
  }

  @Test func fetchRequestTemplatesByName() throws {
    let model = try Self.libraryModel.get()
    let s = try OpenedStore(script: "Library.sql", model: model)
    let byAuthor = try model.fetchRequest(named: "BooksByAuthor", substituting: ["AUTHOR": "Neil Gaiman"])
    #expect(byAuthor.entity == "Book" && byAuthor.predicate?.predicateFormat == "ANY authors.name == \"Neil Gaiman\"")
    #expect(try s.keys(byAuthor) == [2, 4])
    #expect(try s.keys(try model.fetchRequest(named: "LongNovels", substituting: ["MIN_PAGES": 250])) == [2])
    let recent = try model.fetchRequest(
      named: "RecentItems", substituting: ["SINCE": StoreMappingTests.date("2024-01-01T00:00:00Z")])
    #expect(recent.limit == 10)
    #expect(try s.keys(recent) == [2, 4])
    let all = try model.fetchRequest(named: "AllTags")
    #expect(all.predicate == nil)
    #expect(try s.keys(all) == [1, 2, 3])

    func message(_ body: () throws -> SiftFetchRequest) -> String {
      do { _ = try body() } catch { return "\(error)" }
      return "no error"
    }
    #expect(
      message { try model.fetchRequest(named: "Nope") }.hasSuffix(
        "<fetchRequest>: no fetch request template 'Nope' (templates: BooksByAuthor, LongNovels, RecentItems, AllTags)")
    )
    #expect(
      message { try model.fetchRequest(named: "BooksByAuthor") }.hasSuffix(
        ":64: <fetchRequest>: template 'BooksByAuthor': needs $AUTHOR (give NAME=JSON for each)"))
    #expect(
      message { try model.fetchRequest(named: "AllTags", substituting: ["X": 1]) }.hasSuffix(
        "template 'AllTags': has no variable $X (it uses none)"))
  }

  /// The Core Data stores article's library example (SiftCoreData.docc/CoreDataStores.md), as
  /// written there (paths aside).
  @Test func readmeExample() throws {
    let path = try StoreFixture.build("Library.sql")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let modelURL = CoreDataFixtures.url("Library.xcdatamodeld")
    let model = try CoreDataModel(contentsOf: modelURL)  // current version
    let store = try CoreDataStore(database: try SQLiteDatabase(untouched: path), model: model)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
    let request = try model.fetchRequest(named: "BooksByAuthor", substituting: ["AUTHOR": "Neil Gaiman"])
    let rows = try store.database.execute(try compiler.compile(request))  // Z_PK first in each row
    #expect(rows.map { $0.first } == [.integer(2), .integer(4)])
  }
}
