import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// Random well-typed predicates and records over keys a (integer), b (double), s (string),
/// t (array of strings), m (array of dictionaries); any key may be nil or missing.
struct PredicateGenerator {
  var rng: SeededRandom
  static let words = ["wifi", "Wifi", "café", "CAFE", "x", "ß", "ss", ""]

  mutating func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
  mutating func int() -> Int { Int.random(in: -3...3, using: &rng) }
  mutating func quoted() -> String { "\"" + pick(Self.words) + "\"" }
  mutating func options() -> String { pick(["", "[c]", "[d]", "[cd]"]) }

  mutating func atom() -> String {
    switch Int.random(in: 0..<14, using: &rng) {
    case 0: return "a \(pick(["==", "!=", "<", "<=", ">", ">="])) \(int())"
    case 1: return "b \(pick(["<", ">=", "=="])) \(Double(int()) / 2)"
    case 2: return stringComparison()
    case 3: return "ANY t ==\(options()) \(quoted())"
    case 4: return "ALL t \(pick(["BEGINSWITH", "!="]))\(options()) \(quoted())"
    case 5: return "a BETWEEN {\(int()), \(int())}"
    case 6: return "\(pick(["a", "b", "s", "t"])) == nil"
    case 7: return "t.@count \(pick(["==", ">"])) \(Int.random(in: 0...2, using: &rng))"
    case 8: return "SUBQUERY(m, $x, $x.p > \(int())).@count > 0"
    case 9: return "a + \(int()) > b"
    case 10: return "\(quoted()) IN\(options()) t"
    case 11: return "a IN {\(int()), \(int()), nil}"
    case 12: return "s MATCHES\(options()) \"\(pick(["c.*", ".*s", "x?"]))\""
    default: return pick(["TRUEPREDICATE", "FALSEPREDICATE"])
    }
  }

  /// Equality, order and every text operator, drawn from `ComparisonOperator.allCases` by
  /// shape (a new operator is drawn without an edit; `everyOperatorIsDrawn` checks it).
  static let stringOperators = ComparisonOperator.allCases.filter {
    $0.rightOperand == .value || $0.rightOperand.isText
  }

  /// `s op "word"` (a regular expression for MATCHES-shaped operators).
  mutating func stringComparison() -> String {
    let op = pick(Self.stringOperators)
    let rhs = op.rightOperand == .regularExpression ? "\"\(pick(["c.*", ".*s", "x?"]))\"" : quoted()
    return "s \(op.keyword)\(options()) \(rhs)"
  }

  mutating func predicate(depth: Int = 3) -> String {
    if depth == 0 || Int.random(in: 0..<3, using: &rng) == 0 { return atom() }
    switch Int.random(in: 0..<3, using: &rng) {
    case 0: return "NOT (\(predicate(depth: depth - 1)))"
    case 1: return "(\(predicate(depth: depth - 1))) AND (\(predicate(depth: depth - 1)))"
    default: return "(\(predicate(depth: depth - 1))) OR (\(predicate(depth: depth - 1)))"
    }
  }

  mutating func record() -> SiftValue {
    var d: [String: SiftValue] = [:]
    func maybe(_ v: SiftValue, _ g: inout PredicateGenerator) -> SiftValue? {
      switch Int.random(in: 0..<6, using: &g.rng) {
      case 0: return nil
      case 1: return .null
      default: return v
      }
    }
    d["a"] = maybe(.int(Int64(int())), &self)
    d["b"] = maybe(.double(Double(int()) / 2), &self)
    d["s"] = maybe(.string(pick(Self.words) + pick(Self.words)), &self)
    let tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in SiftValue.string(pick(Self.words)) }
    d["t"] = maybe(.array(tags), &self)
    let menu = (0..<Int.random(in: 0...2, using: &rng)).map { _ in SiftValue.dictionary(["p": .int(Int64(int()))]) }
    d["m"] = maybe(.array(menu), &self)
    return .dictionary(d)
  }
}

