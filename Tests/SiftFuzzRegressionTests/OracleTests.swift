import Foundation
import SiftColumnar
import SiftEvaluation
import SiftFuzzOracles
import SiftSQL
import SiftSyntax
import Testing

/// The oracles themselves: they accept good inputs, reject what they must reject, and the
/// fixed data they run against loads.
@Suite("Fuzz oracles")
struct OracleTests {
  @Test func fixedDataLoads() throws {
    #expect(FuzzData.records.count == 6)
    #expect(FuzzData.objects.count == 6)
    #expect(FuzzData.schema != nil)
    _ = try FuzzData.sqlite.get()
  }

  @Test(arguments: [
    "name == 'Blue Café'", "ANY tags == 'wifi' AND n > 0", "SUBQUERY(parts, $p, $p.vegan == YES).@count > 0",
    "name LIKE[c] '*bar'", "%K == %@", "x BETWEEN {0, 3}", "place.city ==[cd] 'munchen'", "n IN {3, -7}",
    "name MATCHES '(a+)+$'", "TRUEPREDICATE", "n + 1 > $LIMIT", "a ==", "", "((((", "\u{0}\u{FFFD}",
  ])
  func goodAndBadInputsPass(_ text: String) {
    for target in FuzzTarget.allCases {
      let failure = target.check(Array(text.utf8))
      #expect(failure == nil, "\(target): \(failure?.description ?? "")")
    }
  }

  /// The load target's saved seeds are JSON both readers read (else they would seed nothing).
  @Test func loadSeedsAreReadBothWays() throws {
    let dir = RegressionFile.root.appendingPathComponent("load")
    let seeds = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("seed-") }
    #expect(seeds.count >= 3)
    for name in seeds {
      let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
      for dates in LoadOracle.dateStrategies {
        #expect(throws: Never.self, "\(name)") { _ = try JSONRecords.values(bytes: bytes, dates: dates) }
        #expect(throws: Never.self, "\(name)") { _ = try SiftColumnarRecords(bytes: bytes, dates: dates) }
      }
      #expect(FuzzTarget.load.check(bytes) == nil, "\(name)")
    }
  }

  /// The regex target's input: pattern, subject unit, options; subjects up to 4 KB.
  @Test func regexInputsAreRead() {
    let (pattern, subjects, options) = RegexTimeOracle.parts("(a){2}\nxy\ncqd")
    #expect(pattern == "(a){2}")
    #expect(subjects == [String(repeating: "xy", count: 2048), String(repeating: "xy", count: 2048) + "b", "xy", ""])
    #expect(options == "[cd]")
    let plain = RegexTimeOracle.parts("(.*a){1000}b")
    #expect(plain.subjects[2] == "xa" && plain.options == "")
    // Issue 35's pattern: time-limit (or the answer) within the bound in both engines.
    #expect(RegexTimeOracle.check("(.*a){1000}b") == nil)
  }

  @Test(arguments: [
    ("name == ?", 1, [] as [Int]), ("\"?\" = ? AND '?''?' = ?", 2, []), ("a = $1 AND b = $12", 0, [1, 12]),
    ("'$1' = \"$2\"", 0, []),
  ])
  func placeholderScanner(_ sql: String, _ anonymous: Int, _ numbered: [Int]) {
    let found = SQLOracle.placeholders(in: sql)
    #expect(found.anonymous == anonymous)
    #expect(found.numbered == numbered)
  }

  @Test func placeholderMismatchIsReported() {
    let sqlite = SQLiteDialect()
    let postgres = PostgreSQLDialect()
    #expect(SQLOracle.placeholderProblem(SQLStatement(sql: "a = ?", bindings: [.integer(1)]), dialect: sqlite) == nil)
    #expect(
      SQLOracle.placeholderProblem(SQLStatement(sql: "a = ? OR b = ?", bindings: [.integer(1)]), dialect: sqlite) != nil
    )
    #expect(
      SQLOracle.placeholderProblem(SQLStatement(sql: "a = $1 OR b = $1", bindings: [.integer(1)]), dialect: postgres)
        == nil)
    #expect(
      SQLOracle.placeholderProblem(SQLStatement(sql: "a = $2", bindings: [.integer(1)]), dialect: postgres) != nil)
    #expect(
      SQLOracle.placeholderProblem(
        SQLStatement(sql: "a = $1", bindings: [.integer(1), .integer(2)]), dialect: postgres) != nil)
  }

  @Test func outcomesAgreeWhenEqualBothFailedOrRefused() {
    typealias O = DifferentialOracle.Outcome
    #expect(O.matches([1, 2]).agrees(with: .matches([1, 2])))
    #expect(!O.matches([1, 2]).agrees(with: .matches([2])))
    #expect(O.failed("a").agrees(with: .failed("b")))
    #expect(!O.failed("a").agrees(with: .matches([])))
    #expect(!O.matches([]).agrees(with: .failed("a")))
    // An SQL compile-time refusal never gives a wrong answer: it disagrees with nothing.
    #expect(O.matches([1]).agrees(with: .refused("unknown-key-path: x")))
    #expect(O.failed("a").agrees(with: .refused("b")))
  }

  /// What SQLite refuses to compile is `.refused`; what it runs is `.matches`.
  @Test(
    arguments: [
      ("SELF.@count > 2", "not-a-collection"), ("missing == 1", "unknown-key-path"),
      ("1.x == 2", "key-on-non-object"), ("onesComplement(x) > 1", "bitwise-needs-integers"),
      ("name == 'red bar'", nil),
    ] as [(String, String?)])
  func sqliteOutcomes(_ text: String, _ refusal: String?) throws {
    let p = try SiftPredicate.parse(text)
    let schema = try #require(FuzzData.schema)
    switch DifferentialOracle.sqliteOutcome(p, schema: schema) {
    case .refused(let e): #expect(refusal.map { e.hasPrefix($0 + ":") } == true, "\(e)")
    case .matches(let m): #expect(refusal == nil && m == [1])
    case .failed(let e): Issue.record("run-time error \(e)")
    }
  }

  @Test(arguments: ["type-mismatch", "a-b-c", "x1"])
  func diagnosticIdsThatAreKebabCase(_ id: String) {
    let error = SiftError(stage: .parse, diagnostic: SiftDiagnostic(id: id, message: "m", range: .at(0)), source: "")
    #expect(ParseOracle.diagnosticProblem(error, stages: [.parse]) == nil)
  }

  /// The budgets every evaluation has are documented errors, not oracle violations (fuzz:
  /// evaluate, Regressions/evaluate/regex-out-of-steps and subquery-nest-out-of-work: the oracle
  /// called `regex-limit` and `work-limit` undocumented, so the first input to reach one failed).
  @Test func budgetErrorsAreDocumented() throws {
    let nest = (0..<14).reduce("TRUEPREDICATE") { inner, i in "SUBQUERY(nums, $v\(i), \(inner)).@count > 0" }
    for (text, id) in [("name MATCHES '((.*)*)*\\\\1y'", "regex-limit"), (nest, "work-limit")] {
      let p = try #require(PreparedInput.predicate(text))
      #expect(throws: SiftError.self) { try p.compile().matchingIndices(FuzzData.objects) }
      do { _ = try p.compile().matchingIndices(FuzzData.objects) } catch {
        #expect(error.diagnostic.id == id, "\(text)")
      }
      #expect(EvaluateOracle.check(text) == nil, "\(text)")
    }
  }

  @Test(arguments: ["", "Type", "-a", "a-", "a_b", "a b"])
  func diagnosticIdsThatAreNot(_ id: String) {
    let error = SiftError(stage: .parse, diagnostic: SiftDiagnostic(id: id, message: "m", range: .at(0)), source: "")
    #expect(ParseOracle.diagnosticProblem(error, stages: [.parse]) != nil)
  }

  @Test func diagnosticOutsideItsSourceIsReported() {
    let error = SiftError(
      stage: .evaluate, diagnostic: SiftDiagnostic(id: "x", message: "m", range: SiftSourceRange(start: 2, end: 9)),
      source: "abc")
    #expect(ParseOracle.diagnosticProblem(error, stages: [.evaluate]) != nil)
    #expect(ParseOracle.diagnosticProblem(error, stages: [.parse]) != nil)
  }

  @Test func decodingCutsAtTheLengthLimit() {
    let bytes = [UInt8](repeating: 97, count: FuzzTarget.maxInputBytes + 10)
    #expect(FuzzTarget.decode(bytes).utf8.count == FuzzTarget.maxInputBytes)
    #expect(FuzzTarget.decode([0xFF, 0x41]) == "\u{FFFD}A")
  }
}

