import Foundation

/// Integer arithmetic rules that in-memory evaluation and the SQLite functions registered by
/// SiftSQLite (`sift_pow`, `sift_abs`) share, so both give the same value of the same kind:
/// integers stay integers while the exact result fits in 64 bits, and otherwise the result
/// is computed in `Double` (never a trap, never a wrapped value).
///
/// ```swift
/// NumberRules.exactPower(3, 4)             // 81
/// NumberRules.exactPower(2, 63)            // nil: does not fit, use pow in Double
/// NumberRules.absoluteValue(Int64.min)     // nil: 2^63 does not fit, use Double
/// ```
package enum NumberRules {
  /// Compares an integer with a double exactly: -1, 0, 1, or nil when `d` is NaN. No
  /// conversion loses precision (`2^53 + 1` is above `9007199254740992.0`).
  ///
  /// ```swift
  /// NumberRules.compare(9_007_199_254_740_993, 9_007_199_254_740_992.0)   // 1
  /// ```
  package static func compare(_ i: Int64, _ d: Double) -> Int? {
    if d.isNaN { return nil }
    if d >= 9_223_372_036_854_775_808.0 { return -1 }  // 2^63: above every Int64
    if d < -9_223_372_036_854_775_808.0 { return 1 }
    let t = d.rounded(.towardZero)
    let ti = Int64(t)  // in range by the checks above
    if i != ti { return i < ti ? -1 : 1 }
    let fraction = d - t
    return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
  }

  /// `base ** exponent` when the exponent is non-negative and the exact result fits in
  /// `Int64`; nil otherwise (the caller computes `pow` in `Double`).
  package static func exactPower(_ base: Int64, _ exponent: Int64) -> Int64? {
    guard exponent >= 0 else { return nil }
    var result: Int64 = 1
    var b = base
    var e = exponent
    while e > 0 {
      if e & 1 == 1 {
        let (v, o) = result.multipliedReportingOverflow(by: b)
        if o { return nil }
        result = v
      }
      e >>= 1
      if e > 0 {
        let (v, o) = b.multipliedReportingOverflow(by: b)
        if o { return nil }
        b = v
      }
    }
    return result
  }

  /// `|x|` when it fits in `Int64` (every value but `Int64.min`); nil otherwise.
  package static func absoluteValue(_ x: Int64) -> Int64? {
    x == .min ? nil : Swift.abs(x)
  }
}
