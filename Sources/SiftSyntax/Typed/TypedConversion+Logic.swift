import Foundation

// `&&`, `||`, `!`, `==`, `!=`, `<`…, `? :` and range `contains` of a `#Predicate`.

extension PredicateExpressions.Conjunction: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let a = try converter.predicate(lhs), b = try converter.predicate(rhs)
    return .predicate(TypedLogic.flat(a, b, and: true))
  }
}

extension PredicateExpressions.Disjunction: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let a = try converter.predicate(lhs), b = try converter.predicate(rhs)
    return .predicate(TypedLogic.flat(a, b, and: false))
  }
}

extension PredicateExpressions.Negation: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .predicate(PredicateNode(.not(try converter.predicate(wrapped))))
  }
}

extension PredicateExpressions.Equal: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .predicate(TypedLogic.equality(try converter.convert(lhs), try converter.convert(rhs), negated: false))
  }
}

extension PredicateExpressions.NotEqual: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .predicate(TypedLogic.equality(try converter.convert(lhs), try converter.convert(rhs), negated: true))
  }
}

extension PredicateExpressions.Comparison: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let op: ComparisonOperator
    switch self.op {
    case .lessThan: op = .lessThan
    case .lessThanOrEqual: op = .lessThanOrEqual
    case .greaterThan: op = .greaterThan
    case .greaterThanOrEqual: op = .greaterThanOrEqual
    }
    return .predicate(TypedTerm.compare(try converter.expression(lhs), op, try converter.expression(rhs)))
  }
}

extension PredicateExpressions.Conditional: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let t = try converter.predicate(test)
    let a = try converter.convert(trueBranch), b = try converter.convert(falseBranch)
    if case .predicate(let p) = a, case .predicate(let q) = b {
      // A test either way: (t AND a) OR (NOT t AND b).
      let yes = TypedLogic.flat(t, p, and: true), no = TypedLogic.flat(PredicateNode(.not(t)), q, and: true)
      return .predicate(TypedLogic.flat(yes, no, and: false))
    }
    return .expression(ExpressionNode(.ternary(t, a.expression(), b.expression())))
  }
}

extension PredicateExpressions.RangeExpressionContains: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let x = try converter.expression(element)
    guard let bounds = range as? any TypedRangeBounds else {
      throw TypedConverter.refusal(
        .unconvertibleExpression, TypedConverter.unsupportedReason(range) + " (only a..<b and a...b ranges convert)")
    }
    let (low, high, closed) = try bounds.siftBounds(&converter)
    if closed {
      // `x BETWEEN {low, high}`, as the parser reads it (constant bounds fold into one array).
      let pair: ExpressionNode
      if case .constant(let l) = low.kind, case .constant(let h) = high.kind {
        pair = .constant(.array([l, h]))
      } else {
        pair = ExpressionNode(.aggregate([low, high]))
      }
      return .predicate(TypedTerm.compare(x, .between, pair))
    }
    let a = TypedTerm.compare(x, .greaterThanOrEqual, low), b = TypedTerm.compare(x, .lessThan, high)
    return .predicate(TypedLogic.flat(a, b, and: true))
  }
}

/// The two range nodes `a..<b` and `a...b`.
protocol TypedRangeBounds {
  /// Lower bound, upper bound, and whether the upper one is included.
  func siftBounds(_ converter: inout TypedConverter) throws(SiftError) -> (ExpressionNode, ExpressionNode, Bool)
}

extension PredicateExpressions.Range: TypedRangeBounds {
  func siftBounds(_ converter: inout TypedConverter) throws(SiftError) -> (ExpressionNode, ExpressionNode, Bool) {
    (try converter.expression(lower), try converter.expression(upper), false)
  }
}

extension PredicateExpressions.ClosedRange: TypedRangeBounds {
  func siftBounds(_ converter: inout TypedConverter) throws(SiftError) -> (ExpressionNode, ExpressionNode, Bool) {
    (try converter.expression(lower), try converter.expression(upper), true)
  }
}

/// Building AND, OR and equality the way the parser writes them.
enum TypedLogic {
  /// `a AND b` (or `a OR b`), one flat list: an operand of the same kind gives its terms.
  static func flat(_ a: PredicateNode, _ b: PredicateNode, and: Bool) -> PredicateNode {
    func terms(_ p: PredicateNode) -> [PredicateNode] {
      switch (p.kind, and) {
      case (.and(let t), true), (.or(let t), false): return t
      default: return [p]
      }
    }
    let all = terms(a) + terms(b)
    return PredicateNode(and ? .and(all) : .or(all))
  }

  /// `a == b` (or `!=`). Two tests are equal when both hold or neither does.
  static func equality(_ a: TypedTerm, _ b: TypedTerm, negated: Bool) -> PredicateNode {
    if case .predicate(let p) = a, case .predicate(let q) = b {
      let both = flat(p, q, and: true)
      let neither = flat(PredicateNode(.not(p)), PredicateNode(.not(q)), and: true)
      let same = flat(both, neither, and: false)
      return negated ? PredicateNode(.not(same)) : same
    }
    return TypedTerm.compare(a.expression(), negated ? .notEqual : .equal, b.expression())
  }
}
