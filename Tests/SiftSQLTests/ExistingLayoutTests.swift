import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Layout `.existing` and row filters, compiled: nothing Sift-only, the never-nil to-many
/// rule (decision 10), `SQLRowFilter` in the schema, its JSON and its SQL.
@Suite("Existing layout and row filters")
struct ExistingLayoutTests {
  static func schema(_ layout: SQLStorageLayout) throws -> SQLSchema {
    let venue = SQLEntity(
      name: "Venue", table: "venue",
      attributes: [
        SQLAttribute(name: "name", type: .string),
        SQLAttribute(name: "tags", type: .stringArray, arrayStorage: layout == .existing ? .sideTable : nil),
      ],
      relationships: [
        SQLRelationship(name: "menu", target: "Item", kind: .toMany(inverseForeignKey: "venue_id")),
        SQLRelationship(
          name: "staff", target: "Person",
          kind: .manyToMany(joinTable: "venue_person", sourceColumn: "venue_id", targetColumn: "person_id")),
      ])
    let item = SQLEntity(name: "Item", attributes: [SQLAttribute(name: "price", type: .double)])
    let person = SQLEntity(name: "Person", attributes: [SQLAttribute(name: "name", type: .string)])
    return try SQLSchema(entities: [venue, item, person], layout: layout)
  }

  static let formats = [
    "menu.@count > 1", "menu == nil", "menu != nil", "staff.@count == 0", "staff == nil", "NOT (staff != nil)",
    "menu[SIZE] == 2", "menu.@sum.price > 3", "ANY menu.@unionOfObjects.price == 3", "tags.@count == 1", "tags == nil",
    "tags[FIRST] == 'a'", "ANY staff.name == 'x'", "SUBQUERY(menu, $m, $m.price > 1).@count > 0",
  ]

  @Test func nothingSiftOnlyAndToManyNeverNil() throws {
    let existing = SQLCompiler(dialect: SQLiteDialect(), schema: try Self.schema(.existing))
    let sift = SQLCompiler(dialect: SQLiteDialect(), schema: try Self.schema(.sift))
    for format in Self.formats {
      let p = try SiftPredicate(format: format)
      let e = try existing.compileWhere(p, entity: "Venue")
      #expect(!e.sql.contains("__sift"), "\(format): \(e.sql)")
      let s = try sift.compileWhere(p, entity: "Venue")
      if format.contains("nil") || format.contains("@count") && !format.contains("SUBQUERY") {
        #expect(s.sql.contains("__sift_count_"), "\(format): layout .sift reads the stored count: \(s.sql)")
      }
    }
    func sql(_ f: String) throws -> String {
      try existing.compileWhere(try SiftPredicate(format: f), entity: "Venue").sql
    }
    #expect(try sql("menu == nil") == "1 = 0")
    #expect(try sql("menu != nil") == "1 = 1")
    #expect(try sql("staff == nil") == "1 = 0")
    #expect(try sql("NOT (staff != nil)") == "1 = 0")
    #expect(try sql("tags == nil") == "1 = 0")
    #expect(try sql("menu.@count > 1") == "(SELECT COUNT(*) FROM \"item\" t1 WHERE t1.\"venue_id\" = t0.\"id\") > ?")
    #expect(try sql("menu[SIZE] == 2") == "(SELECT COUNT(*) FROM \"item\" t1 WHERE t1.\"venue_id\" = t0.\"id\") = ?")
    #expect(try sql("staff.@count == 0").hasPrefix("(SELECT COUNT(*) FROM \"venue_person\" j1 JOIN \"person\" t2"))
  }

