import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@Suite("SQL schema")
struct SchemaTests {
  @Test func venuesSchemaLoads() throws {
    let s = SQLFixtures.schema
    #expect(s.entityNames == ["Location", "MenuItem", "Venue"])
    let venue = try #require(s.entity("Venue"))
    #expect(venue.table == "venue")
    #expect(venue.primaryKey == "id")
    #expect(venue.attribute("tags")?.type == .stringArray)
    #expect(venue.attribute("name")?.indexed == true)
    #expect(venue.relationship("location")?.kind == .toOne(foreignKey: "location_id"))
    #expect(venue.relationship("menu")?.kind == .toMany(inverseForeignKey: "venue_id"))
    #expect(s.entity("Location")?.primaryKeyAttribute.type == .integer)
    #expect(s.dateEncoding == .unixSeconds)
  }

  @Test func defaultsAndManyToMany() throws {
    let s = try SQLSchema(
      json: #"""
        {"dateEncoding": "secondsSince2001", "entities": {
          "Post": {"attributes": {"title": "string", "at": "date"},
                   "relationships": {"author": {"toOne": "Person"}, "tags": {"toMany": "Tag", "joinTable": "post_tag"}}},
          "Person": {"table": "people", "primaryKey": "handle", "attributes": {"handle": "string"}},
          "Tag": {"attributes": {"label": "string"}}}}
        """#)
    let post = try #require(s.entity("Post"))
    #expect(post.table == "post")
    #expect(post.relationship("author")?.kind == .toOne(foreignKey: "author_id"))
    #expect(
      post.relationship("tags")?.kind
        == .manyToMany(joinTable: "post_tag", sourceColumn: "post_id", targetColumn: "tag_id"))
    #expect(s.entity("Person")?.primaryKeyAttribute.type == .string)
    #expect(s.dateEncoding == .referenceDateSeconds)

    // Many-to-many and string keys work end to end, and dates bind with the schema's encoding.
    let db = try SQLiteDatabase()
    let at = Date(timeIntervalSinceReferenceDate: 1000)
    let records: [SiftValue] = [
      ["title": "a", "at": .date(at), "author": ["handle": "ann"], "tags": [["label": "x"], ["label": "y"]]],
      ["title": "b", "author": ["handle": "bob"], "tags": []],
      ["title": "c"],
    ]
    try db.load(records, entity: "Post", schema: s, dialect: SQLiteDialect())
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: s)
    for (format, args, expected) in [
      ("ANY tags.label == 'y'", [SiftValue](), [0]), ("tags.@count == 0", [], [1]),
      ("author.handle BEGINSWITH 'b'", [], [1]),
      ("at == %@", [.date(at)], [0]), ("at > %@", [.date(Date(timeIntervalSinceReferenceDate: 999))], [0]),
      ("tags.@count == nil", [], [2]), ("author == nil", [], [2]),
    ] {
      let p = try SiftPredicate(format: format, arguments: args)
      #expect(try db.matchingIndices(of: p, entity: "Post", compiler: compiler) == expected, "\(format)")
      #expect(try p.compile().matchingIndices(records) == expected, "memory: \(format)")
    }
  }

  static let badSchemas: [(String, String)] = [
    (#"{"entities": {"A": {"attributes": {"x": "strng"}}}}"#, "did you mean 'string'"),
    (#"{"entities": {"A": {"relationships": {"b": {"toOne": "B"}}}}}"#, "unknown entity 'B'"),
    (#"{"entities": {"A": {"attributes": {"id": "double"}}}}"#, "must be an integer or a string"),
    (#"{"entities": {"A": {"attributes": {"__sift_x": "string"}}}}"#, "reserved prefix"),
    (#"{"entities": {"A": {"attributes": {"x\u0001": "string"}}}}"#, "control character"),
    (#"{"entities": {"A": {"attributes": {"x": "string"}, "relationships": {"x": {"toOne": "A"}}}}}"#, "defined twice"),
    (#"{"entities": {"A": {"relationships": {"b": {}}}}}"#, "needs \"toOne\" or \"toMany\""),
    (#"{"entities": []}"#, "\"entities\" object"),
    (#"{"entities": {"A": {}}, "dateEncoding": "ms"}"#, "dateEncoding"),
    ("not json", "not valid JSON"),
    // One meaning per column: two to-manys to one entity default to the same inverse key, an
    // attribute in a foreign key's column, two attributes in one column.
    (
      #"{"entities": {"V": {"relationships": {"menu": {"toMany": "I"}, "specials": {"toMany": "I"}}}, "I": {}}}"#,
      "column 'v_id' of table 'i' holds both"
    ),
    (
      #"{"entities": {"V": {"attributes": {"best_id": "integer"}, "relationships": {"best": {"toOne": "I"}}}, "I": {}}}"#,
      "column 'best_id' of table 'v'"
    ),
    (
      #"{"entities": {"V": {"relationships": {"menu": {"toMany": "I"}}}, "I": {"attributes": {"v_id": "integer"}}}}"#,
      "holds both the attribute I.v_id and the inverse foreign key of V.menu"
    ),
    (
      #"{"entities": {"V": {"attributes": {"a": "string", "b": {"type": "string", "column": "a"}}}}}"#,
      "column 'a' of table 'v'"
    ),
    (
      #"{"entities": {"V": {"relationships": {"x": {"toOne": "I", "foreignKey": "k"}, "y": {"toOne": "I", "foreignKey": "k"}}}, "I": {}}}"#,
      "column 'k' of table 'v'"
    ),
  ]

  /// A to-one and the to-many that is its inverse share their key column; so do a
  /// self-referential parent and its children.
  /// A to-one that is not the to-many's inverse may not take its column.
  @Test func inverseRelationshipsShareTheirKey() throws {
    let schema = try SQLSchema(
      json: #"""
        {"entities": {"Venue": {"relationships": {"location": {"toOne": "Location"}}},
                      "Location": {"relationships": {"venues": {"toMany": "Venue", "inverseForeignKey": "location_id"}}},
                      "Person": {"relationships": {"parent": {"toOne": "Person"},
                                                   "children": {"toMany": "Person", "inverseForeignKey": "parent_id"}}}}}
        """#)
    #expect(schema.entity("Venue")?.relationship("location")?.kind == .toOne(foreignKey: "location_id"))
    #expect(schema.entity("Location")?.relationship("venues")?.kind == .toMany(inverseForeignKey: "location_id"))
    #expect(schema.entity("Person")?.relationship("parent")?.kind == .toOne(foreignKey: "parent_id"))
    #expect(schema.entity("Person")?.relationship("children")?.kind == .toMany(inverseForeignKey: "parent_id"))
    let unrelated = expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(
        json: #"""
          {"entities": {"Venue": {"relationships": {"owner": {"toOne": "Person", "foreignKey": "location_id"}}},
                        "Person": {},
                        "Location": {"relationships": {"venues": {"toMany": "Venue", "inverseForeignKey": "location_id"}}}}}
          """#)
    }
    #expect(unrelated?.message.contains("column 'location_id' of table") == true, "\(String(describing: unrelated))")
  }

  @Test(arguments: 0..<badSchemas.count)
  func invalidSchemasAreRejected(_ i: Int) {
    let (json, message) = Self.badSchemas[i]
    do {
      _ = try SQLSchema(json: json)
      Issue.record("accepted \(json)")
    } catch {
      #expect(error.diagnostic.id == "invalid-schema")
      #expect(error.diagnostic.message.contains(message), "\(error.diagnostic.message)")
    }
  }

  @Test func unknownKeyPathSuggestsAndPointsAtTheNode() throws {
    do {
      _ = try SQLFixtures.sqlite.compileWhere(try SiftPredicate(format: "name == 'x' AND tipCont > 5"), entity: "Venue")
      Issue.record("compiled")
    } catch {
      #expect(error.stage == .sql)
      #expect(error.diagnostic.id == "unknown-key-path")
      #expect(error.diagnostic.message == "keypath 'tipCont' not found in entity Venue; did you mean 'tipCount'?")
      #expect(error.diagnostic.range == SiftSourceRange(start: 16, end: 23))
      #expect(error.diagnostic.fixIts.first?.replacement == "tipCount")
    }
    do {
      _ = try SQLFixtures.sqlite.compileWhere(try SiftPredicate(format: "location.citty == 'x'"), entity: "Venue")
      Issue.record("compiled")
    } catch {
      #expect(error.diagnostic.message == "keypath 'citty' not found in entity Location; did you mean 'city'?")
      #expect(error.diagnostic.range == SiftSourceRange(start: 0, end: 14))
    }
    expectSiftError(id: "unknown-entity", stage: .sql, at: 0) {
      try SQLFixtures.sqlite.compileWhere(try SiftPredicate(format: "TRUEPREDICATE"), entity: "Venu")
    }
  }

  @Test func loaderRejectsWrongTypes() throws {
    let loader = SQLDataLoader(schema: SQLFixtures.schema, dialect: SQLiteDialect())
    for bad: SiftValue in [
      ["name": 5], ["specialCount": 1.5], ["tags": "wifi"], ["tags": [1]], ["location": 3], "x", ["menu": [1]],
    ] {
      expectSiftError(id: "load-error", stage: .sql) { try loader.insertStatements(for: [bad], entity: "Venue") }
    }
    let ok = try loader.insertStatements(
      for: [["id": 1, "favorite": 1, "distance": 2, "specialCount": true]], entity: "Venue")
    #expect(ok.count == 1)
    #expect(ok[0].bindings.count == placeholders(ok[0].sql).questionMarks)
  }

  @Test func ddlIsIdempotentAndPostgresTyped() throws {
    let db = try SQLiteDatabase()
    try db.createTables(SQLFixtures.schema, dialect: SQLiteDialect())
    try db.createTables(SQLFixtures.schema, dialect: SQLiteDialect())
    let pg = SQLDDL(schema: SQLFixtures.schema, dialect: PostgreSQLDialect()).createStatements().joined(separator: "\n")
    #expect(pg.contains(#""favorite" BOOLEAN"#))
    #expect(pg.contains(#""id" BIGINT PRIMARY KEY"#))
    #expect(pg.contains(#""distance" DOUBLE PRECISION"#))
    for sql in SQLDDL(schema: SQLFixtures.schema, dialect: SQLiteDialect()).dropStatements() {
      try db.executeScript(sql)
    }
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try db.execute(SQLStatement(sql: "SELECT 1 FROM \"venue\""))
    }
  }
}
