import Foundation
import SiftSyntax

/// A number as the evaluator sees it: booleans are 1 and 0.
enum Number {
  case int(Int64)
  case double(Double)
}

extension EvalValue {
  /// The value as a number (booleans are 1/0), or nil.
  @inline(__always)
  var number: Number? {
    switch self {
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)
    case .bool(let b): return .int(b ? 1 : 0)
    default: return nil
    }
  }
}

/// Exact numeric comparison: an `Int64` and a `Double` are compared by value, never by
/// converting the integer to a double (so 2^53+1 != 9007199254740992.0).
enum NumericOrder {
  /// -1, 0, 1, or nil when a NaN is involved (unordered).
  @inline(__always)
  static func compare(_ a: Number, _ b: Number) -> Int? {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.double(let x), .double(let y)):
      if x.isNaN || y.isNaN { return nil }
      return x < y ? -1 : (x == y ? 0 : 1)
    case (.int(let x), .double(let y)): return compare(x, y)
    case (.double(let x), .int(let y)): return compare(y, x).map { -$0 }
    }
  }

  /// Compares an integer with a double exactly (`NumberRules.compare`).
  @inline(__always)
  static func compare(_ i: Int64, _ d: Double) -> Int? { NumberRules.compare(i, d) }
}

/// Equality and ordering of evaluator values under a comparison's string options.
enum ValueComparison {
  /// `a == b`: nil equals only nil; numbers by value (booleans are 1/0); strings by code
  /// points under `rule`; dates, data; arrays element-wise and dictionaries key by key (string
  /// options apply inside). Different kinds are unequal (no coercion). Deeper than
  /// `EvalLimits.maxDataDepth` levels compares unequal.
  static func equal(_ a: EvalValue, _ b: EvalValue, _ rule: TextRule, depth: Int = EvalLimits.maxDataDepth) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    case (.string(let x), .string(let y)): return rule.equal(x, y)
    case (.date(let x), .date(let y)): return x == y
    case (.data(let x), .data(let y)): return x == y
    default: break
    }
    if let x = a.number, let y = b.number { return NumericOrder.compare(x, y) == 0 }
    guard depth > 0 else { return false }
    if let x = a.list, let y = b.list {
      guard x.count == y.count else { return false }
      for i in 0..<x.count where !equal(x[i], y[i], rule, depth: depth - 1) { return false }
      return true
    }
    if let x = Keyed(a), let y = Keyed(b) {
      guard x.count == y.count else { return false }
      for (k, v) in x.entries {
        guard let w = y.lookup(k), equal(v, w, rule, depth: depth - 1) else { return false }
      }
      return true
    }
    return false
  }

  /// Ordering result: -1, 0, 1; `unordered` for NaN; nil when the kinds cannot be ordered.
  static let unordered = 2

  /// Orders numbers with numbers, strings with strings (code points under `rule`) and dates
  /// with dates. Nil operands are handled by the caller.
  static func order(_ a: EvalValue, _ b: EvalValue, _ rule: TextRule) -> Int? {
    switch (a, b) {
    case (.string(let x), .string(let y)): return rule.compare(x, y)
    // A date NaN seconds from 2001 (`CAST(sqrt(-1), "NSDate")`) is ordered against nothing, as NaN.
    case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : (x > y ? 1 : unordered))
    default: break
    }
    if let x = a.number, let y = b.number { return NumericOrder.compare(x, y) ?? unordered }
    return nil
  }
}

/// A keyed value (dictionary, fast object or user record) seen uniformly for deep equality
/// and membership.
struct Keyed {
  let count: Int
  let entries: [(String, EvalValue)]
  private let base: EvalValue

  init?(_ v: EvalValue) {
    switch v {
    case .dict(let d):
      count = d.count
      entries = d.map { ($0.key, EvalValue($0.value)) }
    case .object(let o):
      count = o.count
      entries = Array(zip(o.shape.keys, o.values))
    default: return nil
    }
    base = v
  }

  func lookup(_ key: String) -> EvalValue? {
    switch base {
    case .dict(let d): return d[key].map(EvalValue.init)
    case .object(let o):
      guard let i = o.shape.keys.firstIndex(of: key) else { return nil }
      return o.slotValue(i)
    default: return nil
    }
  }

  /// The value under `key` in a fast object, by name (no interning at evaluation time).
  static func value(in o: SiftObject, _ key: String) -> EvalValue {
    guard let i = o.shape.keys.firstIndex(of: key) else { return .null }
    return o.slotValue(i)
  }

  /// The values, for `IN`/`CONTAINS` on a dictionary.
  var values: [EvalValue] { entries.map(\.1) }
}
