import Foundation

@testable import SiftSyntax

/// Generates random predicate trees in the normal form the parser produces (compounds with at
/// least two terms, constant aggregates folded, no unbound arguments), for property tests.
struct RandomAST {
  var rng: SeededRandom
  var maxDepth = 5

  init(seed: UInt64) { rng = SeededRandom(seed: seed) }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

  static let keys = [
    "name", "a", "b_2", "café", "size", "in", "first", "self", "first name", "a\"b", "", "@foo", "1abc", "UTI", "ANDx",
  ]
  static let names = ["x", "m", "NAME", "in", "size", "café"]
  static let strings = [
    "", "x", "Red bar", "it's", "say \"hi\"", "back\\slash", "tab\tnew\nline\r", "é", "e\u{301}", "名前", "😀", "%@", "$x",
    "\u{1}\u{7F}",
  ]

  mutating func predicate(_ depth: Int = 0) -> PredicateNode {
    if depth >= maxDepth { return PredicateNode(.comparison(comparison(depth))) }
    switch int(0...9) {
    case 0: return PredicateNode(.constant(chance(50)))
    case 1, 2: return PredicateNode(.and((0..<int(2...3)).map { _ in predicate(depth + 1) }))
    case 3: return PredicateNode(.or((0..<int(2...3)).map { _ in predicate(depth + 1) }))
    case 4: return PredicateNode(.not(predicate(depth + 1)))
    default: return PredicateNode(.comparison(comparison(depth)))
    }
  }

  mutating func comparison(_ depth: Int) -> SiftComparison {
    let op = pick(ComparisonOperator.allCases)
    var options: ComparisonOptions = []
    for o in [ComparisonOptions.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive] where chance(20)
    {
      options.insert(o)
    }
    let rhs: ExpressionNode
    if op == .between {
      rhs =
        chance(50)
        ? ExpressionNode(.constant(.array([constant(), constant()])))
        : ExpressionNode(.keyPath(base: nil, keyPath()))
    } else {
      rhs = expression(depth + 1)
    }
    let quantifier: SiftQuantifier? = chance(20) ? pick(SiftQuantifier.allCases) : nil
    return SiftComparison(quantifier: quantifier, lhs: expression(depth + 1), op: op, options: options, rhs: rhs)
  }

  mutating func keyPath() -> SiftKeyPath {
    SiftKeyPath(
      (0..<int(1...3)).map { _ in
        chance(25) ? .operator(pick(CollectionOperator.allCases)) : .key(pick(Self.keys))
      })
  }

  mutating func constant(_ depth: Int = 0) -> SiftValue {
    switch int(0...8) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .int(pick([0, 1, -1, 42, Int64.max, Int64.min, -7]))
    case 3: return .int(Int64(int(-1000...1000)))
    case 4: return .double(pick([0.5, -2.25, 1e20, .leastNonzeroMagnitude, -0.0, 1e300, .infinity, -.infinity, 3.0]))
    case 5, 6: return .string(pick(Self.strings))
    case 7: return .date(Date(timeIntervalSinceReferenceDate: pick([0, -1.5, 726_148_800, 1e9])))
    default:
      return depth > 2 ? .array([]) : .array((0..<int(0...3)).map { _ in constant(depth + 1) })
    }
  }

  mutating func expression(_ depth: Int) -> ExpressionNode {
    if depth >= maxDepth {
      return chance(50) ? ExpressionNode(.constant(constant())) : ExpressionNode(.keyPath(base: nil, keyPath()))
    }
    let d = depth + 1
    switch int(0...19) {
    case 0, 1, 2: return ExpressionNode(.constant(constant()))
    case 3, 4, 5: return ExpressionNode(.keyPath(base: nil, keyPath()))
    case 6: return ExpressionNode(.evaluatedObject)
    case 7: return ExpressionNode(.variable(pick(Self.names)))
    case 8:
      let base = pick([ExpressionNode(.variable(pick(Self.names))), expression(d)])
      // Normal form: a key path on a key path is one key path; SELF.x is x.
      if case .keyPath = base.kind { return base }
      if case .evaluatedObject = base.kind { return base }
      return ExpressionNode(.keyPath(base: base, keyPath()))
    case 9:
      var index: IndexKind = pick([.first, .last, .size, .expression(ExpressionNode(.constant(.int(1))))])
      if chance(30) {
        let e = expression(d)
        if case .constant(.string) = e.kind {} else { index = .expression(e) }
      }
      return ExpressionNode(.index(expression(d), index))
    case 10: return ExpressionNode(.aggregate([ExpressionNode(.keyPath(base: nil, keyPath())), expression(d)]))
    case 11: return ExpressionNode(.unary(pick(UnaryOperator.allCases), expression(d)))
    case 12, 13: return ExpressionNode(.binary(pick(BinaryOperator.allCases), expression(d), expression(d)))
    case 14:
      let f = pick(BuiltinFunction.allCases)
      return ExpressionNode(.function(f, (0..<f.arity.lowerBound).map { _ in expression(d) }))
    case 15:
      return ExpressionNode(
        .customFunction(
          receiver: expression(d), selector: pick(Self.strings), arguments: chance(50) ? [expression(d)] : []))
    case 16:
      return ExpressionNode(.subquery(collection: expression(d), variable: pick(Self.names), predicate: predicate(d)))
    case 17:
      let x = expression(d)
      let t = pick(CastType.allCases)
      if t == .date, case .constant(let v) = x.kind, v.isNumber { return x }
      return ExpressionNode(.cast(x, t))
    case 18: return ExpressionNode(.ternary(predicate(d), expression(d), expression(d)))
    default:
      return chance(50)
        ? ExpressionNode(.assignment(variable: pick(Self.names), expression(d))) : ExpressionNode(.anyKey)
    }
  }
}
