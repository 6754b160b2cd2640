import SiftSyntax

/// The set operators `UNION`, `INTERSECT` and `MINUS` (Apple's `expressionForUnionSet:with:`…).
///
/// - Both operands are collections (arrays, lists, to-many key paths); anything else is the
///   error `not-a-number` naming the operator. A nil operand gives nil, as for arithmetic.
/// - Elements are told apart by Sift's `==`: numbers by value (`1` and `1.0` and `true` are one
///   element), strings by code points, no string ↔ number coercion; nil is an element equal to nil.
/// - The result is an array with each element once, in a fixed order (Apple's `NSSet` has none):
///   `UNION` is the first operand's elements then the second's new ones; `INTERSECT` and `MINUS`
///   keep the first operand's order. Linear in the operands' sizes (hashed).
enum SetOperations {
  static func apply(_ op: BinaryOperator, _ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange)
    throws(EvalFailure) -> EvalValue
  {
    if a.isNull || b.isNull { return .null }
    guard let x = a.list, let y = b.list else { throw EvalDiagnostics.wrongOperands("'\(op.symbol)'", a, b, at: r) }
    let out = SetOperatorFolding.combine(op, x.elements, y.elements, key: Aggregates.hashKey)
    return .array(out)
  }
}
