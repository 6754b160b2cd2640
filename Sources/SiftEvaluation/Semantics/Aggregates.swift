import Foundation
import SiftSyntax

/// Statistics over collections, shared by the KVC operators (`@sum`, `@avg`, …) and the
/// functions (`sum:`, `average:`, …).
///
/// Nil elements are skipped by every aggregate except counting. Empty input (after skipping):
/// sum is 0; average, min, max, median and stddev are nil; mode is an empty array.
/// `sum`/`average`/`median`/`stddev` need numbers (`not-a-number`); `min`/`max` order
/// numbers, strings or dates (`incomparable-values` for a mix).
enum Aggregates {
  /// `@sum`: `NumericSum`'s rule (shared with SQLite's `sift_sum`).
  static func sum(_ items: EvalList, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    var sum = NumericSum()
    for i in 0..<items.count {
      let v = items[i]
      if v.isNull { continue }
      guard let n = v.number else { throw EvalDiagnostics.needsNumber("a sum", v, at: r) }
      if case .int(let x) = n { sum.add(x) } else { sum.add(Arithmetic.double(n)) }
    }
    return sum.integer.map(EvalValue.int) ?? .double(sum.double)
  }

  static func numbers(_ items: EvalList, _ what: String, at r: SiftSourceRange) throws(EvalFailure) -> [Double] {
    var out: [Double] = []
    out.reserveCapacity(items.count)
    for i in 0..<items.count {
      let v = items[i]
      if v.isNull { continue }
      guard let n = v.number else { throw EvalDiagnostics.needsNumber(what, v, at: r) }
      out.append(Arithmetic.double(n))
    }
    return out
  }

  static func average(_ items: EvalList, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    let xs = try numbers(items, "an average", at: r)
    if xs.isEmpty { return .null }
    return .double(xs.reduce(0, +) / Double(xs.count))
  }

  static func extreme(_ items: EvalList, max: Bool, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    var best: EvalValue = .null
    let rule = TextRule([])
    for i in 0..<items.count {
      let v = items[i]
      if v.isNull { continue }
      if best.isNull {
        best = v
        continue
      }
      guard let c = ValueComparison.order(v, best, rule) else { throw EvalDiagnostics.incomparable(v, best, at: r) }
      if c != ValueComparison.unordered && (max ? c > 0 : c < 0) { best = v }
    }
    return best
  }

  static func median(_ items: EvalList, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    let xs = try numbers(items, "a median", at: r).sorted()
    if xs.isEmpty { return .null }
    let mid = xs.count / 2
    return .double(xs.count % 2 == 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2)
  }

  static func stddev(_ items: EvalList, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    let xs = try numbers(items, "a standard deviation", at: r)
    if xs.isEmpty { return .null }
    let mean = xs.reduce(0, +) / Double(xs.count)
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    return .double(variance.squareRoot())
  }

  /// All most frequent values, in first-seen order.
  static func mode(_ items: EvalList) -> EvalValue {
    var counts: [Key: Int] = [:]
    var order: [(Key, EvalValue)] = []
    for i in 0..<items.count {
      let v = items[i]
      if v.isNull { continue }
      let k = hashKey(v)
      if let c = counts[k] {
        counts[k] = c + 1
      } else {
        counts[k] = 1
        order.append((k, v))
      }
    }
    let top = counts.values.max() ?? 0
    return .array(order.filter { counts[$0.0] == top }.map(\.1))
  }

  /// Distinct values (by equality), first occurrence kept; nils skipped.
  static func distinct(_ items: [EvalValue]) -> [EvalValue] {
    var seen: Set<Key> = []
    var out: [EvalValue] = []
    for v in items where !v.isNull {
      if seen.insert(hashKey(v)).inserted { out.append(v) }
    }
    return out
  }

  /// What `distinct`, `mode`, group-by and the set operators tell values apart by.
  typealias Key = SiftValueKey

  /// `SiftValueKey`: agrees with `ValueComparison.equal` under no options.
  static func hashKey(_ v: EvalValue) -> Key {
    SiftValueKey(v.siftValue())
  }

}
