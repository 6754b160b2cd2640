import Foundation
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftSQL

/// `SQLColumnCodec`: one rule for storing and reading each attribute's values, and no date,
/// however far, traps.
@Suite struct ValueCodecTests {
  static let schema = try! SQLSchema(entities: [
    SQLEntity(name: "E", attributes: [SQLAttribute(name: "x", type: .string)])
  ])
  static let d = Date(timeIntervalSince1970: 1_704_450_600.25)  // 2024-01-05T10:30:00.250Z

  static func codec(
    _ type: SQLAttributeType, _ encoding: SQLDateEncoding? = nil, native: String? = nil,
    storage: SQLArrayStorage? = nil,
    postgres: Bool = false
  ) -> SQLColumnCodec {
    let a = SQLAttribute(
      name: "v", column: "V", type: type, nativeType: native, dateEncoding: encoding, arrayStorage: storage)
    return SQLColumnCodec(a, schema: schema, dialect: postgres ? PostgreSQLDialect() : SQLiteDialect())
  }

  /// Far, infinite and NaN dates through every encoding: a value or `date-out-of-range`.
  @Test func farDatesGiveAnAnswerOrAClearError() {
    let cases: [(Double, Set<SQLDateEncoding>)] = [  // seconds since 1970, the encodings that store it
      (0, Set(SQLDateEncoding.allCases)),
      (-62_167_219_200, Set(SQLDateEncoding.allCases)),  // 0000-01-01
      (253_402_300_799.999, Set(SQLDateEncoding.allCases)),  // rounds to 10000-01-01 in text
      (253_402_300_800, [.unixSeconds, .referenceDateSeconds, .unixMilliseconds]),
      (-62_167_219_201, [.unixSeconds, .referenceDateSeconds, .unixMilliseconds]),
      (1e15, [.unixSeconds, .referenceDateSeconds, .unixMilliseconds]),
      (1e300, [.unixSeconds, .referenceDateSeconds, .unixMilliseconds]),
      (-1e300, [.unixSeconds, .referenceDateSeconds, .unixMilliseconds]),
      (1e307, [.unixSeconds, .referenceDateSeconds]),  // milliseconds overflow to infinity
      (.greatestFiniteMagnitude, [.unixSeconds, .referenceDateSeconds]),
      (.infinity, []), (-.infinity, []), (.nan, []),
    ]
    for (seconds, stored) in cases {
      for encoding in SQLDateEncoding.allCases {
        let date = Date(timeIntervalSince1970: seconds)
        do {
          let v = try encoding.sqlValue(date)
          #expect(stored.contains(encoding), "\(seconds) \(encoding): \(v)")
        } catch {
          #expect(!stored.contains(encoding), "\(seconds) \(encoding): \(error)")
          #expect(error.diagnostic.id == "date-out-of-range")
        }
        // Through a codec and an integer column too.
        let codec = Self.codec(.date, encoding, native: "INTEGER")
        #expect(((try? codec.encode(.date(date))) != nil) == stored.contains(encoding), "\(seconds) \(encoding) codec")
      }
    }
  }

  /// The compiler binds a far date against each column form, or refuses it clearly.
  @Test func farDatesInCompiledSQL() throws {
    for encoding in SQLDateEncoding.allCases {
      for postgres in [false, true] {
        let schema = try SQLSchema(
          entities: [
            SQLEntity(
              name: "E",
              attributes: [
                SQLAttribute(
                  name: "at", type: .date, nativeType: encoding == .native ? "timestamptz" : nil, dateEncoding: encoding
                )
              ])
          ], layout: .existing)
        let compiler = SQLCompiler(dialect: postgres ? PostgreSQLDialect() : SQLiteDialect(), schema: schema)
        for seconds in [1e300, -1e300, Double.nan] {
          for format in ["at > %@", "at == %@", "at IN %@", "%@ < at"] {
            let arg: SiftValue =
              format.contains("IN")
              ? .array([.date(Date(timeIntervalSince1970: seconds))]) : .date(Date(timeIntervalSince1970: seconds))
            let p = try SiftPredicate(format: format, arguments: [arg])
            do {
              _ = try compiler.compileWhere(p, entity: "E")
            } catch {
              #expect(error.diagnostic.id == "date-out-of-range", "\(encoding) \(format) \(seconds): \(error)")
            }
          }
        }
      }
    }
    let text = try SQLSchema(
      entities: [SQLEntity(name: "E", attributes: [SQLAttribute(name: "at", type: .date, dateEncoding: .iso8601)])],
      layout: .existing)
    expectSiftError(id: "date-out-of-range", stage: .sql, at: 0) {
      try SQLCompiler(dialect: SQLiteDialect(), schema: text)
        .compileWhere(
          try SiftPredicate(format: "at > %@", arguments: [.date(Date(timeIntervalSince1970: 1e300))]), entity: "E")
    }
  }

