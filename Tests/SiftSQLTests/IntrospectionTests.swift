import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Schemas read from databases Sift did not make: Tests/Fixtures/existing/*.sql.
@Suite("Introspection")
struct IntrospectionTests {
  /// The notes fixture written to a fresh file, which is then opened read-only.
  static func notesFile() throws -> (dir: URL, path: String) {
    let dir = try scratchDirectory("sift-introspect")
    let path = dir.appendingPathComponent("notes.sqlite").path
    let script = SQLFixtures.text("existing/notes.sqlite.sql")
    #expect(!script.isEmpty)
    try SQLiteDatabase(path: path).executeScript(script)
    return (dir, path)
  }

  /// `type encoding-or-storage nativeType null|not-null`.
  static func describe(_ a: SQLAttribute?) -> String {
    guard let a else { return "missing" }
    let how = a.dateEncoding?.rawValue ?? a.arrayStorage?.rawValue ?? "-"
    return "\(a.type.rawValue) \(how) \(a.nativeType ?? "-") \(a.isNullable ? "null" : "not-null")"
  }

  static func kinds(_ e: SQLEntity?) -> [String: String] {
    var out: [String: String] = [:]
    for r in e?.relationships ?? [] {
      switch r.kind {
      case .toOne(let fk): out[r.name] = "toOne \(r.target) via \(fk)"
      case .toMany(let fk): out[r.name] = "toMany \(r.target) via \(fk)"
      case .manyToMany(let t, let s, let d): out[r.name] = "manyToMany \(r.target) via \(t)(\(s), \(d))"
      }
    }
    return out
  }

  @Test func sqliteNotesSchema() throws {
    let (dir, path) = try IntrospectionTests.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = try SQLiteDatabase(readOnly: path)
    let result = try db.introspectSchema()
    let s = result.schema
    #expect(s.layout == .existing)
    #expect(
      s.entityNames == ["author", "category", "comment", "note", "note_revision", "note_tag", "recent_note", "tag"])

    // Columns → attributes: types, nullability, native types, indexes.
    let note = try #require(s.entity("note"))
    #expect(note.table == "note" && note.primaryKey == "id" && note.hasSingleColumnKey)
    #expect(
      note.attributes.map(\.name) == [
        "id", "title", "body", "category_id", "author_id", "reviewer_id", "created_at", "due_on", "updated_at",
        "rating",
        "word_count", "price", "attachment", "labels",
      ])
    let types = Dictionary(uniqueKeysWithValues: note.attributes.map { ($0.name, $0.type) })
    #expect(
      types == [
        "id": .integer, "title": .string, "body": .string, "category_id": .integer, "author_id": .integer,
        "reviewer_id": .integer, "created_at": .date, "due_on": .date, "updated_at": .date, "rating": .double,
        "word_count": .integer, "price": .double, "attachment": .data, "labels": .stringArray,
      ])
    #expect(note.attribute("title")?.isNullable == false)
    #expect(note.attribute("body")?.isNullable == true)
    #expect(note.attribute("id")?.isNullable == false)
    #expect(note.attribute("category_id")?.isNullable == true)
    #expect(note.attribute("created_at")?.dateEncoding == .iso8601)
    #expect(note.attribute("created_at")?.nativeType == "TIMESTAMP")
    #expect(note.attribute("due_on")?.dateEncoding == .isoDate)
    #expect(note.attribute("updated_at")?.dateEncoding == .unixMilliseconds)
    #expect(note.attribute("labels")?.arrayStorage == .json)
    #expect(note.attribute("price")?.nativeType == "NUMERIC(8, 2)")
    #expect(note.attribute("title")?.indexed == true)
    #expect(note.attribute("category_id")?.indexed == true)
    #expect(note.attribute("body")?.indexed == false)
    #expect(Set(note.indexes.map(\.name)) == ["note_title_idx", "note_category_created_idx", "note_lower_title_idx"])
    #expect(note.indexes.first { $0.name == "note_category_created_idx" }?.columns == ["category_id", "created_at"])
    #expect(note.indexes.first { $0.name == "note_lower_title_idx" }?.hasExpressions == true)

    let author = try #require(s.entity("author"))
    #expect(author.attribute("is_active")?.type == .boolean)
    #expect(author.attribute("joined_at")?.dateEncoding == .sqliteDateTime)
    #expect(author.attribute("email")?.indexed == true, "UNIQUE makes an index")
    #expect(s.entity("comment")?.attribute("posted_at")?.dateEncoding == .unixSeconds)
    #expect(s.entity("note_revision")?.attribute("saved_at")?.dateEncoding == .unixSeconds)

    // Foreign keys → to-ones (suffix dropped) and inverse to-manys; the join table → many-to-many.
    #expect(
      IntrospectionTests.kinds(note) == [
        "category": "toOne category via category_id", "author": "toOne author via author_id",
        "reviewer": "toOne author via reviewer_id", "tag": "manyToMany tag via note_tag(note_id, tag_id)",
        "comment": "toMany comment via note",
      ])
    #expect(
      IntrospectionTests.kinds(s.entity("category")) == [
        "parent": "toOne category via parent_id", "category": "toMany category via parent_id",
        "note": "toMany note via category_id",
      ])
    #expect(IntrospectionTests.kinds(s.entity("tag")) == ["note": "manyToMany note via note_tag(tag_id, note_id)"])
    #expect(
      IntrospectionTests.kinds(s.entity("note_tag")) == [
        "note": "toOne note via note_id", "tag": "toOne tag via tag_id",
      ])
    #expect(IntrospectionTests.kinds(author) == [:], "both inverses would be named 'note'")
    #expect(IntrospectionTests.kinds(s.entity("comment")) == [:], "the to-one would be named like its column")

    // Composite keys and views: usable for predicates, no relationship into them.
    let revision = try #require(s.entity("note_revision"))
    #expect(!revision.hasSingleColumnKey && revision.primaryKeyColumns == ["note_id", "revision"])
    #expect(IntrospectionTests.kinds(revision) == ["note": "toOne note via note_id"])
    let view = try #require(s.entity("recent_note"))
    #expect(view.isView && view.primaryKeyColumns.isEmpty && view.indexes.isEmpty)
    #expect(view.attributes.map(\.name).sorted() == ["body_length", "category_name", "created_at", "id", "title"])
    #expect(view.attribute("body_length")?.type == .integer, "no declared type: read from the values")
    #expect(view.attribute("created_at")?.dateEncoding == .iso8601)

    // Every collision and left-out piece is reported, naming table and columns.
    let collisions = result.warnings.filter { $0.kind == .nameCollision }
    #expect(collisions.count == 2)
    let authorClash = try #require(collisions.first { $0.table == "author" })
    #expect(authorClash.member == "note" && authorClash.columns == ["author_id", "reviewer_id"])
    #expect(authorClash.message.contains("inverse of note.author_id and inverse of note.reviewer_id"))
    #expect(authorClash.message.contains(#""inverseForeignKey":"#))
    let commentClash = try #require(collisions.first { $0.table == "comment" })
    #expect(commentClash.member == "note" && commentClash.columns == ["note"])
    #expect(commentClash.message.contains("the column comment.note and to-one of comment.note"))
    let keyless = result.warnings.filter { $0.kind == .noSingleColumnKey }
    #expect(Set(keyless.map(\.table)) == ["note_revision", "note_tag"])
    #expect(keyless.contains { $0.entity == "note" && $0.member == "note_revision" })
    #expect(!result.warnings.contains { $0.table == "recent_note" })
    #expect(result.warnings.count == 5, "\(result.warnings.map(\.description))")
  }

  @Test func schemaFileNamesWhatCollided() throws {
    let (dir, path) = try IntrospectionTests.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = try SQLiteDatabase(readOnly: path)
    let read = try db.introspectSchema().schema
    let s = try read.merging(
      json: #"""
        {"entities": {
          "author": {"relationships": {
            "notes": {"toMany": "note", "inverseForeignKey": "author_id"},
            "reviews": {"toMany": "note", "inverseForeignKey": "reviewer_id"}}},
          "comment": {"relationships": {"on_note": {"toOne": "note", "foreignKey": "note"}}},
          "note": {"exclude": ["word_count"], "attributes": {"due_on": {"dateEncoding": "iso8601"}, "summary": {"type": "string", "column": "body"}}},
          "Draft": {"table": "note", "attributes": {"title": "string"}}}}
        """#)
    #expect(s.layout == .existing)
    #expect(
      IntrospectionTests.kinds(s.entity("author")) == [
        "notes": "toMany note via author_id", "reviews": "toMany note via reviewer_id",
      ])
    #expect(IntrospectionTests.kinds(s.entity("comment")) == ["on_note": "toOne note via note"])
    let note = try #require(s.entity("note"))
    #expect(note.attribute("word_count") == nil)
    #expect(note.attribute("due_on")?.dateEncoding == .iso8601)
    #expect(note.attribute("due_on")?.nativeType == "DATE", "fields not given are kept")
    #expect(note.attribute("summary")?.column == "body")
    #expect(note.attribute("body") == nil, "a new name on a column read under another name renames it")
    #expect(note.attribute("title") != nil && note.attribute("due_on")?.column == "due_on")
    // A second name on the primary key's column leaves the key as read.
    let aliased = try read.merging(
      json: #"{"entities": {"note": {"attributes": {"identifier": {"column": "id", "type": "string"}}}}}"#)
    #expect(
      aliased.entity("note")?.primaryKey == "id"
        && aliased.entity("note")?.attribute("id") == read.entity("note")?.attribute("id"))
    #expect(s.entity("Draft")?.table == "note")
    #expect(s.entity("category") == read.entity("category"), "entities the file does not name are unchanged")

    // What the merged schema can already answer with today's compiler on the user's file.
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: s)
    func ids(_ format: String, _ entity: String = "note") throws -> [Int64] {
      let request = SiftFetchRequest(
        entity: entity, predicate: try SiftPredicate(format: format), sortDescriptors: [SiftSortDescriptor("id")])
      return try db.execute(try compiler.compile(request)).compactMap { $0.first?.intValue }
    }
    #expect(try ids("title BEGINSWITH 'Q'") == [1])
    #expect(try ids("summary CONTAINS 'Daily'") == [2])
    #expect(try ids("category.name == 'work'") == [1])
    #expect(try ids("category.parent.name == 'work'") == [2])
    #expect(try ids("reviewer == nil") == [2, 4])
    #expect(try ids("ANY tag.label == 'personal'") == [3, 4])
    #expect(try ids("ANY notes.title CONTAINS 'plan'", "author") == [1])
    #expect(try ids("on_note.title == 'Café ideas'", "comment") == [3])
  }

  @Test func jsonTextRoundTrips() throws {
    let (dir, path) = try IntrospectionTests.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = try SQLiteDatabase(readOnly: path).introspectSchema().schema
    let again = try SQLSchema(json: s.jsonText)
    #expect(again.jsonText == s.jsonText)
    #expect(again.layout == .existing)
    #expect(again.entity("note_revision")?.primaryKeyColumns == ["note_id", "revision"])
    #expect(again.entity("recent_note")?.primaryKeyColumns == [])
    #expect(again.entity("note")?.attribute("labels") == s.entity("note")?.attribute("labels"))
  }

  @Test func introspectionWritesNothing() throws {
    let (dir, path) = try IntrospectionTests.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: path)
    let before = try FileSnapshot(path)
    do {
      let db = try SQLiteDatabase(readOnly: path)
      let s = try db.introspectSchema().schema
      let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: s)
      let p = try SiftPredicate(format: "title BEGINSWITH 'h'")
      _ = try db.execute(try compiler.compile(SiftFetchRequest(entity: "note", predicate: p, resultType: .count)))
    }
    #expect(try FileSnapshot(path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["notes.sqlite"])
  }

  @Test func dateEncodingsFromValues() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZCREATED TIMESTAMP);
      INSERT INTO ZNOTE VALUES (1, 1, 1, 'a', 726000000.5);
      CREATE TABLE event (id INTEGER PRIMARY KEY, starts DATETIME, ends DATETIME, due DATE, at_ms DATETIME, stamp TIMESTAMP);
      INSERT INTO event VALUES (1, '2024-01-05 10:30:00', '2024-01-05T10:30:00Z', NULL, 1704450600000, '2024-01-05T10:30:00Z');
      INSERT INTO event VALUES (2, '2024-01-05 10:30:00.5', NULL, NULL, 1704450600001, 1704450600);
      """)
    let result = try db.introspectSchema()
    let e = try #require(result.schema.entity("event"))
    #expect(
      result.schema.entity("ZNOTE")?.attribute("ZCREATED")?.dateEncoding == .referenceDateSeconds, "Core Data store")
    #expect(e.attribute("starts")?.dateEncoding == .sqliteDateTime)
    #expect(e.attribute("ends")?.dateEncoding == .iso8601)
    #expect(e.attribute("due")?.dateEncoding == .isoDate, "assumed from the declared DATE")
    #expect(e.attribute("at_ms")?.dateEncoding == .unixMilliseconds)
    let w = Dictionary(result.warnings.map { ($0.columns.first ?? "", $0.kind) }, uniquingKeysWith: { a, _ in a })
    #expect(w == ["starts": .mixedDateValues, "due": .dateEncodingAssumed, "stamp": .mixedDateValues])
    #expect(e.attribute("stamp")?.dateEncoding == .iso8601 || e.attribute("stamp")?.dateEncoding == .unixSeconds)
  }

  @Test func toOneNames() {
    let cases = [
      ("author_id", "author"), ("authorId", "author"), ("authorID", "author"), ("AUTHOR_ID", "AUTHOR"),
      ("owner", "owner"), ("id", "id"), ("_id", "_id"), ("Id", "Id"), ("PAID", "PAID"), ("paid", "paid"),
    ]
    for (column, name) in cases {
      #expect(SQLSchemaReader.toOneName(column) == name, "\(column)")
    }
  }

  @Test func dateTextShapes() throws {
    let cases: [(String, SQLDateEncoding?)] = [
      ("2024-01-05", .isoDate), ("2024-01-05 10:30:00", .sqliteDateTime), ("2024-01-05 10:30", .sqliteDateTime),
      ("2024-01-05 10:30:00.123", .sqliteDateTime), ("2024-01-05T10:30:00Z", .iso8601),
      ("2024-01-05T10:30:00.5Z", .iso8601), ("2024-01-05T10:30:00+02:00", nil), ("2024-01-05T10:30:00", nil),
      ("05/01/2024", nil), ("", nil),
    ]
    for (text, shape) in cases { #expect(SQLDateEncoding.textEncoding(of: text) == shape, "\(text)") }
    let d = Date(timeIntervalSince1970: 1_704_450_600.25)
    #expect(try SQLDateEncoding.iso8601.sqlValue(d) == .text("2024-01-05T10:30:00.250Z"))
    #expect(
      try SQLDateEncoding.sqliteDateTime.sqlValue(Date(timeIntervalSince1970: 1_704_450_600))
        == .text("2024-01-05 10:30:00"))
    #expect(try SQLDateEncoding.isoDate.sqlValue(d) == .text("2024-01-05"))
    #expect(try SQLDateEncoding.iso8601.sqlValue(Date(timeIntervalSince1970: -1)) == .text("1969-12-31T23:59:59Z"))
    #expect(try SQLDateEncoding.unixMilliseconds.sqlValue(d) == .double(1_704_450_600_250))
  }

  @Test func schemaLevelEncodingStaysNumeric() {
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(json: #"{"dateEncoding": "iso8601", "entities": {}}"#)
    }
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(json: #"{"entities": {"A": {"attributes": {"n": {"type": "string", "dateEncoding": "iso8601"}}}}}"#)
    }
    expectSiftError(id: "invalid-schema", stage: .sql) {
      try SQLSchema(
        json: #"{"entities": {"A": {"primaryKey": ["a", "b"], "attributes": {"a": "integer", "b": "integer"}}, "#
          + #""B": {"relationships": {"a": {"toOne": "A"}}}}}"#)
    }
  }

  // MARK: PostgreSQL

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresShopSchema() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run(SQLFixtures.text("existing/shop.postgres.sql"))
    let name = try #require(db.schemaName)
    let result = try db.introspectSchema(named: name)
    let s = result.schema
    #expect(s.layout == .existing)
    #expect(
      s.entityNames == ["category", "customer", "order", "order_line", "product", "product_category", "vip_customer"])

    let customer = try #require(s.entity("customer"))
    #expect(customer.primaryKey == "id" && customer.primaryKeyAttribute.type == .string)
    #expect(customer.primaryKeyAttribute.nativeType == "uuid")
    #expect(customer.attribute("is_vip")?.type == .boolean)
    #expect(
      IntrospectionTests.describe(customer.attribute("signed_up_at")) == "date native timestamp with time zone not-null"
    )
    #expect(IntrospectionTests.describe(customer.attribute("birthday")) == "date native date null")
    #expect(IntrospectionTests.describe(customer.attribute("tags")) == "stringArray array text[] not-null")
    #expect(customer.attribute("display_name")?.nativeType == "character varying(100)")
    #expect(customer.attribute("preferences") == nil, "a jsonb object is left out")
    #expect(customer.attribute("email")?.indexed == true)
    #expect(customer.indexes.contains { $0.name == "customer_lower_email_idx" && $0.hasExpressions })
    #expect(IntrospectionTests.kinds(customer) == ["order": "toMany order via customer_id"])

    let product = try #require(s.entity("product"))
    #expect(product.primaryKeyAttribute.type == .string)
    let types = Dictionary(uniqueKeysWithValues: product.attributes.map { ($0.name, $0.type) })
    #expect(
      types == [
        "sku": .string, "title": .string, "price": .double, "weight_kg": .double, "stock": .integer,
        "ratings": .integerArray, "dimensions": .doubleArray, "keywords": .stringArray, "created_at": .date,
        "image": .data,
      ])
    #expect(product.attribute("price")?.nativeType == "numeric(10,2)")
    #expect(product.attribute("keywords")?.arrayStorage == .json)
    #expect(product.attribute("ratings")?.arrayStorage == .nativeArray)
    #expect(product.attribute("created_at")?.nativeType == "timestamp without time zone")
    #expect(
      IntrospectionTests.kinds(product) == [
        "category": "manyToMany category via product_category(product_sku, category_id)"
      ])
    #expect(
      IntrospectionTests.kinds(s.entity("category")) == [
        "product": "manyToMany product via product_category(category_id, product_sku)"
      ])

    let order = try #require(s.entity("order"))
    #expect(IntrospectionTests.describe(order.attribute("status")) == "string - order_status not-null")
    #expect(order.attribute("total")?.type == .double)
    #expect(order.attribute("delivery_window") == nil, "interval is left out")
    #expect(order.attribute("customer_id")?.isNullable == true)
    #expect(order.attribute("id")?.isNullable == false)
    #expect(order.indexes.contains { $0.name == "order_placed_idx" && $0.columns == ["placed_at"] })
    #expect(IntrospectionTests.kinds(order) == ["customer": "toOne customer via customer_id"])

    let line = try #require(s.entity("order_line"))
    #expect(line.primaryKeyColumns == ["order_id", "line_no"] && !line.hasSingleColumnKey)
    #expect(IntrospectionTests.kinds(line) == ["order": "toOne order via order_id"])
    #expect(s.entity("vip_customer")?.isView == true)
    #expect(s.entity("vip_customer")?.primaryKeyColumns == [])

    let w = result.warnings
    #expect(w.contains { $0.kind == .unsupportedColumn && $0.table == "customer" && $0.columns == ["preferences"] })
    #expect(w.contains { $0.kind == .unsupportedColumn && $0.table == "order" && $0.columns == ["delivery_window"] })
    #expect(w.contains { $0.kind == .nameCollision && $0.table == "order_line" && $0.member == "product_sku" })
    #expect(w.contains { $0.kind == .nameCollision && $0.table == "product_category" && $0.member == "product_sku" })
    #expect(Set(w.filter { $0.kind == .noSingleColumnKey }.map(\.table)) == ["order_line", "product_category"])

    // The read-only connection sees the same and can change nothing.
    let conninfo = try #require(PostgresTestServer.conninfo)
    let ro = try PostgresDatabase(conninfo: conninfo, schema: .named(name), readOnly: true)
    defer { ro.close() }
    #expect(try ro.introspectSchema(named: name).schema == s)
    expectSiftError(id: "postgres-query", stage: .sql) { try ro.run("INSERT INTO category (name) VALUES ('x')") }
    expectSiftError(id: "postgres-query", stage: .sql) { try ro.run("CREATE TABLE venues (id int)") }
  }
}
