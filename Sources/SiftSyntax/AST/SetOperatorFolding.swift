/// Folds a set expression over constant lists (`{1, 2} UNION {2, 3}`) into the list it
/// denotes, for engines that cannot run set operators themselves (SQL compiles the folded list).
///
/// Elements are told apart as memory's `==` does (Grammar/README.md, "Set expressions"):
/// numbers by value (`1`, `1.0` and `true` are one element), strings by their code points
/// (UTF-8 bytes, no normalization), no string ↔ number coercion, nil equal to nil. The order
/// is memory's: `UNION` keeps the first operand's elements then the second's new ones;
/// `INTERSECT` and `MINUS` keep the first operand's order.
///
/// ```swift
/// // {1, 2} UNION {2.0, 3}  →  [1, 2, 3]
/// ```
package enum SetOperatorFolding {
  /// The constant elements of `e` when it is a list of constants (the parser folds `{1, 2}`
  /// to one constant array) or a set expression over such lists; nil otherwise (a key path, a
  /// variable, a list element that is not a constant).
  package static func constantElements(_ e: ExpressionNode) -> [SiftValue]? {
    switch e.kind {
    case .constant(.array(let items)):
      return items
    case .aggregate(let items):
      var out: [SiftValue] = []
      for item in items {
        guard case .constant(let v) = item.kind else { return nil }
        out.append(v)
      }
      return out
    case .binary(let op, let a, let b) where op.isSetOperator:
      guard let x = constantElements(a), let y = constantElements(b) else { return nil }
      return apply(op, x, y)
    default:
      return nil
    }
  }

  static func apply(_ op: BinaryOperator, _ x: [SiftValue], _ y: [SiftValue]) -> [SiftValue] {
    combine(op, x, y, key: SiftValueKey.init)
  }

  /// `UNION`, `INTERSECT` or `MINUS` of two element lists, told apart by `key` (memory's
  /// elements and the compiler's constants alike): each element once, `UNION` in the first
  /// operand's order then the second's new ones, the others in the first operand's order.
  package static func combine<T>(
    _ op: BinaryOperator, _ x: [T], _ y: [T], key: (T) -> SiftValueKey
  ) -> [T] {
    var seen: Set<SiftValueKey> = []
    var out: [T] = []
    if op == .union {
      for v in x + y where seen.insert(key(v)).inserted { out.append(v) }
      return out
    }
    let other = Set(y.map(key))
    let keep = op == .intersect
    for v in x {
      let k = key(v)
      if other.contains(k) == keep, seen.insert(k).inserted { out.append(v) }
    }
    return out
  }
}