  /// A batch update writes a date in the column's own form, and a far one is a clear error.
  @Test func batchUpdatesUseTheColumnsForm() throws {
    let schema = try SQLSchema(
      entities: [
        SQLEntity(
          name: "E",
          attributes: [
            SQLAttribute(name: "iso", type: .date, dateEncoding: .iso8601),
            SQLAttribute(name: "core", type: .date, dateEncoding: .referenceDateSeconds),
          ])
      ], layout: .existing)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let st = try compiler.compile(
      BatchUpdateRequest(
        entity: "E",
        assignments: [
          ("iso", .value(.date(Self.d))), ("core", .value(.date(Date(timeIntervalSinceReferenceDate: 60)))),
        ]))
    #expect(st.bindings == [.text("2024-01-05T10:30:00.250Z"), .double(60)])
    for seconds in [1e300, -1e300, Double.nan] {
      do {
        _ = try compiler.compile(
          BatchUpdateRequest(entity: "E", assignments: [("iso", .value(.date(Date(timeIntervalSince1970: seconds))))]))
        Issue.record("\(seconds) was written")
      } catch {
        #expect(error.diagnostic.id == "date-out-of-range", "\(error)")
      }
    }
  }

  /// Storing: each column's own encoding, precision and boolean form.
  @Test func encodeTable() throws {
    let cases: [(SQLColumnCodec, SiftValue, SQLValue)] = [
      (Self.codec(.date, .referenceDateSeconds), .date(Date(timeIntervalSinceReferenceDate: 60)), .double(60)),
      (Self.codec(.date, .unixSeconds), .date(Self.d), .double(1_704_450_600.25)),
      (Self.codec(.date, .unixSeconds, native: "INTEGER"), .date(Date(timeIntervalSince1970: 5)), .integer(5)),
      (Self.codec(.date, .unixSeconds, native: "INTEGER"), .date(Self.d), .double(1_704_450_600.25)),
      (Self.codec(.date, .unixMilliseconds, native: "bigint"), .date(Self.d), .integer(1_704_450_600_250)),
      (Self.codec(.date, .iso8601), .date(Self.d), .text("2024-01-05T10:30:00.250Z")),
      (Self.codec(.date, .iso8601), .date(Date(timeIntervalSince1970: 1_704_450_600)), .text("2024-01-05T10:30:00Z")),
      (Self.codec(.date, .sqliteDateTime), .date(Self.d), .text("2024-01-05 10:30:00.250")),
      (Self.codec(.date, .isoDate), .date(Self.d), .text("2024-01-05")),
      (
        Self.codec(.date, .native, native: "timestamptz", postgres: true), .date(Self.d),
        .text("2024-01-05T10:30:00.250Z")
      ),
      (Self.codec(.date), .date(Date(timeIntervalSince1970: 7)), .double(7)),  // the schema's encoding
      (Self.codec(.boolean), .bool(true), .integer(1)),
      (Self.codec(.boolean), .int(0), .integer(0)),
      (Self.codec(.boolean, postgres: true), .bool(true), .bool(true)),
      (Self.codec(.boolean, postgres: true), .int(1), .bool(true)),
      (Self.codec(.integer), .bool(true), .integer(1)),
      (Self.codec(.double), .int(3), .double(3)),
      (Self.codec(.string), .null, .null),
      (
        Self.codec(.stringArray, storage: .json), .array([.string("a"), .string("b")]),
        .text(SiftJSON.serialize(.array([.string("a"), .string("b")])))
      ),
    ]
    for (codec, value, stored) in cases {
      #expect(try codec.encode(value) == stored, "\(codec.dateEncoding?.rawValue ?? codec.type.rawValue) \(value)")
    }
    // Strict by default, lenient for SQLite's any-kind columns.
    expectSiftError(id: "value-not-storable", stage: .sql) { try Self.codec(.integer).encode(.string("7")) }
    expectSiftError(id: "value-not-storable", stage: .sql) { try Self.codec(.boolean).encode(.int(2)) }
    #expect(try Self.codec(.integer).encode(.string("7"), lenient: true) == .text("7"))
    do {
      _ = try Self.codec(.date, .iso8601).encode(.string("soon"))
      Issue.record("a string is not a date")
    } catch {
      #expect(error.diagnostic.message == "v: expected date, found string")
    }
  }

