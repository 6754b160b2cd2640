import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// The same `Decodable` type fetched from memory (`request.fetch(from:)`), SQLite and
/// PostgreSQL gives equal arrays (SiftCoreDataTests/TypedStoreFetchTests adds a Core Data
/// store with the same books).
@Suite("Typed results: memory, SQLite and PostgreSQL agree")
struct TypedFetchTests {
  /// The books of Tests/Fixtures/coredata/Library.sql.
  struct Book: Codable, Equatable {
    var title: String
    var createdAt: Date?
    var inPrint: Bool?
    var pages: Int?
  }

  static let books = [
    Book(
      title: "Reference Manual", createdAt: Date(timeIntervalSinceReferenceDate: 711_102_600), inPrint: true, pages: 300
    ),
    Book(title: "Good Omens", createdAt: Date(timeIntervalSinceReferenceDate: 730_980_000), inPrint: true, pages: 288),
    Book(title: "Mort", createdAt: Date(timeIntervalSinceReferenceDate: -415_584_000), inPrint: false, pages: 243),
    Book(title: "The Sandman", createdAt: Date(timeIntervalSinceReferenceDate: 759_067_200), inPrint: true, pages: 200),
    Book(title: "Untitled", createdAt: nil, inPrint: nil, pages: nil),
  ]

  static let schema = try! SQLSchema(entities: [
    SQLEntity(
      name: "Book", table: "book",
      attributes: [
        SQLAttribute(name: "title", type: .string), SQLAttribute(name: "createdAt", type: .date),
        SQLAttribute(name: "inPrint", type: .boolean), SQLAttribute(name: "pages", type: .integer),
      ])
  ])

  static var records: [SiftValue] { books.map { (try? SiftRecordEncoder.encode($0)) ?? .null } }

  /// Requests over Book: predicate format with arguments, sorts, limit, offset.
  static let requests: [SiftFetchRequest] = {
    let year2020 = Date(timeIntervalSince1970: 1_577_836_800)
    func r(_ format: String, _ args: [SiftValue] = [], sort: String = "", limit: Int? = nil, offset: Int? = nil)
      -> SiftFetchRequest
    {
      SiftFetchRequest(
        entity: "Book", predicate: try! SiftPredicate(format: format, arguments: args),
        sortDescriptors: sort.isEmpty ? [] : try! SiftSortDescriptor.parseList(sort), limit: limit, offset: offset)
    }
    return [
      r("TRUEPREDICATE"),
      r("createdAt > %@", [.date(year2020)]),
      r("createdAt < %@", [.date(Date(timeIntervalSinceReferenceDate: 0))]),
      r("inPrint == YES", sort: "title"),
      r("pages >= 250 OR createdAt == nil"),
      r("title BEGINSWITH[c] 'the' OR title CONTAINS 'o'", sort: "pages desc"),
      r("createdAt != nil", sort: "createdAt desc", limit: 2, offset: 1),
      r("inPrint == NO OR inPrint == nil", limit: 5),
    ]
  }()

  func check(_ fetch: (SiftFetchRequest) throws -> [Book], count: (SiftFetchRequest) throws -> Int) throws {
    for request in Self.requests {
      let memory = try request.fetch(from: Self.books)
      #expect(try fetch(request) == memory, "\(request.predicate?.source ?? "")")
      #expect(try count(request) == memory.count, "\(request.predicate?.source ?? "")")
      #expect(try request.fetchCount(from: Self.books) == memory.count)
    }
  }

  @Test func memoryReturnsTheCallersValuesInOrder() throws {
    let r = SiftFetchRequest(
      entity: "Book",
      predicate: try SiftPredicate(format: "createdAt > %@", arguments: [.date(Date(timeIntervalSince1970: 0))]),
      sortDescriptors: [SiftSortDescriptor("createdAt", ascending: false)], limit: 2)
    #expect(try r.fetch(from: Self.books).map(\.title) == ["The Sandman", "Good Omens"])
    #expect(try r.fetchCount(from: Self.books) == 2)
  }

