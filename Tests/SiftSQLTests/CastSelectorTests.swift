import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// CAST between kinds and the `FUNCTION` selectors of `SiftSelector`'s table: memory, SQLite
/// and PostgreSQL give the same answers (Grammar/notes/sql.md, "CAST and selectors").
@Suite("CAST between kinds and FUNCTION selectors, three ways")
struct CastSelectorTests {
  static let schemaJSON = """
    {"entities": {"Row": {"table": "row", "attributes": {"s": "string", "n": "integer", "x": "double",
      "flag": "boolean", "when": "date", "day": "string", "tags": "stringArray"}}}}
    """
  static let schema: SQLSchema? = try? SQLSchema(json: schemaJSON)

  static func date(_ seconds: Double) -> SiftValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

  /// Text, numbers and dates at the edges of each rule (`day` holds ISO text only).
  static let records: [SiftValue] = [
    ["s": "42", "n": 42, "x": 0.1, "flag": true, "when": date(0), "day": "2024-03-01", "tags": ["a", "b"]],
    [
      "s": " 2.50 ", "n": -7, "x": 1e-05, "flag": false, "when": date(730_000_000.25),
      "day": "2024-03-01T09:30:00.250Z",
      "tags": [],
    ],
    ["s": "1e-05", "n": 0, "x": 1_234_567_890_123_456.5, "when": date(-1e9), "day": "2024-03-01 09:30+02:00"],
    [
      "s": "abc", "n": -9_223_372_036_854_775_808, "x": 1e20, "flag": true, "when": date(1.5),
      "day": "1999-12-31T23:59:59.999999Z", "tags": ["x"],
    ],
    ["s": "", "n": 9_223_372_036_854_775_807, "x": 3.0, "flag": false, "day": "2000-02-29T00:00:00-05:30"],
    ["s": "-0", "x": -0.0, "when": date(86_400), "day": "0001-01-01T00:00:00Z"],
    ["s": "\t7\u{3000}", "n": 5, "x": 0.30000000000000004, "day": "9999-12-31T23:59:60Z"],
    ["s": "😀é", "n": 1, "x": 123.456, "day": "2024-03-01T09:30:00.1234567890123456789Z"],
    ["s": "1e400", "x": -7.25, "day": "2024-03-01T09:30+0530"],
    ["s": "0x10", "x": 2_500_000_000_000_000.5, "day": "2024-03-01T09:30:00+05:"],
    ["s": "inf", "x": 1e-300],
    ["s": "+.5e1", "x": -1e16],
    ["s": "5.", "x": 9_007_199_254_740_992.0],
    ["s": "-1e-400"],
    [:],
  ]

  /// Expressions whose value memory computes per record; each record's value, compared back
  /// with `==`, must select the same records in every engine.
  static let expressions: [String] = [
    "CAST(x, 'NSString')", "CAST(n, 'NSString')", "CAST(flag, 'NSString')", "CAST(s, 'NSNumber')",
    "CAST(flag, 'NSNumber')", "CAST(when, 'NSNumber')", "CAST(x, 'NSDate')", "CAST(n, 'NSDate')",
    "CAST(day, 'NSDate')", "CAST(CAST(day, 'NSDate'), 'NSNumber')", "CAST(CAST(s, 'NSNumber'), 'NSString')",
    "CAST(CAST(x, 'NSString'), 'NSNumber')", "FUNCTION(s, 'uppercaseString')", "FUNCTION(s, 'lowercaseString')",
    "FUNCTION(s, 'length')", "FUNCTION(x, 'stringValue')", "FUNCTION(n, 'description')", "FUNCTION(s, 'description')",
    "FUNCTION(x, 'intValue')", "FUNCTION(s, 'integerValue')", "FUNCTION(flag, 'longLongValue')",
    "FUNCTION(n, 'doubleValue')", "FUNCTION(s, 'floatValue')", "FUNCTION(x, 'boolValue')", "FUNCTION(s, 'boolValue')",
    "FUNCTION(flag, 'boolValue')", "FUNCTION(when, 'timeIntervalSinceReferenceDate')",
    "FUNCTION(when, 'timeIntervalSince1970')", "FUNCTION(day, 'timeIntervalSince1970')", "FUNCTION(tags, 'count')",
    "FUNCTION(when, 'intValue')", "FUNCTION(x, 'timeIntervalSinceReferenceDate')", "CAST(x / 0.0 * 0, 'NSString')",
    "FUNCTION(x / 0.0 * 0, 'stringValue')", "CAST(x / 0.0, 'NSString')",
  ]