  /// Against a database laid out by hand: nil and empty to-manys both count 0.
  @Test func answersOnAHandMadeDatabase() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE venue (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE item (id INTEGER PRIMARY KEY, venue_id INTEGER, price REAL);
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE venue_person (venue_id INTEGER, person_id INTEGER);
      CREATE TABLE venue__tags (owner INTEGER, position INTEGER, value TEXT);
      INSERT INTO venue VALUES (1, 'a'), (2, 'b'), (3, 'c');
      INSERT INTO item VALUES (1, 1, 2.5), (2, 1, 1.0), (3, 2, 4.0);
      INSERT INTO person VALUES (1, 'x'), (2, 'y');
      INSERT INTO venue_person VALUES (1, 1), (2, 1), (2, 2);
      INSERT INTO venue__tags VALUES (1, 0, 'a');
      """)
    let c = SQLCompiler(dialect: SQLiteDialect(), schema: try Self.schema(.existing))
    func ids(_ f: String) throws -> [Int64] {
      let w = try c.compileWhere(try SiftPredicate(format: f), entity: "Venue")
      return try db.execute(
        SQLStatement(sql: "SELECT t0.id FROM venue t0 WHERE \(w.sql) ORDER BY 1", bindings: w.bindings)
      )
      .compactMap { $0.first?.intValue }
    }
    #expect(try ids("menu.@count == 0") == [3])
    #expect(try ids("menu != nil") == [1, 2, 3])
    #expect(try ids("menu.@sum.price > 3") == [1, 2])
    #expect(try ids("menu.@sum.price == 0") == [3])
    #expect(try ids("staff.@count == 2") == [2])
    #expect(try ids("ANY staff.name == 'x'") == [1, 2])
    #expect(try ids("tags.@count == 0") == [2, 3])
    #expect(try ids("tags[FIRST] == 'a'") == [1])
    let indices = expectSiftError(id: "no-record-positions", stage: .sql) {
      try c.compileMatchingIndices(try SiftPredicate(format: "TRUEPREDICATE"), entity: "Venue")
    }
    #expect(indices?.diagnostic.id == "no-record-positions")
  }

  static func hierarchy(
    _ layout: SQLStorageLayout = .existing, novelFilter: SQLRowFilter? = SQLRowFilter(column: "Z_ENT", values: [5])
  ) throws -> SQLSchema {
    let book = SQLEntity(
      name: "Book", table: "ZITEM", primaryKey: "Z_PK",
      attributes: [SQLAttribute(name: "title", column: "ZTITLE", type: .string)],
      relationships: [SQLRelationship(name: "notes", target: "Note", kind: .toMany(inverseForeignKey: "ZITEM"))])
    let novel = SQLEntity(
      name: "Novel", table: "ZITEM", primaryKey: "Z_PK",
      attributes: [SQLAttribute(name: "title", column: "ZTITLE", type: .string)],
      relationships: [SQLRelationship(name: "notes", target: "Note", kind: .toMany(inverseForeignKey: "ZITEM"))],
      rowFilter: novelFilter)
    let note = SQLEntity(
      name: "Note", table: "ZNOTE", primaryKey: "Z_PK",
      attributes: [SQLAttribute(name: "text", column: "ZTEXT", type: .string)],
      relationships: [SQLRelationship(name: "item", target: "Book", kind: .toOne(foreignKey: "ZITEM"))])
    let shelf = SQLEntity(
      name: "Shelf", table: "ZSHELF", primaryKey: "Z_PK", attributes: [],
      relationships: [SQLRelationship(name: "novels", target: "Novel", kind: .toMany(inverseForeignKey: "ZSHELF"))])
    return try SQLSchema(entities: [book, novel, note, shelf], layout: layout)
  }

  @Test func rowFilters() throws {
    let s = try Self.hierarchy()
    let c = SQLCompiler(dialect: SQLiteDialect(), schema: s)
    let w = try c.compileWhere(try SiftPredicate(format: "title == 'x'"), entity: "Novel")
    #expect(w.sql == "(t0.\"Z_ENT\" IN (?) AND t0.\"ZTITLE\" = ?)" && w.bindings == [.integer(5), .text("x")])
    #expect(try c.compileWhere(try SiftPredicate(format: "title == 'x'"), entity: "Book").sql == "t0.\"ZTITLE\" = ?")
    let shelf = try c.compileWhere(try SiftPredicate(format: "novels.@count > 0"), entity: "Shelf")
    #expect(shelf.sql.contains("t1.\"ZSHELF\" = t0.\"Z_PK\" AND t1.\"Z_ENT\" IN (?)"), "\(shelf.sql)")
    let all = try c.compile(SiftFetchRequest(entity: "Novel", resultType: .count))
    #expect(all.sql == "SELECT COUNT(*) FROM \"ZITEM\" t0 WHERE t0.\"Z_ENT\" IN (?)")
    // Batch writes without a predicate touch the entity's rows only, not the whole shared table.
    // A Core Data store's rows others point at are Core Data's to delete (BatchRunTests).
    let delete = try #require(throws: SiftError.self) { try c.compile(BatchDeleteRequest(entity: "Novel")) }
    #expect(delete.diagnostic.message.contains("Novel.notes points at its rows"), "\(delete.diagnostic.message)")
    let update = try c.compile(BatchUpdateRequest(entity: "Novel", assignments: [("title", .value(.string("t")))]))
    #expect(
      update.sql
        == "UPDATE \"ZITEM\" AS t0 SET \"ZTITLE\" = ?, \"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1 WHERE t0.\"Z_ENT\" IN (?)",
      "\(update.sql)")
    let notes = try c.compile(BatchDeleteRequest(entity: "Note", predicate: try SiftPredicate(format: "text == 'x'")))
    #expect(notes.map(\.sql) == ["DELETE FROM \"ZNOTE\" AS t0 WHERE t0.\"ZTEXT\" = ?"], "\(notes.map(\.sql))")
    // JSON: read, written, read back.
    let again = try SQLSchema(json: s.jsonText)
    #expect(again.entity("Novel")?.rowFilter == SQLRowFilter(column: "Z_ENT", values: [5]))
    #expect(s.jsonText.contains("\"entityColumn\": \"Z_ENT\""))
    let merged = try s.merging(json: #"{"entities": {"Book": {"entityColumn": "Z_ENT", "entityValues": [3, 4, 5]}}}"#)
    #expect(merged.entity("Book")?.rowFilter?.values == [3, 4, 5])
  }

  /// A page of rows without a key of their own cannot be re-selected by key: refused, not
  /// answered over every row sharing the page's first-column values.
  @Test func pagedAggregateNeedsASingleColumnKey() throws {
    let s = try SQLSchema(
      json:
        #"{"layout": "existing", "entities": {"Line": {"table": "line", "primaryKey": ["order_id", "n"], "attributes": {"order_id": "integer", "n": "integer", "price": "double"}}}}"#
    )
    let c = SQLCompiler(dialect: SQLiteDialect(), schema: s)
    let sum = try SiftExpression(format: "sum:(price)")
    let refused = expectSiftError(id: "no-single-column-key", stage: .sql, at: 0) {
      try c.compile(sum, over: SiftFetchRequest(entity: "Line", limit: 2))
    }
    #expect(refused?.diagnostic.id == "no-single-column-key", "\(String(describing: refused))")
    #expect(try c.compile(sum, over: SiftFetchRequest(entity: "Line")).sql.contains("FROM \"line\" t0"))
  }

  @Test func rowFilterRules() throws {
    // Only for databases Sift did not create; never empty; without filters two entities of
    // one table may not both claim the inverse key.
    expectSiftError(id: "invalid-schema", stage: .sql) { try Self.hierarchy(.sift) }
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try Self.hierarchy(novelFilter: SQLRowFilter(column: "Z_ENT", values: []))
    }
    expectSiftError(id: "invalid-schema", stage: .sql) { try Self.hierarchy(novelFilter: nil) }
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(json: #"{"layout": "existing", "entities": {"A": {"entityColumn": "k", "attributes": {}}}}"#)
    }
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(json: #"{"layout": "existing", "entities": {"A": {"entityValues": [1], "attributes": {}}}}"#)
    }
  }
}

extension ExistingLayoutTests {
  /// A batch update (an explicit write) stores a date in each column's own form, so the
  /// column keeps one encoding and the same predicates find the row.
  @Test func batchUpdateWritesEachColumnsForm() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(SQLFixtures.text("existing/events.sqlite.sql"))
    let c = SQLCompiler(dialect: SQLiteDialect(), schema: try ExistingEvents.schema(postgres: false))
    let d = Date(timeIntervalSince1970: 1_710_000_000.5)
    let columns = ["at_unix", "at_unix_int", "at_2001", "at_ms", "at_iso", "at_sqlite", "on_day"]
    let update = try c.compile(
      BatchUpdateRequest(
        entity: "event", predicate: try SiftPredicate(format: "id == 3"),
        assignments: columns.map { ($0, SQLUpdateValue.value(.date(d))) }))
    _ = try db.execute(update)
    let row = try db.execute(
      SQLStatement(sql: "SELECT " + columns.joined(separator: ", ") + " FROM event WHERE id = 3")
    ).first
    #expect(
      row == [
        // An INTEGER column keeps a fraction as SQLite does (REAL in an INTEGER column), as memory would.
        .double(1_710_000_000.5), .double(1_710_000_000.5), .double(1_710_000_000.5 - 978_307_200),
        .integer(1_710_000_000_500),
        .text("2024-03-09T16:00:00.500Z"), .text("2024-03-09 16:00:00.500"), .text("2024-03-09"),
      ])
    for column in ["at_unix", "at_2001", "at_ms", "at_iso", "at_sqlite"] {
      let w = try c.compileWhere(try SiftPredicate(format: "\(column) == %@", arguments: [.date(d)]), entity: "event")
      let ids = try db.execute(SQLStatement(sql: "SELECT id FROM event t0 WHERE \(w.sql)", bindings: w.bindings))
      #expect(ids == [[.integer(3)]], "\(column)")
    }
    expectSiftError(id: "unsupported-in-sql", stage: .sql, at: 0) {
      try c.compile(
        BatchUpdateRequest(
          entity: "event", assignments: [("at_iso", .expression(.keyPath("at_unix"), source: "at_unix"))]))
    }
  }
}
