import Foundation

// Arithmetic, text and collection operations of a `#Predicate`.

extension PredicateExpressions.Arithmetic: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let o: BinaryOperator
    switch op {
    case .add: o = .add
    case .subtract: o = .subtract
    case .multiply: o = .multiply
    }
    return .expression(ExpressionNode(.binary(o, try converter.expression(lhs), try converter.expression(rhs))))
  }
}

extension PredicateExpressions.IntDivision: SiftConvertibleExpression {
  /// Integer `/` truncates in Sift as in Swift (Grammar/README.md, "Numbers").
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(ExpressionNode(.binary(.divide, try converter.expression(lhs), try converter.expression(rhs))))
  }
}

extension PredicateExpressions.FloatDivision: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(ExpressionNode(.binary(.divide, try converter.expression(lhs), try converter.expression(rhs))))
  }
}

extension PredicateExpressions.IntRemainder: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let args = [try converter.expression(lhs), try converter.expression(rhs)]
    return .expression(ExpressionNode(.function(.modulus, args)))
  }
}

extension PredicateExpressions.UnaryMinus: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let e = try converter.expression(wrapped)
    // A negated number constant is one constant, as the parser reads `-5`.
    if case .constant(.int(let i)) = e.kind, i != .min { return .expression(.constant(.int(-i))) }
    if case .constant(.double(let d)) = e.kind { return .expression(.constant(.double(-d))) }
    return .expression(ExpressionNode(.unary(.negate, e)))
  }
}

extension PredicateExpressions.SequenceContains: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let s = try converter.expression(sequence), e = try converter.expression(element)
    // A captured array reads best as `element IN {…}`; a stored one as `tags CONTAINS element`.
    if case .constant = s.kind { return .predicate(TypedTerm.compare(e, .in, s)) }
    return .predicate(TypedTerm.compare(s, .contains, e))
  }
}

extension PredicateExpressions.CollectionContainsCollection: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    try TypedText.stringOperation(Base.Output.self, "contains(_:)", .contains, base, other, &converter)
  }
}

extension PredicateExpressions.SequenceStartsWith: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    try TypedText.stringOperation(Base.Output.self, "starts(with:)", .beginsWith, base, prefix, &converter)
  }
}

extension PredicateExpressions.SequenceContainsWhere: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let s = try converter.expression(sequence)
    return try converter.withClosureVariable(variable.key) { (c, name) throws(SiftError) -> TypedTerm in
      let test = try c.predicate(self.test)
      if let q = TypedQuantified.quantified(.any, s, name, test) { return .predicate(q) }
      let matches = TypedQuantified.subqueryCount(s, name, test)
      return .predicate(TypedTerm.compare(matches, .greaterThan, .constant(.int(0))))
    }
  }
}

extension PredicateExpressions.SequenceAllSatisfy: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let s = try converter.expression(sequence)
    return try converter.withClosureVariable(variable.key) { (c, name) throws(SiftError) -> TypedTerm in
      let test = try c.predicate(self.test)
      if let q = TypedQuantified.quantified(.all, s, name, test) { return .predicate(q) }
      let misses = TypedQuantified.subqueryCount(s, name, PredicateNode(.not(test)))
      return .predicate(TypedTerm.compare(misses, .equal, .constant(.int(0))))
    }
  }
}

extension PredicateExpressions.Filter: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let s = try converter.expression(sequence)
    return try converter.withClosureVariable(variable.key) { (c, name) throws(SiftError) -> TypedTerm in
      .expression(ExpressionNode(.subquery(collection: s, variable: name, predicate: try c.predicate(self.filter))))
    }
  }
}

extension PredicateExpressions.SequenceMinimum: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(TypedValues.append(.operator(.min), to: try converter.expression(elements)))
  }
}

extension PredicateExpressions.SequenceMaximum: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(TypedValues.append(.operator(.max), to: try converter.expression(elements)))
  }
}

/// String-only operations: `contains(_:)` and `starts(with:)` of a `String`. Swift finds the
/// empty string in every string, where `CONTAINS ""` and `BEGINSWITH ""` are false (as in
/// Apple's NSPredicate): an empty constant is `TRUEPREDICATE`, a needle from a key path
/// `needle == "" OR text CONTAINS needle`.
enum TypedText {
  static func stringOperation(
    _ type: Any.Type, _ name: String, _ op: ComparisonOperator, _ lhs: Any, _ rhs: Any,
    _ converter: inout TypedConverter
  ) throws(SiftError) -> TypedTerm {
    guard type is any StringProtocol.Type else {
      throw TypedConverter.refusal(
        .unconvertibleExpression,
        "cannot convert \(name) of a #Predicate on \(type): only a String's \(name) has a store equivalent")
    }
    let text = try converter.expression(lhs), needle = try converter.expression(rhs)
    let found = TypedTerm.compare(text, op, needle)
    if case .constant(let v) = needle.kind {
      return .predicate(v == .string("") ? PredicateNode(.constant(true)) : found)
    }
    let empty = TypedTerm.compare(needle, .equal, .constant(.string("")))
    return .predicate(TypedLogic.flat(empty, found, and: false))
  }
}

/// `contains(where:)` and `allSatisfy` as `ANY`/`ALL` when the closure is one comparison of its
/// element, else as a `SUBQUERY` count.
enum TypedQuantified {
  /// `ANY s op x` for a closure `{ $0 op x }` whose other side does not use `$0`.
  static func quantified(
    _ q: SiftQuantifier, _ s: ExpressionNode, _ name: String, _ test: PredicateNode
  ) -> PredicateNode? {
    guard case .comparison(let c) = test.kind, c.quantifier == nil, c.lhs == ExpressionNode(.variable(name)),
      !uses(c.rhs, name)
    else { return nil }
    return TypedTerm.compare(s, c.op, c.rhs, quantifier: q)
  }

  /// `SUBQUERY(s, $name, test).@count`.
  static func subqueryCount(_ s: ExpressionNode, _ name: String, _ test: PredicateNode) -> ExpressionNode {
    TypedValues.append(.operator(.count), to: ExpressionNode(.subquery(collection: s, variable: name, predicate: test)))
  }

  static func uses(_ e: ExpressionNode, _ name: String) -> Bool {
    var found = false
    ASTWalker.forEachExpression(in: e) { node in
      if case .variable(name) = node.kind { found = true }
    }
    return found
  }
}
