import Foundation
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftSQL

/// `SiftRow` decoding: each stored form a Swift type decodes from, and errors that name the
/// row, the key, the column and what was found.
@Suite struct RowDecodingTests {
  static let schema = try! SQLSchema(entities: [
    SQLEntity(name: "E", attributes: [SQLAttribute(name: "x", type: .string)])
  ])
  static let d = Date(timeIntervalSince1970: 1_704_450_600.25)

  /// A one-column row whose attribute is stored as described.
  static func row(
    _ stored: SQLValue, _ type: SQLAttributeType = .string, _ encoding: SQLDateEncoding? = nil, native: String? = nil,
    storage: SQLArrayStorage? = nil, postgres: Bool = false
  ) -> SiftRow {
    let a = SQLAttribute(
      name: "v", column: "V_COL", type: type, nativeType: native, dateEncoding: encoding, arrayStorage: storage)
    let codec = SQLColumnCodec(a, schema: schema, dialect: postgres ? PostgreSQLDialect() : SQLiteDialect())
    return SiftRow(columns: SiftRowColumns(names: ["v"], codecs: [codec]), values: [stored], number: 4)
  }

  @Test func dates() throws {
    let cases: [(SiftRow, Date)] = [
      (Self.row(.double(1_704_450_600.25), .date, .unixSeconds), Self.d),
      (Self.row(.integer(1_704_450_600_250), .date, .unixMilliseconds), Self.d),
      (Self.row(.double(Self.d.timeIntervalSinceReferenceDate), .date, .referenceDateSeconds), Self.d),
      (Self.row(.text("2024-01-05T10:30:00.250Z"), .date, .iso8601), Self.d),
      (Self.row(.text("2024-01-05T10:30:00.25Z"), .date, .iso8601), Self.d),
      (Self.row(.text("2024-01-05T10:30:00Z"), .date, .iso8601), Date(timeIntervalSince1970: 1_704_450_600)),
      (Self.row(.text("2024-01-05 10:30:00.250"), .date, .sqliteDateTime), Self.d),
      (Self.row(.text("2024-01-05 10:30"), .date, .sqliteDateTime), Date(timeIntervalSince1970: 1_704_450_600)),
      (Self.row(.text("2024-01-05"), .date, .isoDate), Date(timeIntervalSince1970: 1_704_412_800)),
      (Self.row(.text("2024-01-05 11:30:00.25+01"), .date, .native, native: "timestamptz", postgres: true), Self.d),
      (
        Self.row(.text("2024-01-05"), .date, .native, native: "date", postgres: true),
        Date(timeIntervalSince1970: 1_704_412_800)
      ),
      // A computed value with no date column: seconds since 1970, or ISO text.
      (Self.row(.double(1_704_450_600.25)), Self.d),
      (Self.row(.text("2024-01-05T10:30:00.250Z")), Self.d),
    ]
    for (row, date) in cases {
      #expect(try row.decode(Date.self, "v") == date, "\(row.values[0])")
      #expect(try row.decode(Date?.self, "v") == date)
    }
    #expect(try Self.row(.null, .date, .iso8601).decode(Date?.self, "v") == nil)
  }