/// The native-encodings oracle's table (STRICT, ISO text, millisecond and 2001 dates, a JSON
/// array, an ANY column) loads, and memory == SQL on predicates over each encoding.
@Suite("Native encodings oracle")
struct NativeOracleTests {
  @Test func fixtureLoadsWithTheIntendedEncodings() throws {
    let (_, schema, ids, objects) = try NativeOracle.fixture.get()
    #expect(ids == [1, 2, 3, 4, 5, 6] && objects.count == 6)
    let item = try #require(schema.entity("item"))
    #expect(item.attribute("when")?.dateEncoding(in: schema) == .iso8601)
    #expect(item.attribute("ms")?.dateEncoding(in: schema) == .unixMilliseconds)
    #expect(item.attribute("cd")?.dateEncoding(in: schema) == .referenceDateSeconds)
    #expect(item.attribute("tags")?.effectiveArrayStorage == .json)
    #expect(schema.layout == .existing)
  }

  @Test(arguments: [
    "when == ms", "when < cd", "cd >= %@", "ms BETWEEN {%@, %@}", "when > %@", "ANY tags == 'wifi'", "tags.@count > 1",
    "ALL tags BEGINSWITH[c] 'q'", "code == 'ß'", "code IN {'A-1', 'Z'}", "flag == NO", "n > 0 AND x < 3",
    "name ==[cd] 'NAIVE *?\\\\ X'",
    "name LIKE '*100%*'", "SUBQUERY(tags, $t, $t == 'a').@count == 1", "when == nil", "cd < when",
  ])
  func memoryAgreesWithSQL(_ text: String) {
    let failure = FuzzTarget.native.check(Array(text.utf8))
    #expect(failure == nil, "\(failure?.description ?? "")")
  }

  /// The table holds what the script wrote (the oracle reads the same connection).
  @Test func tableHoldsTheScriptsValues() throws {
    let (db, schema, _, _) = try NativeOracle.fixture.get()
    let rows = try db.withDatabase { try $0.execute(SQLStatement(sql: "SELECT COUNT(*) FROM item WHERE ms > 0")) }
    #expect(rows == [[.integer(4)]])
    #expect(schema.entity("item")?.attribute("code") != nil)
  }
}
