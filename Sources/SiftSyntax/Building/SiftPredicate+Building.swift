/// Predicates built in code, as `NSCompoundPredicate` and `NSComparisonPredicate` build them in
/// Foundation. Every built predicate is in the form the parser produces, so it prints
/// canonically and `SiftPredicate.parse(p.predicateFormat) == p` (values with no literal form,
/// such as NaN, data and dictionaries, excepted; see Grammar/README.md).
///
/// ```swift
/// let cheap = try SiftPredicate.comparison("price", .lessThan, 10)
/// let blue = try SiftPredicate.comparison("name", .beginsWith, "blue", options: .caseInsensitive)
/// let p = cheap && !blue   // price < 10 AND NOT name BEGINSWITH[c] "blue"
/// ```
///
/// A built predicate has no warnings, and its `source` is empty unless it was one parsed
/// predicate: diagnostics of later binding point at the start. Unbound `%@`/`%K` specifiers of
/// the operands are renumbered, so binding the combination takes the first operand's arguments
/// first, in printed order.
extension SiftPredicate {
  /// `TRUEPREDICATE`: matches every record.
  ///
  /// ```swift
  /// SiftPredicate.truePredicate.predicateFormat   // "TRUEPREDICATE"
  /// ```
  public static let truePredicate = SiftPredicate(root: PredicateNode(.constant(true)))

  /// `FALSEPREDICATE`: matches no record.
  ///
  /// ```swift
  /// SiftPredicate.falsePredicate.predicateFormat   // "FALSEPREDICATE"
  /// ```
  public static let falsePredicate = SiftPredicate(root: PredicateNode(.constant(false)))

  /// `a AND b AND …` (`NSCompoundPredicate(andPredicateWithSubpredicates:)`). No terms is
  /// `TRUEPREDICATE`, one term is that term; the terms are kept as given (not flattened).
  ///
  /// ```swift
  /// let p = SiftPredicate.and([try .comparison("a", .equal, 1), try .comparison("b", .equal, 2)])
  /// p.predicateFormat   // a == 1 AND b == 2
  /// ```
  public static func and(_ terms: [SiftPredicate]) -> SiftPredicate {
    compound(terms, empty: .truePredicate) { PredicateNode(.and($0)) }
  }

  /// `a OR b OR …` (`NSCompoundPredicate(orPredicateWithSubpredicates:)`). No terms is
  /// `FALSEPREDICATE`, one term is that term; the terms are kept as given (not flattened).
  ///
  /// ```swift
  /// let p = SiftPredicate.or([try .comparison("a", .equal, 1), try .comparison("b", .equal, 2)])
  /// p.predicateFormat   // a == 1 OR b == 2
  /// ```
  public static func or(_ terms: [SiftPredicate]) -> SiftPredicate {
    compound(terms, empty: .falsePredicate) { PredicateNode(.or($0)) }
  }

  /// `NOT p` (`NSCompoundPredicate(notPredicateWithSubpredicate:)`).
  ///
  /// ```swift
  /// SiftPredicate.not(try .comparison("a", .equal, 1)).predicateFormat   // NOT a == 1
  /// ```
  public static func not(_ p: SiftPredicate) -> SiftPredicate {
    SiftPredicate(
      root: PredicateNode(.not(p.root)), source: p.source, warnings: [],
      unboundArgumentCount: p.unboundArgumentCount)
  }

  /// `a AND b`; an AND operand contributes its terms, so `a && b && c` is one three-term AND.
  ///
  /// ```swift
  /// let p = try SiftPredicate.comparison("a", .equal, 1) && .comparison("b", .equal, 2)
  /// ```
  public static func && (a: SiftPredicate, b: SiftPredicate) -> SiftPredicate {
    and(andTerms(a) + andTerms(b))
  }

  /// `a OR b`; an OR operand contributes its terms, so `a || b || c` is one three-term OR.
  ///
  /// ```swift
  /// let p = try SiftPredicate.comparison("a", .equal, 1) || .comparison("b", .equal, 2)
  /// ```
  public static func || (a: SiftPredicate, b: SiftPredicate) -> SiftPredicate {
    or(orTerms(a) + orTerms(b))
  }

  /// `NOT p`.
  ///
  /// ```swift
  /// let p = !(try SiftPredicate.comparison("deleted", .equal, true))   // NOT deleted == YES
  /// ```
  public static prefix func ! (p: SiftPredicate) -> SiftPredicate { not(p) }