  @Test func booleansUUIDsArraysAndNumbers() throws {
    #expect(try Self.row(.integer(1), .boolean).decode(Bool.self, "v") == true)
    #expect(try Self.row(.integer(0), .boolean).decode(Bool.self, "v") == false)
    #expect(try Self.row(.bool(true), .boolean, postgres: true).decode(Bool.self, "v") == true)
    #expect(try Self.row(.integer(1), .integer).decode(Bool.self, "v") == true)
    let uuid = try #require(UUID(uuidString: "01234567-89AB-CDEF-0123-456789ABCDEF"))
    #expect(try Self.row(.text(uuid.uuidString.lowercased())).decode(UUID.self, "v") == uuid)
    #expect(
      try Self.row(
        .blob(Data([0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF])),
        .data
      )
      .decode(UUID.self, "v") == uuid)
    #expect(
      try Self.row(.text("[\"a\", \"b\"]"), .stringArray, storage: .json).decode([String].self, "v") == ["a", "b"])
    #expect(
      try Self.row(.text("{x,\"y z\"}"), .stringArray, storage: .nativeArray).decode([String].self, "v") == [
        "x", "y z",
      ])
    #expect(
      try Self.row(.text("{1,2,NULL}"), .integerArray, storage: .nativeArray).decode([Int?].self, "v") == [1, 2, nil])
    #expect(try Self.row(.text("[1.5, 2]"), .doubleArray, storage: .json).decode([Double].self, "v") == [1.5, 2])
    #expect(try Self.row(.integer(300), .integer).decode(Int16.self, "v") == 300)
    #expect(try Self.row(.double(4), .double).decode(Int.self, "v") == 4)
    #expect(try Self.row(.integer(4), .integer).decode(Double.self, "v") == 4)
    #expect(try Self.row(.double(2.5), .double).decode(Decimal.self, "v") == Decimal(string: "2.5"))
    #expect(try Self.row(.text("https://x.org/a")).decode(URL.self, "v") == URL(string: "https://x.org/a"))
    #expect(try Self.row(.blob(Data([1, 2]))).decode(Data.self, "v") == Data([1, 2]))
    enum Mood: String, Decodable { case calm, busy }
    #expect(try Self.row(.text("busy")).decode(Mood.self, "v") == .busy)
    #expect(try Self.row(.text("x")).decode(String?.self, "missing") == nil)
    #expect(Self.row(.integer(1), .boolean)["v"] == .bool(true) && Self.row(.integer(1))["nope"] == nil)
  }

  /// A value that does not decode: the row, the key, the column, the expected type and the value.
  @Test func errorsNameRowKeyColumnAndValue() {
    let cases: [(SiftRow, (SiftRow) throws -> Void, String)] = [
      (
        Self.row(.text("yesterday"), .date, .iso8601), { _ = try $0.decode(Date.self, "v") },
        "row 4: key 'v' (column V_COL): expected Date, found text 'yesterday'"
      ),
      (
        Self.row(.integer(2), .boolean), { _ = try $0.decode(Bool.self, "v") },
        "row 4: key 'v' (column V_COL): expected Bool, found integer 2"
      ),
      (
        Self.row(.integer(70_000), .integer), { _ = try $0.decode(Int16.self, "v") },
        "row 4: key 'v' (column V_COL): expected Int16, found integer 70000"
      ),
      (
        Self.row(.null, .string), { _ = try $0.decode(String.self, "v") },
        "row 4: key 'v' (column V_COL): expected String, found NULL"
      ),
      (
        Self.row(.text("not-a-uuid")), { _ = try $0.decode(UUID.self, "v") },
        "row 4: key 'v' (column V_COL): expected UUID, found text 'not-a-uuid'"
      ),
      (
        Self.row(.text("[1, \"x\"]"), .integerArray, storage: .json), { _ = try $0.decode([Int].self, "v") },
        "row 4: key 'v[1]' (column V_COL): expected Int, found string \"x\""
      ),
      (
        Self.row(.text("a")), { _ = try $0.decode(Int.self, "w") },
        "row 4: no column for key 'w' (columns: v)"
      ),
    ]
    for (row, decode, message) in cases {
      do {
        try decode(row)
        Issue.record("decoded: \(message)")
      } catch let error as SiftError {
        #expect(error.diagnostic.message == message)
        #expect(error.diagnostic.id.hasPrefix("decode-"))
      } catch {
        Issue.record("\(error)")
      }
    }
    struct Note: Decodable { var title: String; var pages: Int }
    let columns = SiftRowColumns(names: ["title", "pages"], codecs: [])
    do {
      _ = try columns.decode([[.text("a"), .integer(1)], [.text("b"), .text("many")]], as: Note.self)
      Issue.record("decoded")
    } catch {
      #expect("\(error)".contains("row 1: key 'pages' (column pages): expected Int, found text 'many'"), "\(error)")
    }
  }
}
