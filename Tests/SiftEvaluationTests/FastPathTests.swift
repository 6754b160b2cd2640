import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// A user-defined record type: the evaluator sees it boxed (`.record`), not as a fast object.
struct OpaqueRow: SiftRecord {
  var fields: [String: SiftValue]
  func value(forKey key: String) -> SiftValue? { fields[key] }
}

/// Random predicates aimed at the specialized closures, over records whose values are often
/// of the wrong kind, so that every fallback and every error is exercised.
struct FastPathGenerator {
  var rng: SeededRandom
  static let words = [
    "wifi", "Wifi", "café", "CAFÉ", "cafe\u{301}", "ß", "SS", "Straße", "İ", "", "x", "Blue bar", "Red\nbar",
    "ΣΑΣ", "zürich", "Zürich", "Blue", "blu", "B\u{301}lue", "Ca\u{301}fe", "ZZ",
  ]
  static let constants = [
    "1", "1.0", "0.5", "-1", "YES", "NO", "\"1\"", "nil", "{1, 2}", "9007199254740992", "9007199254740993",
  ]
  static let patterns = ["(Blue|Red) .*", ".*bar", "wi.i", "x?", "(caf(é|e))", "[a-z]+", "\\d", "Z.*h"]

  mutating func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
  mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }
  mutating func quoted() -> String { "\"" + pick(Self.words).replacingOccurrences(of: "\n", with: "\\n") + "\"" }
  mutating func options() -> String { pick(["", "", "[c]", "[d]", "[cd]", "[n]"]) }

  mutating func atom() -> String {
    let ordering = ["<", "<=", ">", ">="]
    switch Int.random(in: 0..<16, using: &rng) {
    case 0: return "a \(pick(["==", "!="])) \(pick(Self.constants))"
    case 1: return "a \(pick(ordering)) \(pick(["1", "0.5", "YES", "-1"]))"
    case 2: return "s \(pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS"]))\(options()) \(quoted())"
    case 3:
      return "s MATCHES\(pick(["", "", "[c]"])) \"\(pick(Self.patterns).replacingOccurrences(of: "\\", with: "\\\\"))\""
    case 4:
      return "\(pick(["ANY", "ALL", "NONE"])) t \(pick(["==", "!=", "BEGINSWITH", "CONTAINS"]))\(options()) \(quoted())"
    case 5: return "\(pick(["ANY", "ALL", "NONE"])) t \(pick(["==", "<", ">="])) \(pick(["1", "0.5", "YES"]))"
    case 6:
      return
        "\(pick(["t", "m", "s", "loc"])).@count \(pick(["==", ">", "<=", "!="])) \(Int.random(in: 0...2, using: &rng))"
    case 7: return "loc.city \(pick(["==", "BEGINSWITH", "!="]))\(options()) \(quoted())"
    case 8:
      return
        "SUBQUERY(m, $x, $x.v == YES AND $x.p < \(Int.random(in: -1...2, using: &rng))).@count \(pick(["> 0", "== 1", ">= 2"]))"
    case 9: return "SUBQUERY(m, $x, $x.p \(pick(["==", ">", "!="])) \(pick(Self.constants))).@count > 0"
    case 10: return "a \(pick(["IN", "BETWEEN"])) {0, 1}"
    case 11: return "\(quoted()) IN\(options()) t"
    case 12: return "loc.zip.code == \(pick(Self.constants))"
    case 13:
      let first = "$x.\(pick(["p", "v", "q"])) \(pick(["==", "!=", "<", ">="])) \(pick(Self.constants))"
      let second = "$x.\(pick(["p", "v"])) \(pick(["==", "!=", "BEGINSWITH[c]", "<="])) \(pick(["YES", "1", quoted()]))"
      return "SUBQUERY(m, $x, \(first) AND \(second)).@count \(pick(["> 0", "== 1", "!= 0"]))"
    case 14:
      return
        "s \(pick(["BEGINSWITH", "==", "ENDSWITH"]))\(pick(["[c]", "[d]", "[cd]"])) \(pick(["\"b\"", "\"ca\"", "\"Blue\"", "\"z\""]))"
    default: return "\(pick(["a", "s", "t", "m", "loc"])) == nil"
    }
  }

  mutating func predicate(depth: Int = 2) -> String {
    if depth == 0 || chance(2) { return atom() }
    switch Int.random(in: 0..<3, using: &rng) {
    case 0: return "NOT (\(predicate(depth: depth - 1)))"
    case 1: return "(\(predicate(depth: depth - 1))) AND (\(predicate(depth: depth - 1))) AND (\(atom()))"
    default: return "(\(predicate(depth: depth - 1))) OR (\(predicate(depth: depth - 1)))"
    }
  }

  mutating func scalar() -> SiftValue {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0: return .int(Int64(Int.random(in: -1...2, using: &rng)))
    case 1: return .double(pick([0.5, 1.0, -1.5, .nan, 9_007_199_254_740_992.0]))
    case 2: return .bool(chance(2))
    case 3, 4: return .string(pick(Self.words))
    case 5: return .null
    case 6: return .date(Date(timeIntervalSinceReferenceDate: 1))
    default: return .array([.int(1), .string("wifi")])
    }
  }

  mutating func record() -> [String: SiftValue] {
    var d: [String: SiftValue] = [:]
    func maybe(_ v: SiftValue, _ g: inout FastPathGenerator) -> SiftValue? { g.chance(6) ? nil : v }
    d["a"] = maybe(scalar(), &self)
    d["s"] = maybe(chance(4) ? scalar() : .string(pick(Self.words) + pick(Self.words)), &self)
    var tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in chance(4) ? scalar() : .string(pick(Self.words)) }
    if chance(8) { tags.append(.array([.string("wifi")])) }
    d["t"] = maybe(chance(8) ? scalar() : .array(tags), &self)
    let menu = (0..<Int.random(in: 0...3, using: &rng)).map { _ -> SiftValue in
      chance(8) ? scalar() : .dictionary(["p": scalar(), "v": .bool(chance(2))])
    }
    d["m"] = maybe(chance(8) ? scalar() : .array(menu), &self)
    let city: SiftValue = ["city": .string(pick(Self.words)), "zip": chance(2) ? ["code": scalar()] : scalar()]
    d["loc"] = maybe(chance(5) ? .array([city, scalar()]) : (chance(6) ? scalar() : city), &self)
    return d
  }

  /// `count` generated predicates, each compiled under both error policies with the
  /// specialized closures (`fast`) and without them (`slow`).
  mutating func forEachCompiled(
    _ count: Int, _ body: (_ format: String, _ fast: SiftMatcher, _ slow: SiftMatcher) throws -> Void
  ) throws {
    for _ in 0..<count {
      let format = predicate()
      let p = try SiftPredicate(format: format)
      for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
        let options = EvaluationOptions(policy: policy)
        try body(format, try p.compile(options, fastPaths: true), try p.compile(options, fastPaths: false))
      }
    }
  }
}