  @Test func sqlite() throws {
    let db = try SQLiteDatabase()
    try db.load(Self.records, entity: "Book", schema: Self.schema, dialect: SQLiteDialect())
    try check(
      { try db.fetch($0, as: Book.self, schema: Self.schema) }, count: { try db.fetchCount($0, schema: Self.schema) })
    // The schema read from the database: the entity is named for its table.
    let all = try db.fetch(SiftFetchRequest(entity: "book"), as: Book.self)
    #expect(all == Self.books)
    #expect(
      try db.fetchCount(SiftFetchRequest(entity: "book", predicate: try SiftPredicate(format: "inPrint == 1"))) == 3)
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgres() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.load(Self.records, entity: "Book", schema: Self.schema, dialect: PostgreSQLDialect())
    try check(
      { try db.fetch($0, as: Book.self, schema: Self.schema) }, count: { try db.fetchCount($0, schema: Self.schema) })
    #expect(try db.fetch(SiftFetchRequest(entity: "book"), as: Book.self) == Self.books)
  }

  /// A table PostgreSQL types natively, read through its introspected schema.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresNativeTypes() throws {
    struct Event: Decodable, Equatable {
      var id: Int
      var at: Date
      var day: Date?
      var local: Date?
      var done: Bool
      var ref: UUID
      var tags: [String]
      var scores: [Int]?
    }
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.executeScript(
      """
      CREATE TABLE event (id integer PRIMARY KEY, at timestamptz NOT NULL, day date, local timestamp, done boolean NOT NULL,
                          ref uuid NOT NULL, tags text[] NOT NULL, scores jsonb);
      INSERT INTO event VALUES
        (1, '2024-01-05 12:30:00.25+02', '2024-01-05', '2024-01-05 10:30:00', true, '01234567-89ab-cdef-0123-456789abcdef',
         '{a,"b c"}', '[1, 2]'),
        (2, '1999-12-31 23:59:59Z', NULL, NULL, false, '00000000-0000-0000-0000-000000000000', '{}', NULL);
      """)
    let events = try db.fetch(
      SiftFetchRequest(entity: "event", sortDescriptors: [SiftSortDescriptor("id")]), as: Event.self)
    let uuid = try #require(UUID(uuidString: "01234567-89ab-cdef-0123-456789abcdef"))
    #expect(
      events == [
        Event(
          id: 1, at: Date(timeIntervalSince1970: 1_704_450_600.25), day: Date(timeIntervalSince1970: 1_704_412_800),
          local: Date(timeIntervalSince1970: 1_704_450_600), done: true, ref: uuid, tags: ["a", "b c"], scores: [1, 2]),
        Event(
          id: 2, at: Date(timeIntervalSince1970: 946_684_799), day: nil, local: nil, done: false,
          ref: try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000000")), tags: [], scores: nil),
      ])
    let late = SiftFetchRequest(
      entity: "event",
      predicate: try SiftPredicate(format: "at > %@", arguments: [.date(Date(timeIntervalSince1970: 1e9))]))
    #expect(try db.fetch(late, as: Event.self).map(\.id) == [1])
    #expect(try db.fetchCount(late) == 1)
  }

  /// Rows of any shape: properties, aggregates with group-by, expressions, distinct.
  @Test func rowsOfAnyShape() throws {
    let db = try SQLiteDatabase()
    try db.load(Self.records, entity: "Book", schema: Self.schema, dialect: SQLiteDialect())
    let grouped = SiftFetchRequest(
      entity: "Book",
      resultType: .aggregates(
        [SiftAggregate(.max, "createdAt"), SiftAggregate(.sum, "pages"), SiftAggregate(.count)], groupBy: ["inPrint"]))
    let rows = try db.fetch(grouped, as: SiftRow.self, schema: Self.schema)
    #expect(rows.map { $0["inPrint"] } == [.null, .bool(false), .bool(true)])
    #expect(try rows[2].decode(Date.self, "max(createdAt)") == Self.books[3].createdAt)
    #expect(try rows.map { try $0.decode(Int.self, "sum(pages)") } == [0, 243, 788])
    #expect(try rows.map { try $0.decode(Int.self, "count()") } == [1, 1, 3])
    #expect(try rows[0].decode(Bool?.self, "inPrint") == nil)

    let properties = SiftFetchRequest(
      entity: "Book", sortDescriptors: [SiftSortDescriptor("title")], resultType: .properties(["title", "createdAt"]))
    struct Dated: Decodable, Equatable { var title: String; var createdAt: Date? }
    let dated = try db.fetch(properties, as: Dated.self, schema: Self.schema)
    #expect(dated.map(\.title) == Self.books.map(\.title).sorted())
    #expect(dated.first { $0.title == "Mort" }?.createdAt == Self.books[2].createdAt)

    let distinct = SiftFetchRequest(entity: "Book", resultType: .distinct("inPrint"))
    #expect(try db.fetch(distinct, as: Bool?.self, schema: Self.schema) == [nil, false, true])
    let expressions = SiftFetchRequest(
      entity: "Book", predicate: try SiftPredicate(format: "pages != nil"),
      sortDescriptors: [SiftSortDescriptor("pages")],
      resultType: .expressions([
        SiftExpressionDescription(name: "double", expression: try SiftExpression(format: "pages * 2"))
      ]))
    #expect(
      try db.fetch(expressions, as: SiftRow.self, schema: Self.schema).map { $0["double"] } == [
        .int(400), .int(486), .int(576), .int(600),
      ])
  }
}
