import Foundation

@testable import SiftSyntax

/// Generates random predicates through the public building API (`SiftPredicate.and`, `&&`,
/// `!`, `comparison(_:_:_:options:modifier:)`, …), for the property `parse(print(p)) == p`.
/// Values are drawn from those with a literal form (no NaN, data or dictionaries).
struct RandomBuiltPredicate {
  var rng: SeededRandom
  var maxDepth = 4

  init(seed: UInt64) { rng = SeededRandom(seed: seed) }

  static let keyPaths = [
    "name", "SELF", "self", "a.b", "location.city", "tags.@count", "menu.@avg.price", "café", "first name",
    "in", "size", "FIRST", "a\"b", "1abc", "UTI", "ANDx", "SELF.name", "x.self", "@count", "名前.ä",
    "e\u{301}.b", "#hash", "a-b", "$x",
  ]
  static let strings = [
    "", "d", "Do", "Red bar", "it's", "say \"hi\"", "back\\slash", "tab\tnew\nline\r", "é", "e\u{301}", "名前",
    "😀", "%@", "%K", "$x", "\u{1}\u{7F}", "'", "*?", "nil", "TRUEPREDICATE", "(a OR b)",
  ]
  static let options: [ComparisonOptions] = [
    [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
  ]
  static let templates = ["x == %@", "%K BEGINSWITH %@", "a == 1 OR b == %@", "ANY tags IN %@", "v BETWEEN %@"]

  mutating func int(_ range: ClosedRange<Int>) -> Int { rng.int(in: range) }
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  mutating func pick<T>(_ items: [T]) -> T { rng.pick(items) }

  mutating func predicate(_ depth: Int = 0) throws -> SiftPredicate {
    if depth >= maxDepth { return try comparison() }
    switch int(0...13) {
    case 0: return chance(50) ? .truePredicate : .falsePredicate
    case 1: return .and(try terms(depth))
    case 2: return .or(try terms(depth))
    case 3: return .not(try predicate(depth + 1))
    case 4: return try predicate(depth + 1) && predicate(depth + 1)
    case 5: return try predicate(depth + 1) || predicate(depth + 1)
    case 6: return !(try predicate(depth + 1))
    case 7: return try SiftPredicate.parse(pick(Self.templates))
    case 8:
      let lhs = ExpressionNode.keyPath(pick(["a", "b.c", "d"]))
      let rhs: ExpressionNode = chance(50) ? .keyPath("e") : ExpressionNode(.binary(.add, .keyPath("f"), .constant(1)))
      return .comparison(lhs, pick(ComparisonOperator.allCases), rhs, options: pick(Self.options))
    default: return try comparison()
    }
  }

  /// 0 to 4 terms (0 and 1 exercise the TRUEPREDICATE/FALSEPREDICATE and single-term rules).
  mutating func terms(_ depth: Int) throws -> [SiftPredicate] {
    try (0..<int(0...4)).map { _ in try predicate(depth + 1) }
  }

  mutating func comparison() throws -> SiftPredicate {
    // Every operator, so a new one is built and round-tripped without an edit here.
    let op = pick(ComparisonOperator.allCases)
    let value: SiftValue = op == .between ? .array([constant(1), constant(1)]) : constant()
    let modifier: SiftQuantifier? = chance(30) ? pick(SiftQuantifier.allCases) : nil
    return try .comparison(pick(Self.keyPaths), op, value, options: pick(Self.options), modifier: modifier)
  }

  mutating func constant(_ depth: Int = 0) -> SiftValue {
    switch int(0...8) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .int(pick([0, 1, -1, 42, Int64.max, Int64.min, -7]))
    case 3: return .int(Int64(int(-1000...1000)))
    case 4:
      return .double(
        pick([0.5, -2.25, 1e20, .leastNonzeroMagnitude, -0.0, 0.0, 1e300, .infinity, -.infinity, 3.0, 0.1]))
    case 5, 6: return .string(pick(Self.strings))
    case 7: return .date(Date(timeIntervalSinceReferenceDate: pick([0, -1.5, 726_148_800, 1e9, 0.1])))
    default:
      return depth > 2 ? .array([]) : .array((0..<int(0...3)).map { _ in constant(depth + 1) })
    }
  }
}