  /// `[modifier] keyPath op[options] value` (`NSComparisonPredicate` with a key-path left
  /// expression and a constant right expression).
  ///
  /// `keyPath` follows `%K`'s rules: dotted keys, `@count`-style collection operators, and
  /// `SELF` for the record itself. `modifier` is nil for a direct comparison, or `.any`,
  /// `.all`, `.none`. `BETWEEN` takes a two-element array (`[low, high]`); `IN` a collection.
  ///
  /// ```swift
  /// try SiftPredicate.comparison("SELF", .beginsWith, "d", options: .caseInsensitive)
  /// // SELF BEGINSWITH[c] "d"
  /// try SiftPredicate.comparison("tags", .equal, "vegan", modifier: .any)
  /// // ANY tags == "vegan"
  /// try SiftPredicate.comparison("price", .between, [5, 10])
  /// // price BETWEEN {5, 10}
  /// ```
  /// - Throws: `SiftError` at stage `.arguments` for a key path with an empty component or
  ///   an unknown collection operator, or a `BETWEEN` value that is not a two-element array.
  public static func comparison(
    _ keyPath: String, _ op: ComparisonOperator, _ value: SiftValue,
    options: ComparisonOptions = [], modifier: SiftQuantifier? = nil
  ) throws(SiftError) -> SiftPredicate {
    let lhs: ExpressionNode
    do {
      lhs = try ArgumentBinder.keyPathExpression(
        keyPath, for: "", range: SiftSourceRange(start: 0, end: keyPath.utf8.count))
    } catch {
      throw SiftError(stage: .arguments, diagnostic: error.diagnostic, source: keyPath)
    }
    if op == .between {
      guard case .array(let bounds) = value, bounds.count == 2 else {
        let text = CanonicalPrinter().print(ExpressionNode.constant(value))
        throw SiftError(
          stage: .arguments,
          diagnostic: SiftDiagnostic(
            id: .invalidBetweenBounds,
            message: "BETWEEN needs a two-element array [low, high], but the value is \(text)",
            range: SiftSourceRange(start: 0, end: text.utf8.count)),
          source: text)
      }
    }
    return comparison(lhs, op, .constant(value), options: options, modifier: modifier)
  }

  /// `[modifier] lhs op[options] rhs` from expression trees, for comparisons
  /// `comparison(_:_:_:options:modifier:)` cannot express (key path against key path,
  /// arithmetic, functions). Unbound specifiers in the operands are counted.
  ///
  /// ```swift
  /// let p = SiftPredicate.comparison(.keyPath("start"), .lessThan, .keyPath("end"))
  /// p.predicateFormat   // start < end
  /// ```
  public static func comparison(
    _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
    options: ComparisonOptions = [], modifier: SiftQuantifier? = nil
  ) -> SiftPredicate {
    let c = SiftComparison(quantifier: modifier, lhs: lhs, op: op, options: options, rhs: rhs)
    return SiftPredicate(root: PredicateNode(.comparison(c)))
  }

  // MARK: - Helpers

  /// The terms `a` contributes to an AND: its own terms when it is an AND of two or more.
  private static func andTerms(_ a: SiftPredicate) -> [SiftPredicate] {
    guard case .and(let terms) = a.root.kind, terms.count > 1 else { return [a] }
    return split(a, terms)
  }

  /// The terms `a` contributes to an OR: its own terms when it is an OR of two or more.
  private static func orTerms(_ a: SiftPredicate) -> [SiftPredicate] {
    guard case .or(let terms) = a.root.kind, terms.count > 1 else { return [a] }
    return split(a, terms)
  }

  /// The terms of a compound as predicates, each with its own argument count (positions are
  /// renumbered when the terms are joined again).
  private static func split(_ whole: SiftPredicate, _ terms: [PredicateNode]) -> [SiftPredicate] {
    terms.map { t in
      SiftPredicate(root: t, source: whole.source, warnings: [], unboundArgumentCount: countArguments(in: t))
    }
  }

  /// Joins `terms` into one compound built by `make`, renumbering unbound specifiers so that
  /// they count up from 0 in printed order, as the parser numbers them.
  private static func compound(
    _ terms: [SiftPredicate], empty: SiftPredicate, _ make: ([PredicateNode]) -> PredicateNode
  ) -> SiftPredicate {
    if terms.isEmpty { return empty }
    if terms.count == 1 { return terms[0] }
    var root = make(terms.map(\.root))
    let count = terms.reduce(0) { $0 + $1.unboundArgumentCount }
    if count > 0 { root = renumberArguments(root) }
    let source = terms.allSatisfy({ $0.source == terms[0].source }) ? terms[0].source : ""
    return SiftPredicate(root: root, source: source, warnings: [], unboundArgumentCount: count)
  }

  /// `p` with its `.argument` positions numbered 0, 1, 2, … in printed order (the order in
  /// which the rewrite meets the leaves).
  private static func renumberArguments(_ p: PredicateNode) -> PredicateNode {
    var next = 0
    return ASTWalker.rewrite(p) { (e: ExpressionNode, _: Set<String>) -> ExpressionNode in
      guard case .argument(let spec, _) = e.kind else { return e }
      defer { next += 1 }
      return ExpressionNode(.argument(spec, position: next), range: e.range)
    }
  }
}
