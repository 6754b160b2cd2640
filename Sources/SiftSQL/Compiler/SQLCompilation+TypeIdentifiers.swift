import SiftSyntax

extension SQLCompilation {
  /// `t UTI-EQUALS u` and `t UTI-CONFORMS-TO u` with a constant identifier `u`: `t = u`, and
  /// `t IN` the bound list of the identifiers conforming to `u` (`SystemTypeIdentifiers`),
  /// exact, as memory compares. The operands are checked as the string operators check
  /// theirs: nil on either side is false, anything but text is `not-a-string` (per row for a
  /// column of any kind), as in memory.
  mutating func typeIdentifier(
    _ op: ComparisonOperator, _ lhs: Operand, _ rhs: Operand, _ c: SiftComparison, lhsRange: SiftSourceRange,
    rhsRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    var l = lhs
    var r = rhs
    let x = textChecked(try scalar(&l, hint: .string, lhsRange))
    let y = try scalar(&r, hint: .string, rhsRange)
    if isNullConstant(x) || isNullConstant(y) { return .alwaysFalse }
    for (e, range) in [(x, lhsRange), (y, rhsRange)] where !(e.type == .string || e.type.family == 0) {
      throw fail(.stringOperatorNeedsStrings(op.keyword, this: e.type), range)
    }
    guard case .string(let u)? = constant(y) else {
      throw fail(.notCompilable("\(op.keyword) with an identifier that is not a constant"), rhsRange)
    }
    let identifiers = op == .utiEquals ? [u] : SystemTypeIdentifiers.conforming(to: u)
    var needle = Operand.value(x)
    let exact = SiftComparison(quantifier: c.quantifier, lhs: c.lhs, op: .in, options: [], rhs: c.rhs)
    return try inList(&needle, identifiers.map { SiftValue.string($0) }, exact, needleRange: lhsRange)
  }
}
