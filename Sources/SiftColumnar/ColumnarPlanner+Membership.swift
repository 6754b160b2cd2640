import Foundation
import SiftEvaluation
import SiftSyntax

/// `key IN {…}` over a column: a short list (below `ConstantSet.minimumCount`, as in the row
/// evaluator) is an OR of equality kernels (each a vectorized range test), a long one a single
/// kernel that looks every value up in a hashed set of the list's elements. The OR scanned the column once per element: `qty IN %@` with 150,000
/// integers over 100,000 records took 46 s (`sift batch --data`); the set takes one lookup a
/// row (`sift-bench --suite hostile`, `hostile.in_columnar`).
///
/// The set holds exactly what `==` would match in the column's kind (the rules of
/// `ValueComparison.equal`): numbers by value (booleans 1 and 0, `2.0 == 2`, an integer and
/// a `Double` only when equal exactly), strings by their bytes folded as `[c]`/`[d]` fold,
/// dates by their instant; an element of another kind (or nil) matches no value of the column.
extension ColumnarPlanner {
  /// The kernel test for `IN items` over the values of `column`, as one set lookup a row; nil
  /// for a column kind with no kernel.
  func membershipTest(_ column: Column, _ fold: TextFoldCode, _ items: [SiftValue]) -> ColumnarTest? {
    switch column.kind {
    case .int:
      var set: Set<Int64> = []
      for item in items {
        switch item {
        case .int(let i): set.insert(i)
        case .bool(let b): set.insert(b ? 1 : 0)
        case .double(let d): if let i = Int64(exactly: d) { set.insert(i) }
        default: break
        }
      }
      return set.isEmpty ? .nothing : .intSet(set)
    case .double:
      // `Set<Double>` is `==` on doubles: -0.0 meets 0.0, a NaN meets nothing. A column value
      // (a double, or an integer it holds exactly) equals an integer element only when the
      // element converts exactly.
      var set: Set<Double> = []
      for item in items {
        switch item {
        case .int(let i): if let d = Double(exactly: i) { set.insert(d) }
        case .bool(let b): set.insert(b ? 1 : 0)
        case .double(let d): set.insert(d)
        default: break
        }
      }
      return set.isEmpty ? .nothing : .doubleSet(set)
    case .date:
      var set: Set<Double> = []
      for case .date(let d) in items { set.insert(d.timeIntervalSinceReferenceDate) }
      return set.isEmpty ? .nothing : .doubleSet(set)
    case .bool:
      var zero = false
      var one = false
      for item in items {
        switch item {
        case .bool(let b): if b { one = true } else { zero = true }
        case .int(let i): if i == 0 { zero = true } else if i == 1 { one = true }
        case .double(let d): if d == 0 { zero = true } else if d == 1 { one = true }
        default: break
        }
      }
      if zero && one { return .bools(0, 1) }
      return zero ? .bools(0, 0) : one ? .bools(1, 1) : .nothing
    case .string:
      var needles: [[UInt8]] = []
      for case .string(let s) in items { needles.append(Array(fold.fold(s).utf8)) }
      return needles.isEmpty ? .nothing : .stringSet(ByteStringSet(needles), fold: fold)
    default:
      return nil
    }
  }
}
