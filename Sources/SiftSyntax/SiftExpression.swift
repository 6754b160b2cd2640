/// A parsed expression: Sift's counterpart of `NSExpression(format:)`.
///
/// The format is one expression of the predicate language: key paths, constants, arithmetic,
/// aggregates `{…}`, the built-in functions in either spelling (`sum:(scores)`, `count:(tags)`,
/// `average:({1, 2, 3})`, `now()`), `FUNCTION(…)`, `%@`/`%K` specifiers and `$VARIABLES`. The
/// parser's expression rule reads it, so an expression means here what it means as an operand
/// of a predicate. Evaluating it against a record is in SiftEvaluation (`expressionValue(with:)`).
///
/// ```swift
/// let total = try SiftExpression(format: "sum:(%K) * $RATE", "menu.price")
/// print(total)   // sum(menu.price) * $RATE
/// ```
///
/// Equality compares the trees only (not the source text or positions).
public struct SiftExpression: Sendable, Hashable, CustomStringConvertible {
  /// The expression tree.
  public var root: ExpressionNode
  /// The format string the tree's source ranges point into.
  public var source: String
  /// Format specifiers still waiting for an argument (0 once bound).
  public var unboundArgumentCount: Int

  /// Wraps a tree built in code; `source` is only used to render diagnostics.
  ///
  /// ```swift
  /// let e = SiftExpression(root: .keyPath("price"))
  /// ```
  public init(root: ExpressionNode, source: String = "") {
    var count = 0
    ASTWalker.forEachExpression(in: root) { e in
      if case .argument = e.kind { count += 1 }
    }
    self.init(root: root, source: source, unboundArgumentCount: count)
  }

  init(root: ExpressionNode, source: String, unboundArgumentCount: Int) {
    self.root = root
    self.source = source
    self.unboundArgumentCount = unboundArgumentCount
  }

  /// Parses `format` and binds `arguments` to its `%@`/`%K`/… specifiers, in order
  /// (`NSExpression(format:_:)`).
  ///
  /// ```swift
  /// let e = try SiftExpression(format: "%K * 2", "price")   // price * 2
  /// ```
  /// - Throws: `SiftError` at stage `.parse` or `.arguments`.
  public init(format: String, _ arguments: SiftValue...) throws(SiftError) {
    try self.init(format: format, arguments: arguments)
  }

  /// Parses `format` and binds an argument array (`NSExpression(format:argumentArray:)`), as
  /// `SiftPredicate(format:arguments:limits:)` does for predicates.
  ///
  /// ```swift
  /// let e = try SiftExpression(format: "max:(%@)", arguments: [[3, 9, 4]])
  /// ```
  public init(format: String, arguments: [SiftValue], limits: ParserLimits = ParserLimits()) throws(SiftError) {
    var failure: ArgumentFailure?
    let (root, _, count) = try SiftExpression.parseTree(format, limits: limits, arguments: arguments, failure: &failure)
    if arguments.count > count {
      throw ArgumentBinder.tooManyArguments(arguments.count, uses: count, source: format)
    }
    if let failure {
      throw SiftError(stage: .arguments, diagnostic: failure.diagnostic, source: format)
    }
    self.init(root: root, source: format, unboundArgumentCount: 0)
  }

  /// Parses without binding: specifiers stay in the tree until `binding(_:)`.
  ///
  /// ```swift
  /// let template = try SiftExpression.parse("%K + 1")
  /// let next = try template.binding(["count"])   // count + 1
  /// ```
  public static func parse(_ format: String, limits: ParserLimits = ParserLimits()) throws(SiftError)
    -> SiftExpression
  {
    var unused: ArgumentFailure?
    let (root, _, count) = try parseTree(format, limits: limits, arguments: nil, failure: &unused)
    return SiftExpression(root: root, source: format, unboundArgumentCount: count)
  }

  /// The canonical format string (`NSExpression.description` style), which parses back to an
  /// equal expression.
  ///
  /// ```swift
  /// try SiftExpression(format: "average:( {1,2} )").expressionFormat   // average({1, 2})
  /// ```
  public var expressionFormat: String { CanonicalPrinter().print(root) }

  /// Same as `expressionFormat`.
  public var description: String { expressionFormat }

  /// Names of the `$VARIABLES` still free in the expression (subquery iterators excluded).
  ///
  /// ```swift
  /// try SiftExpression(format: "$A + $B").variables   // ["A", "B"]
  /// ```
  public var variables: Set<String> { VariableCollector.freeVariables(of: root) }

  /// Replaces the format specifiers with `arguments`, in source order, with the same checks as
  /// `SiftPredicate.binding(_:)`.
  ///
  /// ```swift
  /// let e = try SiftExpression.parse("%K * %@").binding(["price", 2])   // price * 2
  /// ```
  /// - Throws: `SiftError` at stage `.arguments`, pointing at the specifier.
  public func binding(_ arguments: [SiftValue]) throws(SiftError) -> SiftExpression {
    if arguments.count > unboundArgumentCount {
      throw ArgumentBinder.tooManyArguments(arguments.count, uses: unboundArgumentCount, source: source)
    }
    if unboundArgumentCount == 0 { return self }
    do {
      let root = try ArgumentBinder.bindTree(root, arguments) ?? root
      return SiftExpression(root: root, source: source, unboundArgumentCount: 0)
    } catch {
      throw SiftError(stage: .arguments, diagnostic: error.diagnostic, source: source)
    }
  }

  /// Replaces free `$VARIABLES` with values (`NSExpression`'s substitution); variables missing
  /// from the dictionary stay, SUBQUERY iterators are never replaced.
  ///
  /// ```swift
  /// let e = try SiftExpression(format: "price * $RATE").substituting(["RATE": 1.2])   // price * 1.2
  /// ```
  public func substituting(_ variables: [String: SiftValue]) -> SiftExpression {
    let root = ASTWalker.rewrite(root, scope: []) { (e: ExpressionNode, scope: Set<String>) -> ExpressionNode in
      if case .variable(let name) = e.kind, !scope.contains(name), let value = variables[name] {
        return ExpressionNode(.constant(value), range: e.range)
      }
      return ArgumentBinder.normalize(e)
    }
    return SiftExpression(root: root, source: source, unboundArgumentCount: unboundArgumentCount)
  }

  /// Two SiftExpression values are equal when their trees are (source positions aside).
  public static func == (a: SiftExpression, b: SiftExpression) -> Bool { a.root == b.root }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(root) }

  /// The parser's `expressionFormat` rule over `format`.
  static func parseTree(
    _ format: String, limits: ParserLimits, arguments: [SiftValue]?, failure: inout ArgumentFailure?
  ) throws(SiftError) -> (ExpressionNode, [SiftDiagnostic], Int) {
    try Parser.run(
      format, limits: limits, arguments: arguments, argumentFailure: &failure,
      empty: DiagnosticCatalog.emptyExpression(at: .at(0))
    ) { (p: inout Parser) throws(ParseFailure) in try p.parseExpressionFormat() }
  }
}
