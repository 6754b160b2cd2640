/// A running `@sum`, the one rule in-memory evaluation (`Aggregates.sum`) and SQLite's
/// `sift_sum` aggregate (`SQLiteAggregates`) both accumulate with, so SQL and memory give the
/// same number of the same kind: integers add exactly until the total would overflow; from
/// then on, or from the first double, the sum is a double (the integer total so far converted
/// once, then each value added left to right). The caller skips nils; no values is the
/// integer 0.
///
/// All-zero bytes are the empty sum, so SQLite's zeroed aggregate context can hold one.
///
/// ```swift
/// var s = NumericSum()
/// s.add(Int64.max); s.add(1)   // overflows: becomes the double 2^63
/// s.add(0.5)
/// s.integer                    // nil
/// s.double                     // 9.223372036854775808e18
/// ```
package struct NumericSum: Sendable {
  /// The exact total while every value so far was an integer and it fits.
  package private(set) var total: Int64 = 0
  /// The total once it is a double.
  package private(set) var real: Double = 0
  /// True from the first double or overflow on.
  package private(set) var isReal = false

  /// The empty sum.
  package init() {}

  /// Adds an integer: exactly while the total fits, else in doubles.
  package mutating func add(_ x: Int64) {
    if !isReal {
      let (t, overflow) = total.addingReportingOverflow(x)
      if !overflow { return total = t }
      real = Double(total) + Double(x)
      isReal = true
      return
    }
    real += Double(x)
  }

  /// Adds a double; the sum is a double from now on.
  package mutating func add(_ x: Double) {
    if !isReal {
      real = Double(total)
      isReal = true
    }
    real += x
  }

  /// The sum when it is still an integer, else nil (read `double`).
  package var integer: Int64? { isReal ? nil : total }
  /// The sum as a double (exact only when `integer` is nil or small).
  package var double: Double { isReal ? real : Double(total) }
}
