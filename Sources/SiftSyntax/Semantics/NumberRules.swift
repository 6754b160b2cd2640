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
public enum NumberRules {
  /// `base ** exponent` when the exponent is non-negative and the exact result fits in
  /// `Int64`; nil otherwise (the caller computes `pow` in `Double`).
  public static func exactPower(_ base: Int64, _ exponent: Int64) -> Int64? {
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
  public static func absoluteValue(_ x: Int64) -> Int64? {
    x == .min ? nil : Swift.abs(x)
  }
}
