import SiftSyntax

extension SiftExpression {
  /// Compiles the expression for evaluation, once; the result is reusable and safe to share
  /// across threads.
  ///
  /// ```swift
  /// let total = try SiftExpression(format: "sum:(menu.price) * $RATE").compile()
  /// try total.value(with: venue, variables: ["RATE": 1.2])
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` for what can never evaluate: an unregistered
  ///   `FUNCTION`, `ANYKEY`, an unbound `%@`, an invalid constant pattern.
  public func compile(_ options: EvaluationOptions = EvaluationOptions()) throws(SiftError) -> SiftExpressionEvaluator {
    var compiler = Compiler(functions: options.functions)
    do {
      let f = Specializer().expression(try compiler.expression(root))
      let free = compiler.freeVariables.map {
        (name: $0.key, slot: $0.value, range: compiler.freeVariableRanges[$0.key] ?? .at(0))
      }
      .sorted { $0.range.start < $1.range.start }
      return SiftExpressionEvaluator(
        function: f, slotCount: compiler.slotCount, freeVariables: free, expression: self)
    } catch {
      throw error.error(source: source)
    }
  }

  /// The value of the expression for `record` (`NSExpression.expressionValue(with:context:)`):
  /// `SELF` is the record, key paths read it, `$VARIABLES` come from `variables`.
  ///
  /// ```swift
  /// try SiftExpression(format: "count:(tags)").expressionValue(with: SiftValue.dictionary(["tags": ["a", "b"]]))   // 2
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` (a type error, an unbound variable, …).
  public func expressionValue(with record: some SiftRecord, variables: [String: SiftValue] = [:]) throws(SiftError)
    -> SiftValue
  {
    try compile().value(with: record, variables: variables)
  }

  /// The value of an expression that reads no record (`SELF` is nil, key paths are nil).
  ///
  /// ```swift
  /// try SiftExpression(format: "average:({1, 2, 6})").expressionValue()   // 3.0
  /// ```
  public func expressionValue(variables: [String: SiftValue] = [:]) throws(SiftError) -> SiftValue {
    try compile().value(with: SiftValue.null, variables: variables)
  }
}

/// A compiled expression: evaluates it against records (`NSExpression.expressionValue`).
/// Immutable and `Sendable`; each call keeps its own state.
///
/// ```swift
/// let e = try SiftExpression(format: "price * (1 + $TAX)").compile()
/// try e.value(with: SiftValue.dictionary(["price": 10]), variables: ["TAX": 0.5])   // 15.0
/// ```
public struct SiftExpressionEvaluator: Sendable {
  let function: ExpressionFn
  let slotCount: Int
  let freeVariables: [(name: String, slot: Int, range: SiftSourceRange)]
  /// The expression this evaluator was compiled from.
  public let expression: SiftExpression

  init(
    function: @escaping ExpressionFn, slotCount: Int,
    freeVariables: [(name: String, slot: Int, range: SiftSourceRange)],
    expression: SiftExpression
  ) {
    self.function = function
    self.slotCount = slotCount
    self.freeVariables = freeVariables
    self.expression = expression
  }

  /// Names of the `$VARIABLES` that must be given.
  ///
  /// ```swift
  /// try SiftExpression(format: "$A + 1").compile().variables   // ["A"]
  /// ```
  public var variables: Set<String> { Set(freeVariables.map(\.name)) }

  /// The value for `record`; a free `$VARIABLE` missing from `variables` is an error naming it.
  ///
  /// ```swift
  /// try e.value(with: SiftValue.dictionary(["price": 10]), variables: ["TAX": 0.5])
  /// ```
  public func value(with record: some SiftRecord, variables: [String: SiftValue] = [:]) throws(SiftError) -> SiftValue {
    let frame = try Frame(slotCount: slotCount, binding: freeVariables, from: variables, source: expression.source)
    // The context holds the frame's storage as raw pointers: keep the frame alive until the end.
    defer { withExtendedLifetime(frame) {} }
    let f = function
    do {
      let result = try lending(record.siftRecordRoot.value) { r throws(EvalFailure) in try f(Ctx(r, frame: frame)) }
      return result.siftValue()
    } catch {
      throw error.error(source: expression.source)
    }
  }
}
