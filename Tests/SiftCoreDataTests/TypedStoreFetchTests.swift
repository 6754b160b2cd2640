import Foundation
import SiftCoreData
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `store.fetch(request, as:)` over a Core Data store gives what `request.fetch(from:)` gives
/// over the same values in memory, and what SQLite gives for them loaded by Sift
/// (SiftSQLTests/TypedFetchTests adds PostgreSQL with the same books).
@Suite("Typed results from a Core Data store")
struct TypedStoreFetchTests {
  struct Book: Codable, Equatable {
    var title: String
    var createdAt: Date?
    var inPrint: Bool?
    var pages: Int?
  }

  /// The books of Library.sql (items 1-5: Book, Novel, Novel, Comic, Book).
  static let books = [
    Book(
      title: "Reference Manual", createdAt: Date(timeIntervalSinceReferenceDate: 711_102_600), inPrint: true, pages: 300
    ),
    Book(title: "Good Omens", createdAt: Date(timeIntervalSinceReferenceDate: 730_980_000), inPrint: true, pages: 288),
    Book(title: "Mort", createdAt: Date(timeIntervalSinceReferenceDate: -415_584_000), inPrint: false, pages: 243),
    Book(title: "The Sandman", createdAt: Date(timeIntervalSinceReferenceDate: 759_067_200), inPrint: true, pages: 200),
    Book(title: "Untitled", createdAt: nil, inPrint: nil, pages: nil),
  ]

  static let requests: [(String, [SiftValue], String, Int?)] = [
    ("TRUEPREDICATE", [], "", nil),
    ("createdAt > %@", [.date(Date(timeIntervalSince1970: 1_577_836_800))], "", nil),
    ("createdAt < %@", [.date(Date(timeIntervalSinceReferenceDate: 0))], "", nil),
    ("inPrint == YES", [], "title", nil),
    ("pages >= 250 OR createdAt == nil", [], "", nil),
    ("createdAt != nil", [], "createdAt desc", 2),
    ("title CONTAINS[c] 'o'", [], "pages", nil),
  ]

  @Test func memoryStoreAndSQLiteAgree() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let store = try OpenedStore(script: "Library.sql", model: model).store
    let schema = try SQLSchema(entities: [
      SQLEntity(
        name: "Book", table: "book",
        attributes: [
          SQLAttribute(name: "title", type: .string), SQLAttribute(name: "createdAt", type: .date),
          SQLAttribute(name: "inPrint", type: .boolean), SQLAttribute(name: "pages", type: .integer),
        ])
    ])
    let sqlite = try SQLiteDatabase()
    try sqlite.load(
      try Self.books.map { try SiftRecordEncoder.encode($0) }, entity: "Book", schema: schema, dialect: SQLiteDialect())
    for (format, args, sort, limit) in Self.requests {
      let request = SiftFetchRequest(
        entity: "Book", predicate: try SiftPredicate(format: format, arguments: args),
        sortDescriptors: sort.isEmpty ? [] : try SiftSortDescriptor.parseList(sort), limit: limit)
      let memory = try request.fetch(from: Self.books)
      #expect(try store.fetch(request, as: Book.self) == memory, "\(format)")
      #expect(try sqlite.fetch(request, as: Book.self, schema: schema) == memory, "\(format)")
      #expect(try store.fetchCount(request) == memory.count, "\(format)")
    }
  }

  /// Every attribute type of AllTypes.sql as Swift values: Core Data's 2001 seconds, 0/1
  /// booleans, a UUID from its 16-byte blob, a URI as a URL, a decimal.
  @Test func everyAttributeType() throws {
    struct Sample: Decodable, Equatable {
      var boolean: Bool
      var date: Date?
      var decimal: Decimal?
      var double: Double
      var float: Float?
      var int16: Int16?
      var int64: Int64
      var string: String
      var uri: URL?
      var binary: Data?
      var uuid: UUID?
    }
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("AllTypes.xcdatamodel"))
    let store = try OpenedStore(script: "AllTypes.sql", model: model).store
    let rows = try store.fetch(SiftFetchRequest(entity: "Sample"), as: Sample.self)
    try #require(rows.count == 3)
    #expect(rows[0].boolean && !rows[1].boolean)
    #expect(rows[0].date == Date(timeIntervalSinceReferenceDate: 730_980_000.25))
    #expect(rows[2].date == Date(timeIntervalSinceReferenceDate: -86_400) && rows[1].date == nil)
    #expect(rows[0].decimal == Decimal(string: "2.5") && rows[0].float == 0.5 && rows[2].int16 == -32768)
    #expect(rows[2].int64 == Int64.min && rows[0].string == "Ünïcode ok")
    #expect(rows[0].uri == URL(string: "https://example.com/a") && rows[0].binary == Data([0xDE, 0xAD, 0xBE, 0xEF]))
    #expect(rows[0].uuid == UUID(uuidString: "01234567-89AB-CDEF-0123-456789ABCDEF"))
    #expect(rows[2].uuid == UUID(uuidString: "00000000-0000-0000-0000-000000000000") && rows[1].uuid == nil)
    let row = try #require(try store.fetch(SiftFetchRequest(entity: "Sample", limit: 1), as: SiftRow.self).first)
    #expect(row["date"] == .date(Date(timeIntervalSinceReferenceDate: 730_980_000.25)))
    #expect(row["boolean"] == .bool(true))
    #expect(try row.decode(Date.self, "date") == Date(timeIntervalSinceReferenceDate: 730_980_000.25))
  }
}