  /// Reading: every date encoding, PostgreSQL's date output, booleans, arrays.
  @Test func decodeTable() {
    let cases: [(SQLColumnCodec, SQLValue, SiftValue)] = [
      (Self.codec(.date, .referenceDateSeconds), .double(60), .date(Date(timeIntervalSinceReferenceDate: 60))),
      (
        Self.codec(.date, .referenceDateSeconds), .integer(-86_400),
        .date(Date(timeIntervalSinceReferenceDate: -86_400))
      ),
      (Self.codec(.date, .unixSeconds), .double(1_704_450_600.25), .date(Self.d)),
      (Self.codec(.date, .unixMilliseconds), .integer(1_704_450_600_250), .date(Self.d)),
      (Self.codec(.date, .iso8601), .text("2024-01-05T10:30:00.250Z"), .date(Self.d)),
      (Self.codec(.date, .iso8601), .text("2024-01-05T10:30:00.25Z"), .date(Self.d)),
      (Self.codec(.date, .iso8601), .text("2024-01-05T10:30Z"), .date(Date(timeIntervalSince1970: 1_704_450_600))),
      (Self.codec(.date, .iso8601), .text("2024-01-05T12:30:00.25+02:00"), .date(Self.d)),
      (Self.codec(.date, .sqliteDateTime), .text("2024-01-05 10:30:00.250"), .date(Self.d)),
      (
        Self.codec(.date, .sqliteDateTime), .text("2024-01-05 10:30:00"),
        .date(Date(timeIntervalSince1970: 1_704_450_600))
      ),
      (Self.codec(.date, .isoDate), .text("2024-01-05"), .date(Date(timeIntervalSince1970: 1_704_412_800))),
      (Self.codec(.date, .native, native: "timestamptz"), .text("2024-01-05 10:30:00.25+00"), .date(Self.d)),
      (Self.codec(.date, .native, native: "timestamptz"), .text("2024-01-05 16:00:00.25+0530"), .date(Self.d)),
      (Self.codec(.date, .native, native: "timestamp"), .text("2024-01-05 10:30:00.25"), .date(Self.d)),
      (
        Self.codec(.date, .native, native: "date"), .text("2024-01-05"),
        .date(Date(timeIntervalSince1970: 1_704_412_800))
      ),
      // No date: as stored.
      (Self.codec(.date, .native, native: "timestamptz"), .text("infinity"), .string("infinity")),
      (Self.codec(.date, .iso8601), .null, .null),
      (Self.codec(.boolean), .integer(1), .bool(true)),
      (Self.codec(.boolean), .integer(0), .bool(false)),
      (Self.codec(.boolean, postgres: true), .bool(false), .bool(false)),
      (Self.codec(.boolean), .integer(2), .int(2)),
      (
        Self.codec(.stringArray, storage: .nativeArray), .text("{a,\"b c\",NULL,\"q\\\"d\"}"),
        .array([.string("a"), .string("b c"), .null, .string("q\"d")])
      ),
      (Self.codec(.integerArray, storage: .nativeArray), .text("{1,-2}"), .array([.int(1), .int(-2)])),
      (Self.codec(.doubleArray, storage: .json), .text("[1, 2.5]"), .array([.double(1), .double(2.5)])),
      (Self.codec(.stringArray, storage: .json), .text("[]"), .array([])),
      (Self.codec(.string), .text("x"), .string("x")),
    ]
    for (codec, stored, value) in cases {
      #expect(codec.decode(stored) == value, "\(codec.dateEncoding?.rawValue ?? codec.type.rawValue) \(stored)")
    }
    #expect(SQLColumnCodec.plain(.bool(true)) == .bool(true) && SQLColumnCodec.plain(.integer(1)) == .int(1))
  }

  /// The loader stores dates in each attribute's encoding (not always the schema's).
  @Test func loaderUsesTheCodec() throws {
    let schema = try SQLSchema(
      entities: [
        SQLEntity(
          name: "E",
          attributes: [
            SQLAttribute(name: "at", type: .date),
            SQLAttribute(name: "ms", type: .date, dateEncoding: .unixMilliseconds),
            SQLAttribute(name: "flag", type: .boolean),
          ])
      ], dateEncoding: .referenceDateSeconds)
    let loader = SQLDataLoader(schema: schema, dialect: SQLiteDialect())
    let record: SiftValue = .dictionary([
      "id": .int(1), "at": .date(Date(timeIntervalSinceReferenceDate: 9)), "ms": .date(Self.d), "flag": .bool(true),
    ])
    let st = try loader.insertStatements(for: [record], entity: "E")
    #expect(st.first?.bindings.prefix(4) == [.integer(1), .double(9), .double(1_704_450_600_250), .integer(1)])
    do {
      _ = try loader.insertStatements(for: [.dictionary(["at": .date(Date(timeIntervalSince1970: .nan))])], entity: "E")
      Issue.record("a NaN date loaded")
    } catch {
      #expect(error.diagnostic.id == "load-error" && error.diagnostic.message.hasPrefix("record 0.at: "), "\(error)")
    }
  }
}