  @Test(arguments: expressions)
  func everyRecordsValueSelectsTheSameRecords(_ format: String) throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records)
    let evaluator = try SiftExpression(format: format).compile()
    var seen: Set<String> = []
    for record in Self.records {
      let v = try evaluator.value(with: record)
      guard seen.insert(SiftJSON.serialize(v)).inserted else { continue }
      let p =
        v == .null ? try SiftPredicate(format: format + " == nil") : try SiftPredicate(format: format + " == %@", v)
      if let failure = engines.check(p, label: "\(format) == \(SiftJSON.serialize(v))") {
        Issue.record("\(failure.report)")
      }
      if case .matches(let m) = engines.outcomes(p).memory { #expect(!m.isEmpty || v == .null, "\(format)") }
    }
  }

  /// Date casts read and make dates in every encoding a schema may store them in.
  @Test(arguments: ["secondsSince1970", "secondsSince2001", "millisecondsSince1970", "iso8601", "sqliteDateTime"])
  func dateCastsInEveryEncoding(_ encoding: String) throws {
    let json = Self.schemaJSON.replacingOccurrences(
      of: "\"when\": \"date\"", with: "\"when\": {\"type\": \"date\", \"dateEncoding\": \"\(encoding)\"}")
    let schema = try SQLSchema(json: json)
    // Tables Sift makes on PostgreSQL store dates as numbers (text encodings are SQLite's).
    let text = encoding == "iso8601" || encoding == "sqliteDateTime"
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: !text)
    for format in [
      "CAST(when, 'NSNumber')", "FUNCTION(when, 'timeIntervalSince1970')", "CAST(CAST(x, 'NSDate'), 'NSNumber')",
      "CAST(day, 'NSDate')", "FUNCTION(when, 'intValue')",
    ] {
      let evaluator = try SiftExpression(format: format).compile()
      for record in Self.records {
        let v = try evaluator.value(with: record)
        let p =
          v == .null ? try SiftPredicate(format: format + " == nil") : try SiftPredicate(format: format + " == %@", v)
        if let failure = engines.check(p, label: "\(encoding): \(format)") { Issue.record("\(failure.report)") }
      }
    }
    for format in ["CAST(x, 'NSDate') < when", "CAST(day, 'NSDate') > when", "CAST(n, 'NSDate') == when"] {
      let p = try SiftPredicate(format: format)
      if let failure = engines.check(p, label: "\(encoding): \(format)") { Issue.record("\(failure.report)") }
    }
  }

  /// The rules themselves, in memory (each also runs three ways): record indices that match.
  static let cases: [(String, [Int])] = [
    ("CAST(x, 'NSString') == '0.1'", [0]), ("CAST(x, 'NSString') == '1e-05'", [1]),
    ("CAST(x, 'NSString') == '1234567890123456.5'", [2]), ("CAST(x, 'NSString') == '1e+20'", [3]),
    ("CAST(x, 'NSString') == '3'", [4]), ("CAST(x, 'NSString') == '0'", [5]),
    ("CAST(x, 'NSString') == '-10000000000000000'", [11]), ("CAST(x, 'NSString') == '1e-300'", [10]),
    ("CAST(s, 'NSNumber') == 42", [0]), ("CAST(s, 'NSNumber') == 2.5", [1]), ("CAST(s, 'NSNumber') == 7", [6]),
    ("CAST(s, 'NSNumber') == nil", [3, 4, 7, 9, 10, 14]), ("CAST(s, 'NSNumber') == 5", [11, 12]),
    ("CAST(s, 'NSNumber') > 1e308", [8]), ("CAST(s, 'NSNumber') == 0", [5, 13]),
    ("FUNCTION(s, 'length') == 3", [3, 6, 7, 10]), ("FUNCTION(s, 'length') == 6", [1]),
    ("FUNCTION(s, 'length') == 0", [4]),
    ("FUNCTION(x, 'intValue') == 3", [4]), ("FUNCTION(x, 'intValue') == -7", [8]),
    ("FUNCTION(s, 'boolValue') == YES", [0, 1, 2, 6, 8, 11, 12]), ("FUNCTION(s, 'boolValue') == NO", [5, 13]),
    ("FUNCTION(when, 'timeIntervalSince1970') == 978307200", [0]), ("FUNCTION(tags, 'count') == 2", [0]),
    ("CAST(day, 'NSDate') == CAST('2024-03-01T07:30:00Z', 'NSDate')", [2]), ("CAST(0, 'NSDate') == when", [0]),
    ("CAST(x, 'NSDate') < CAST(1, 'NSDate')", [0, 1, 5, 6, 8, 10, 11]),
    ("FUNCTION(s, 'uppercaseString') == 'ABC'", [3]), ("FUNCTION(flag, 'stringValue') == '1'", [0, 3]),
  ]

  @Test(arguments: cases)
  func rule(_ format: String, _ expected: [Int]) throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records)
    let p = try SiftPredicate(format: format)
    #expect(engines.outcomes(p).memory == .matches(expected), "\(format)")
    if let failure = engines.check(p, label: format) { Issue.record("\(failure.report)") }
  }

  /// Integer arithmetic that overflows is a double in memory and in SQLite, and its text is
  /// memory's (fuzz: differential, Regressions/differential/cast-of-overflowed-integer-to-text):
  /// SQLite's own `CAST(… AS TEXT)` wrote `9.22337203685478e+18`. PostgreSQL fails on the
  /// overflow itself ("bigint out of range"), so it is left out.
  @Test(arguments: [
    ("CAST(n + 1, 'NSString') == '9.223372036854776e+18'", [4]),
    ("CAST(n - 1, 'NSString') == '-9223372036854775808'", [3]),
    ("FUNCTION(n * 2, 'stringValue') == '1.8446744073709552e+19'", [4]),
    ("CAST(n + 0, 'NSString') == '-7'", [1]),
  ])
  func overflowedIntegerText(_ format: String, _ expected: [Int]) throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: false)
    let (memory, sqlite, _) = engines.outcomes(try SiftPredicate(format: format))
    #expect(memory == .matches(expected) && sqlite == .matches(expected), "\(format): \(memory), \(sqlite)")
  }

  /// A NaN cast to a date is a date NaN seconds from 2001, not nil, in SQLite as in memory,
  /// though SQLite stores the NaN as NULL (fuzz: differential and native,
  /// Regressions/differential/nan-cast-to-a-date-is-not-nil); its text is `nan`. PostgreSQL
  /// fails on `sqrt` of a negative number, so it is left out.
  @Test(arguments: [
    ("CAST(sqrt(x), 'NSDate') == nil", [13, 14]), ("CAST(sqrt(x), 'NSDate') != nil", Array(0...12)),
    ("CAST(CAST(sqrt(x), 'NSDate'), 'NSString') == 'nan'", [8, 11]),
    ("CAST(CAST(sqrt(x), 'NSDate'), 'NSNumber') == nil", [13, 14]),
    ("FUNCTION(sqrt(x), 'timeIntervalSince1970') == nil", [13, 14]),
    ("CAST(sqrt(x), 'NSDate') == CAST(sqrt(x), 'NSDate')", [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 14]),
  ])
  func nanDateIsNotNil(_ format: String, _ expected: [Int]) throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: false)
    let (memory, sqlite, _) = engines.outcomes(try SiftPredicate(format: format))
    #expect(memory == .matches(expected) && sqlite == .matches(expected), "\(format): \(memory), \(sqlite)")
  }

  /// Errors name the selector and carry one id in every engine.
  @Test(arguments: [
    ("FUNCTION(s, 'reversedString') == 'x'", "unknown-function", "reversedString"),
    ("FUNCTION(s, 'length', 1) == 1", "wrong-argument-count", "length"),
    ("FUNCTION(n, 'length') == 1", "not-a-string", "length"),
    ("FUNCTION(n, 'uppercaseString') == 'A'", "not-a-string", "uppercase"),
  ])
  func refusals(_ format: String, _ id: String, _ named: String) throws {
    let schema = try #require(Self.schema)
    let p = try SiftPredicate(format: format)
    let records = try JSONRecords.records(from: .array(Self.records))
    do {
      _ = try p.compile().matchingIndices(records)
      Issue.record("memory ran \(format)")
    } catch {
      #expect(error.diagnostic.id == id && error.diagnostic.message.contains(named), "\(error)")
    }
    for dialect in [SQLiteDialect() as any SQLDialect, PostgreSQLDialect()] {
      do {
        _ = try SQLCompiler(dialect: dialect, schema: schema).compileMatchingIndices(p, entity: "Row")
        Issue.record("\(dialect.name) compiled \(format)")
      } catch {
        #expect(error.diagnostic.id == id && error.diagnostic.message.contains(named), "\(dialect.name): \(error)")
      }
    }
  }

  /// `CAST(date, "NSString")` runs in memory and SQLite; PostgreSQL refuses it by name.
  @Test func postgresRefusesDateText() throws {
    let schema = try #require(Self.schema)
    let p = try SiftPredicate(format: "CAST(when, 'NSString') == '2001-01-01T00:00:00Z'")
    let lite = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
    #expect(lite.sql.contains("sift_date_text("), "\(lite.sql)")
    do {
      _ = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
      Issue.record("PostgreSQL compiled \(p.source)")
    } catch {
      #expect(error.diagnostic.id == "unsupported-in-sql" && error.diagnostic.message.contains("NSString"), "\(error)")
    }
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: false)
    #expect(engines.outcomes(p).sqlite == .matches([0]))
    if let failure = engines.check(p, label: p.source) { Issue.record("\(failure.report)") }
  }

  /// Text that is no date fails in every engine (a run-time error in SQL).
  @Test func textThatIsNoDateFails() throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records)
    let (memory, sqlite, postgres) = engines.outcomes(try SiftPredicate(format: "CAST(s, 'NSDate') == nil"))
    guard case .failed(let m) = memory, case .failed(let l) = sqlite else {
      Issue.record("memory \(memory), SQLite \(sqlite)")
      return
    }
    #expect(m.hasPrefix("invalid-cast") && l.contains("is not a date"), "\(m) | \(l)")
    if let postgres {
      guard case .failed(let g) = postgres else { return #expect(Bool(false), "PostgreSQL \(postgres)") }
      #expect(g.contains("is not a date"), "\(g)")
    }
  }

  /// A function registered under a selector of the table wins in memory, and only there: SQL
  /// compiles the table's meaning whatever memory has registered.
  @Test func registeredSelectorNameWinsInMemoryOnly() throws {
    let schema = try #require(Self.schema)
    var registry = FunctionRegistry()
    registry.register("length") { _, _ in .int(99) }
    let p = try SiftPredicate(format: "FUNCTION(s, 'length') == 99")
    let records = try JSONRecords.records(from: .array(Self.records))
    #expect(try p.compile(EvaluationOptions(functions: registry)).matchingIndices(records).count == records.count)
    #expect(try p.compile().matchingIndices(records).isEmpty)
    let st = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
    #expect(st.sql.contains("sift_utf16_length("), "\(st.sql)")
  }

  /// The canonical printer keeps `FUNCTION(x, "selector")`, which parses back to the same tree.
  @Test func selectorsPrintAsWritten() throws {
    for name in SiftSelector.allCases.map(\.selector) {
      let p = try SiftPredicate(format: "FUNCTION(s, '\(name)') != nil")
      #expect(p.predicateFormat == "FUNCTION(s, \"\(name)\") != nil")
      #expect(try SiftPredicate(format: p.predicateFormat).root == p.root)
    }
  }

  /// PostgreSQL's `CAST(text, "NSNumber")` is a double precision (Grammar/notes/sql.md, "Known
  /// differences"): integer text beyond 2^53 rounds there, where memory and SQLite keep it.
  @Test(.enabled(if: PostgresTestServer.isAvailable, "SIFT_POSTGRES is set"))
  func postgresTextNumberIsADouble() throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: [["s": "9007199254740993"], ["s": "12"]])
    let p = try SiftPredicate(format: "CAST(s, 'NSNumber') == 9007199254740993")
    let (memory, sqlite, postgres) = engines.outcomes(p)
    #expect(memory == .matches([0]) && sqlite == .matches([0]) && postgres == .matches([]))
    let q = try SiftPredicate(format: "CAST(s, 'NSNumber') / 5 == 2")
    #expect(engines.outcomes(q).sqlite == .matches([1]) && engines.outcomes(q).postgres == .matches([]))
  }
}