@Suite struct PropertyTests {
  static let seeds: [UInt64] = [1, 2, 3, 42, 2024, 777]

  static func indices(_ format: String, _ records: [SiftValue]) throws -> [Int] {
    try SiftPredicate(format: format).compile().matchingIndices(records)
  }

  @Test(arguments: seeds)
  func algebraicLaws(seed: UInt64) throws {
    var g = PredicateGenerator(rng: SeededRandom(seed: seed))
    let records = (0..<120).map { _ in g.record() }
    let fast = try JSONRecords.records(from: .array(records))
    let all = Set(records.indices)
    var nonTrivial = 0
    for _ in 0..<40 {
      let p = g.predicate(), q = g.predicate()
      let P = Set(try Self.indices(p, records)), Q = Set(try Self.indices(q, records))
      if !P.isEmpty && P != all { nonTrivial += 1 }
      #expect(Set(try Self.indices("NOT (\(p))", records)) == all.subtracting(P), "NOT: \(p)")
      #expect(Set(try Self.indices("(\(p)) AND TRUEPREDICATE", records)) == P, "AND TRUE: \(p)")
      #expect(Set(try Self.indices("(\(p)) OR FALSEPREDICATE", records)) == P, "OR FALSE: \(p)")
      #expect(
        Set(try Self.indices("NOT ((\(p)) AND (\(q)))", records))
          == Set(try Self.indices("(NOT (\(p))) OR (NOT (\(q)))", records)), "De Morgan AND: \(p) | \(q)")
      #expect(
        Set(try Self.indices("NOT ((\(p)) OR (\(q)))", records))
          == Set(try Self.indices("(NOT (\(p))) AND (NOT (\(q)))", records)), "De Morgan OR: \(p) | \(q)")
      #expect(Set(try Self.indices("(\(p)) AND (\(q))", records)) == P.intersection(Q))
      #expect(Set(try Self.indices("(\(p)) OR (\(q))", records)) == P.union(Q))
      // The canonical print re-parses to a predicate with the same answers.
      let printed = try SiftPredicate(format: p).predicateFormat
      #expect(Set(try Self.indices(printed, records)) == P, "reparse: \(p) → \(printed)")
      // Fast records and plain dictionaries agree.
      #expect(Set(try SiftPredicate(format: p).compile().matchingIndices(fast)) == P, "fast: \(p)")
    }
    #expect(nonTrivial > 5, "the generator should produce selective predicates")
  }

  /// Every operator but the UTI pair (which have their own tests) is drawn by the generator.
  @Test func everyOperatorIsDrawn() throws {
    var g = PredicateGenerator(rng: SeededRandom(seed: 5))
    var drawn: Set<ComparisonOperator> = []
    func collect(_ p: PredicateNode) {
      switch p.kind {
      case .constant: break
      case .and(let terms), .or(let terms): terms.forEach(collect)
      case .not(let inner): collect(inner)
      case .comparison(let c): drawn.insert(c.op)
      }
    }
    for _ in 0..<2000 { collect(try SiftPredicate(format: g.predicate()).root) }
    let expected = Set(ComparisonOperator.allCases.filter { $0.rightOperand != .typeIdentifier })
    #expect(expected.subtracting(drawn).isEmpty, "never drawn: \(expected.subtracting(drawn))")
  }

  /// NOT and the lenient policy: a record that fails matches neither p nor NOT p.
  @Test func lenientPolicyExcludesFailuresFromBothSides() throws {
    let records: [SiftValue] = [["v": 1], ["v": "a"], ["v": 3], [:]]
    let lenient = EvaluationOptions(policy: .treatAsNoMatch)
    let p = try SiftPredicate(format: "v > 2").compile(lenient).matchingIndices(records)
    let notP = try SiftPredicate(format: "NOT v > 2").compile(lenient).matchingIndices(records)
    #expect(p == [2])
    #expect(notP == [0, 3])
  }
}
