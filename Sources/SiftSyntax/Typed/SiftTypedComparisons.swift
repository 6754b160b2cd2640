import Foundation

/// A comparison of one attribute with a constant, compiled to a Swift closure over the value:
/// `rating >= 3` is `{ $0[keyPath: \.rating] >= 3 }`, no `SiftValue` made. Only where Swift's
/// answer is Sift's: non-optional `Int`, `Bool`, `Date` and `String` attributes (strings by
/// code point, as Sift compares them) against a constant of the same kind, no options, no
/// quantifier. Anything else gives nil and is evaluated by Sift's evaluator.
typealias SiftTypedComparisonFactory<Root> = (ComparisonOperator, SiftValue) -> ((Root) -> Bool)?

enum SiftTypedComparisons {
  /// The test factory for a key path of one of the supported types; nil for any other.
  static func factory<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> SiftTypedComparisonFactory<Root>? {
    switch keyPath {
    case let k as KeyPath<Root, Int>:
      return { op, c in
        guard case .int(let wide) = c, let n = Int(exactly: wide) else { return nil }
        return compare(k, op, n)
      }
    case let k as KeyPath<Root, Bool>:
      return { op, c in
        guard case .bool(let b) = c, op == .equal || op == .notEqual else { return nil }
        return op == .equal ? { $0[keyPath: k] == b } : { $0[keyPath: k] != b }
      }
    case let k as KeyPath<Root, Date>:
      return { op, c in
        guard case .date(let d) = c else { return nil }
        return compare(k, op, d)
      }
    case let k as KeyPath<Root, String>:
      return { op, c in
        guard case .string(let s) = c else { return nil }
        return compareScalars(k, op, s)
      }
    default: return nil
    }
  }

  static func compare<Root, V: Comparable>(
    _ k: KeyPath<Root, V>, _ op: ComparisonOperator, _ c: V
  ) -> ((Root) -> Bool)? {
    switch op {
    case .equal: return { $0[keyPath: k] == c }
    case .notEqual: return { $0[keyPath: k] != c }
    case .lessThan: return { $0[keyPath: k] < c }
    case .lessThanOrEqual: return { $0[keyPath: k] <= c }
    case .greaterThan: return { $0[keyPath: k] > c }
    case .greaterThanOrEqual: return { $0[keyPath: k] >= c }
    default: return nil
    }
  }

  /// Strings by Unicode scalar (code point), not by Swift's canonical equivalence.
  static func compareScalars<Root>(
    _ k: KeyPath<Root, String>, _ op: ComparisonOperator, _ c: String
  ) -> ((Root) -> Bool)? {
    let cs = c.unicodeScalars
    let less = { (a: String) in a.unicodeScalars.lexicographicallyPrecedes(cs) }
    let greater = { (a: String) in cs.lexicographicallyPrecedes(a.unicodeScalars) }
    let equal = { (a: String) in a.utf8.elementsEqual(c.utf8) }
    switch op {
    case .equal: return { equal($0[keyPath: k]) }
    case .notEqual: return { !equal($0[keyPath: k]) }
    case .lessThan: return { less($0[keyPath: k]) }
    case .lessThanOrEqual: return { !greater($0[keyPath: k]) }
    case .greaterThan: return { greater($0[keyPath: k]) }
    case .greaterThanOrEqual: return { !less($0[keyPath: k]) }
    default: return nil
    }
  }

  /// `op` with its operands swapped (`3 < rating` is `rating > 3`).
  static func flipped(_ op: ComparisonOperator) -> ComparisonOperator? {
    switch op {
    case .equal, .notEqual: return op
    case .lessThan: return .greaterThan
    case .lessThanOrEqual: return .greaterThanOrEqual
    case .greaterThan: return .lessThan
    case .greaterThanOrEqual: return .lessThanOrEqual
    default: return nil
    }
  }
}

extension SiftTypedReaders {
  /// `predicate` as one Swift closure over `Root` values, when every part of it is a
  /// conjunction, disjunction, negation, constant or a comparison `SiftTypedComparisons` compiles;
  /// nil otherwise.
  package func filter<Root>(_ predicate: PredicateNode, as type: Root.Type) -> ((Root) -> Bool)? {
    guard isComplete, root == Root.self else { return nil }
    return compile(predicate, Root.self)
  }

  private func compile<Root>(_ p: PredicateNode, _ type: Root.Type) -> ((Root) -> Bool)? {
    switch p.kind {
    case .constant(let b): return { _ in b }
    case .not(let inner):
      guard let f = compile(inner, type) else { return nil }
      return { !f($0) }
    case .and(let terms), .or(let terms):
      var fs: [(Root) -> Bool] = []
      for t in terms {
        guard let f = compile(t, type) else { return nil }
        fs.append(f)
      }
      // Two terms (the usual case) as one closure: iterating an array of closures generic over
      // `Root` copies each out through its value witness.
      let isAnd: Bool
      if case .and = p.kind { isAnd = true } else { isAnd = false }
      if fs.count == 2 {
        let (a, b) = (fs[0], fs[1])
        return isAnd ? { a($0) && b($0) } : { a($0) || b($0) }
      }
      if isAnd { return { v in fs.allSatisfy { $0(v) } } }
      return { v in fs.contains { $0(v) } }
    case .comparison(let c):
      guard c.quantifier == nil, c.options.isEmpty else { return nil }
      if let f = test(c.lhs, c.op, c.rhs, type) { return f }
      guard let op = SiftTypedComparisons.flipped(c.op) else { return nil }
      return test(c.rhs, op, c.lhs, type)
    }
  }

  private func test<Root>(
    _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode, _ type: Root.Type
  ) -> ((Root) -> Bool)? {
    guard case .keyPath(nil, let kp) = lhs.kind, kp.components.count == 1, case .key(let name)? = kp.components.first,
      case .constant(let value) = rhs.kind, let factory = tests[name] as? SiftTypedComparisonFactory<Root>
    else { return nil }
    return factory(op, value)
  }
}
