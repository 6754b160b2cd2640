import SiftSyntax

/// The numeric bounds a comparison with constants becomes: every kernel over numbers, booleans
/// and dates tests a value against one inclusive range.
extension ColumnarPlanner {
  /// Inclusive `Double` bounds for a numeric comparison; nil when a bound is an integer a
  /// `Double` does not hold exactly.
  func doubleBounds(_ op: ComparisonOperator, _ bounds: [SiftValue]) -> (Double, Double)? {
    var ds: [Double] = []
    for b in bounds {
      switch b {
      case .double(let d): ds.append(d)
      case .int(let i):
        guard i.magnitude <= Column.exactDoubleLimit else { return nil }
        ds.append(Double(i))
      case .bool(let x): ds.append(x ? 1 : 0)
      default: return nil
      }
    }
    if ds.contains(where: \.isNaN) { return (1, 0) }
    let c = ds[0]
    switch op {
    case .equal: return (c, c)
    case .lessThan: return c == -.infinity ? (1, 0) : (-.infinity, c.nextDown)
    case .lessThanOrEqual: return (-.infinity, c)
    case .greaterThan: return c == .infinity ? (1, 0) : (c.nextUp, .infinity)
    case .greaterThanOrEqual: return (c, .infinity)
    case .between: return (ds[0], ds[1])
    default: return nil
    }
  }

  /// Inclusive integer bounds for a comparison of integers with `rhs` (a number, or two for
  /// BETWEEN); an empty range when nothing can match.
  func intBounds(_ op: ComparisonOperator, _ rhs: SiftValue) -> (Int64, Int64)? {
    func lower(_ v: SiftValue, strict: Bool) -> Int64? {
      switch v {
      case .int(let i): return strict ? (i == .max ? nil : i + 1) : i
      case .bool(let b): return strict ? (b ? 2 : 1) : (b ? 1 : 0)
      case .double(let d):
        // i > d ⇔ i ≥ ⌊d⌋ + 1, i ≥ d ⇔ i ≥ ⌈d⌉ (`d.nextUp` skips integers where a double's
        // step is over 1: `n > 2^63 - 1024.0` is true for Int64.max).
        if d.isNaN { return nil }
        let x = strict ? d.rounded(.down) : d.rounded(.up)
        if x >= 9_223_372_036_854_775_808.0 { return nil }
        if x < -9_223_372_036_854_775_808.0 { return .min }
        return strict ? Int64(x) + 1 : Int64(x)  // x < 2^63 is at most 2^63 - 1024: no overflow
      default: return nil
      }
    }
    func upper(_ v: SiftValue, strict: Bool) -> Int64? {
      switch v {
      case .int(let i): return strict ? (i == .min ? nil : i - 1) : i
      case .bool(let b): return strict ? (b ? 0 : -1) : (b ? 1 : 0)
      case .double(let d):
        // i < d ⇔ i ≤ ⌈d⌉ - 1, i ≤ d ⇔ i ≤ ⌊d⌋ (`d.nextDown` skips integers where a double's
        // step is over 1: `n < 2^63` is true for Int64.max).
        if d.isNaN { return nil }
        let x = strict ? d.rounded(.up) : d.rounded(.down)
        if x >= 9_223_372_036_854_775_808.0 { return .max }
        if strict ? x <= -9_223_372_036_854_775_808.0 : x < -9_223_372_036_854_775_808.0 { return nil }
        return strict ? Int64(x) - 1 : Int64(x)  // x > -2^63 when strict: no overflow
      default: return nil
      }
    }
    let empty: (Int64, Int64) = (1, 0)
    switch op {
    case .between:
      guard case .array(let b) = rhs, b.count == 2, b.allSatisfy(\.isNumeric) else { return nil }
      guard let lo = lower(b[0], strict: false), let hi = upper(b[1], strict: false) else { return empty }
      return (lo, hi)
    default:
      guard rhs.isNumeric else { return nil }
      switch op {
      case .equal:
        guard let lo = lower(rhs, strict: false), let hi = upper(rhs, strict: false) else { return empty }
        return (lo, hi)
      case .lessThan: return upper(rhs, strict: true).map { (.min, $0) } ?? empty
      case .lessThanOrEqual: return upper(rhs, strict: false).map { (.min, $0) } ?? empty
      case .greaterThan: return lower(rhs, strict: true).map { ($0, .max) } ?? empty
      case .greaterThanOrEqual: return lower(rhs, strict: false).map { ($0, .max) } ?? empty
      default: return nil
      }
    }
  }
}

/// Comparisons of one column joined by AND, as one range kernel: `createdAt >= x AND
/// createdAt < y` makes one pass over the column instead of two passes and a mask.
extension ColumnarPlanner {
  /// `terms` (an AND's) with each range test merged into an earlier one over the same column.
  static func mergingRanges(_ terms: [ColumnarPlan]) -> [ColumnarPlan] {
    var out: [ColumnarPlan] = []
    for t in terms {
      if case .leaf(let b) = t {
        let earlier = out.lastIndex { if case .leaf(let a) = $0 { a.column === b.column } else { false } }
        if let i = earlier, case .leaf(let a) = out[i], let m = merged(a, b) {
          out[i] = .leaf(m)
          continue
        }
      }
      out.append(t)
    }
    return out
  }

  /// One leaf answering `a AND b` (both over the same column), or nil when they do not merge.
  /// A null row answers both null answers ANDed.
  static func merged(_ a: ColumnarLeaf, _ b: ColumnarLeaf) -> ColumnarLeaf? {
    func leaf(_ t: ColumnarTest) -> ColumnarLeaf {
      ColumnarLeaf(column: a.column, test: t, nullAnswer: a.nullAnswer & b.nullAnswer)
    }
    switch (a.test, b.test) {
    case (.ints(let l1, let h1), .ints(let l2, let h2)):
      let lo = max(l1, l2), hi = min(h1, h2)
      return leaf(lo <= hi ? .ints(lo, hi) : .nothing)
    case (.doubles(let l1, let h1), .doubles(let l2, let h2)):
      let lo = max(l1, l2), hi = min(h1, h2)
      return leaf(lo <= hi ? .doubles(lo, hi) : .nothing)
    case (.strings(let s), .strings(let t)):
      guard case .range = s.operation, case .range = t.operation, s.fold == t.fold,
        s.lower == nil || t.lower == nil, s.upper == nil || t.upper == nil
      else { return nil }
      return leaf(
        .strings(
          StringTest(operation: .range, needle: [], lower: s.lower ?? t.lower, upper: s.upper ?? t.upper, fold: s.fold))
      )
    default:
      return nil
    }
  }
}
