import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// SQLite's typed fetch (`db.fetch(_:as:)`, which reads common types straight from the
/// statement) gives exactly what the general row decoder gives over the same rows
/// (`SiftRowColumns.decode` of `execute`): the same values, and the same error for a value
/// that does not decode — over every storage class in every kind of column, required and
/// optional fields, keys out of column order, missing keys and other Swift types.
@Suite struct SQLiteRowDecoderTests {
  static let schema = try! SQLSchema(entities: [
    SQLEntity(
      name: "T", table: "t",
      attributes: [
        SQLAttribute(name: "s", type: .string), SQLAttribute(name: "i", type: .integer),
        SQLAttribute(name: "d", type: .double), SQLAttribute(name: "b", type: .boolean),
        SQLAttribute(name: "u", type: .date), SQLAttribute(name: "iso", type: .date, dateEncoding: .iso8601),
        SQLAttribute(name: "ms", type: .date, dateEncoding: .unixMilliseconds),
        SQLAttribute(name: "ref", type: .date, dateEncoding: .referenceDateSeconds),
      ])
  ])

  /// Columns without a declared type keep each value's storage class.
  static let rows = [
    "'a', 1, 1.5, 1, 1700000000.25, '2024-01-05T10:30:00.250Z', 1704450600250, 725000000.5",
    "'b', 2, 2, 0, 1700000000, '2024-01-05 10:30', 1704450600250.0, 725000000",
    "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",
    "'', 9223372036854775807, -0.0, 2, '2024-01-05T10:30:00Z', 1700000000, '2024-01-05', 'x'",
    "x'0102', 'seven', 'eight', 'yes', 'soon', 'yesterday', 'later', x'00'",
    "'é', 2.5, '1.5', 1.0, -1, '2024-02-30', -5, 0",
  ]

  static func database() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, s, i, d, b, u, iso, ms, ref);")
    // The first three rows are stored as the schema describes them; the fetch after them runs the
    // schema's storage check (once per connection: `SQLSchema.checkStorage`), so the rows added
    // later — stored otherwise on purpose — reach the decoders instead of being refused up front.
    for (n, values) in rows.enumerated() {
      try db.executeScript("INSERT INTO t VALUES (\(n + 1), \(values));")
      if n == 2 { _ = try db.fetchCount(SiftFetchRequest(entity: "T"), schema: schema) }
    }
    return db
  }

  struct Required: Decodable, Equatable {
    var id: Int; var s: String; var i: Int; var d: Double; var b: Bool; var u: Date; var iso: Date; var ms: Date;
    var ref: Date
  }
  struct Optionals: Decodable, Equatable {
    var id: Int64?; var s: String?; var i: Int?; var d: Double?; var b: Bool?; var u: Date?; var iso: Date?;
    var ms: Date?
    var ref: Date?
  }
  /// Keys in another order than the columns, and a key no column has.
  struct Reordered: Decodable, Equatable {
    var ref: Date?; var b: Bool?; var nope: String?; var s: String?; var id: Int
  }
  struct Missing: Decodable, Equatable { var id: Int; var nope: Int }
  /// Types the fast path leaves to the general decoder, and columns read as another type.
  struct Others: Decodable, Equatable {
    var i: Int16?; var d: Float?; var b: Int?; var u: Double?; var iso: String?; var s: Data?; var ms: URL?
    var ref: Decimal?
  }

  /// Decoded values, or the error's text.
  enum Outcome<T: Equatable>: Equatable {
    case values([T])
    case failed(String)
  }

  /// The general decoder's answer.
  func general<T: Decodable>(
    _ db: SQLiteDatabase, _ request: SiftFetchRequest, _ type: T.Type, schema: SQLSchema
  ) -> Outcome<T> {
    do {
      let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
      let rows = try db.execute(try compiler.compileForDecoding(request))
      return .values(try compiler.resultColumns(for: request).decode(rows, as: type))
    } catch {
      return .failed("\(error)")
    }
  }

  func fast<T: Decodable>(_ db: SQLiteDatabase, _ request: SiftFetchRequest, _ type: T.Type, schema: SQLSchema?)
    -> Outcome<T>
  {
    do { return .values(try db.fetch(request, as: type, schema: schema)) } catch { return .failed("\(error)") }
  }

  /// Compares both decoders on each row and the whole table; returns how many rows decoded
  /// and how many fetches failed.
  func check<T: Decodable & Equatable>(
    _ type: T.Type, _ db: SQLiteDatabase, _ introspected: SQLSchema
  ) throws -> (decoded: Int, failed: Int) {
    var decoded = 0
    var failed = 0
    for (entity, schema, given) in [("T", Self.schema, Self.schema as SQLSchema?), ("t", introspected, nil)] {
      // Each row alone (row 0), then the whole table (the first failing row's number).
      var requests = (1...Self.rows.count).map {
        SiftFetchRequest(
          entity: entity, predicate: try! SiftPredicate(format: "id == %@", arguments: [.int(Int64($0))]))
      }
      requests.append(SiftFetchRequest(entity: entity, sortDescriptors: [SiftSortDescriptor("id")]))
      for request in requests {
        let expected = general(db, request, type, schema: schema)
        let got = fast(db, request, type, schema: given)
        #expect(got == expected, "\(T.self), \(entity), \(request.predicate?.source ?? "all")")
        switch got {
        case .values(let values): decoded += values.count
        case .failed: failed += 1
        }
      }
    }
    return (decoded, failed)
  }

  @Test func fastPathDecodesAsTheGeneralDecoder() throws {
    let db = try Self.database()
    let introspected = try db.introspectSchema().schema
    // Each type decodes some rows and refuses others, so both halves are compared.
    for (decoded, failed) in [
      try check(Required.self, db, introspected), try check(Optionals.self, db, introspected),
      try check(Reordered.self, db, introspected), try check(Others.self, db, introspected),
    ] {
      #expect(decoded > 0 && failed > 0)
    }
    #expect(try check(Missing.self, db, introspected).decoded == 0)
  }

  /// The first row, by hand: what the fast path reads for each type.
  @Test func readsEachCommonType() throws {
    let db = try Self.database()
    let first = try db.fetch(
      SiftFetchRequest(entity: "T", predicate: try SiftPredicate(format: "id == 1")), as: Required.self,
      schema: Self.schema)
    let d = Date(timeIntervalSince1970: 1_704_450_600.25)
    #expect(
      first == [
        Required(
          id: 1, s: "a", i: 1, d: 1.5, b: true, u: Date(timeIntervalSince1970: 1_700_000_000.25), iso: d, ms: d,
          ref: Date(timeIntervalSinceReferenceDate: 725_000_000.5))
      ])
  }
}