@Suite struct FastPathTests {
  /// The result, or the complete error, of one evaluation.
  static func outcome(_ m: SiftMatcher, _ record: some SiftRecord) -> Result<Bool, SiftError> {
    do { return .success(try m.matches(record)) } catch { return .failure(error) }
  }

  @Test(arguments: [UInt64(1), 2, 3, 5, 8, 13, 21, 34])
  func specializedClosuresAgreeWithGenericOnes(seed: UInt64) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: seed))
    let records = (0..<60).map { _ in g.record() }
    let objects = records.map { SiftObject($0) }
    var checked = 0
    try g.forEachCompiled(60) { format, fast, slow in
      for (i, r) in records.enumerated() {
        let expected = Self.outcome(slow, r)
        #expect(Self.outcome(fast, r) == expected, "\(format) on dictionary \(i)")
        #expect(Self.outcome(fast, objects[i]) == expected, "\(format) on object \(i)")
        #expect(
          Self.outcome(fast, OpaqueRow(fields: r)) == Self.outcome(slow, OpaqueRow(fields: r)), "\(format) on row \(i)")
        #expect(Self.outcome(fast, SiftValue.dictionary(r)) == expected, "\(format) on value \(i)")
        checked += 1
      }
    }
    #expect(checked == 60 * 2 * 60)
  }

  /// Every conformance case gives the same answers with and without the specialized closures.
  @Test func conformanceCasesAgree() throws {
    let records = try JSONRecords.load(contentsOf: fixturesDirectory.appendingPathComponent("venues.json"))
    var compared = 0
    for c in Conformance.cases {
      guard let p = try? SiftPredicate(format: c.format, arguments: c.args),
        let fast = try? p.compile(EvaluationOptions(), fastPaths: true),
        let slow = try? p.compile(EvaluationOptions(), fastPaths: false)
      else { continue }
      let a = Result { () throws(SiftError) -> [Int] in try fast.matchingIndices(records) }
      let b = Result { () throws(SiftError) -> [Int] in try slow.matchingIndices(records) }
      #expect(a == b, "\(c.id): \(c.format)")
      compared += 1
    }
    #expect(compared > 50)
  }

  /// Shapes that take a fast path, with their answers spelled out.
  @Test(
    arguments: [
      ("tipCount >= 100 AND tipCount <= 300", [0, 2]),
      ("ANY tags == 'wifi'", [0, 1]),
      ("NONE tags == 'wifi'", [2, 3]),
      ("ALL tags BEGINSWITH 'w'", [1, 2, 3]),
      ("menu.@count > 1", [0]),
      ("SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0", [0]),
      ("name MATCHES '(Blue|Red) .*'", [0, 1]),
      ("name BEGINSWITH[c] 'blue'", [0, 3]),
      ("name ==[cd] 'blue cafe'", [3]),
      ("location.city ==[c] 'ZÜRICH'", [1]),
    ] as [(String, [Int])])
  func fastShapes(format: String, expected: [Int]) throws {
    let rows: [SiftValue] = [
      [
        "name": "Blue bar", "tipCount": 100, "tags": ["wifi", "vegan"], "location": ["city": "Oslo"],
        "menu": [["vegan": true, "price": 4], ["vegan": false, "price": 2]],
      ],
      ["name": "Red Café", "tipCount": 301, "tags": ["wifi"], "location": ["city": "Zürich"], "menu": []],
      ["name": "Ölstube", "tipCount": 300.0, "tags": [], "menu": [["vegan": true, "price": 12]]],
      ["name": "BLUE CAFÉ", "tags": nil],
    ]
    let m = try SiftPredicate(format: format).compile()
    #expect(try m.matchingIndices(rows) == expected)
    #expect(try m.matchingIndices(try JSONRecords.records(from: .array(rows))) == expected)
  }
}
