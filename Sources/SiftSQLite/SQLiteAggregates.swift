import CSQLite
import Foundation

/// The aggregates Sift registers on every SQLite connection, computed as in-memory
/// evaluation computes `@sum` and `@avg` (`Aggregates` in SiftEvaluation), so that SQL and
/// memory give the same number:
///
/// | aggregate | meaning |
/// | --- | --- |
/// | `sift_sum(x)` | integers exactly until the sum overflows, then doubles (SQLite's `SUM` raises "integer overflow"); NULLs skipped; NULL for no values |
/// | `sift_avg(x)` | the left-to-right double sum over the count (SQLite 3.43+ `AVG` compensates rounding, memory does not); NULL for no values |
///
/// ```swift
/// SQLiteAggregates.register(on: handle)   // done by SQLiteFunctions.register
/// ```
package enum SQLiteAggregates {
  typealias Final = @convention(c) (OpaquePointer?) -> Void

  /// Registers `sift_sum` and `sift_avg` on a connection.
  public static func register(on db: OpaquePointer) {
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
    sqlite3_create_function_v2(db, "sift_sum", 1, flags, nil, nil, sumStep, sumFinal, nil)
    sqlite3_create_function_v2(db, "sift_avg", 1, flags, nil, nil, averageStep, averageFinal, nil)
  }

  /// Running `@sum`; all zero (SQLite zeroes a new aggregate context) is the empty sum.
  struct Sum {
    var total: Int64
    var real: Double
    var isReal: Bool
  }

  /// Running `@avg`.
  struct Average {
    var sum: Double
    var count: Int64
  }

  /// The aggregate's state, allocated (zeroed) by SQLite on the first value.
  static func state<T>(_ ctx: OpaquePointer?, _ type: T.Type, create: Bool) -> UnsafeMutablePointer<T>? {
    sqlite3_aggregate_context(ctx, create ? Int32(MemoryLayout<T>.stride) : 0)?.bindMemory(to: T.self, capacity: 1)
  }

  static let sumStep: SQLiteFunctions.Function = { ctx, _, argv in
    guard let v = argv?[0], sqlite3_value_type(v) != SQLITE_NULL else { return }
    guard let s = state(ctx, Sum.self, create: true) else { return sqlite3_result_error_nomem(ctx) }
    if sqlite3_value_type(v) == SQLITE_INTEGER && !s.pointee.isReal {
      let x = sqlite3_value_int64(v)
      let (t, overflow) = s.pointee.total.addingReportingOverflow(x)
      if !overflow { return s.pointee.total = t }
      s.pointee.real = Double(s.pointee.total) + Double(x)
      s.pointee.isReal = true
      return
    }
    if !s.pointee.isReal {
      s.pointee.real = Double(s.pointee.total)
      s.pointee.isReal = true
    }
    s.pointee.real += sqlite3_value_double(v)
  }

  static let sumFinal: Final = { ctx in
    guard let s = state(ctx, Sum.self, create: false) else { return sqlite3_result_null(ctx) }
    if s.pointee.isReal { sqlite3_result_double(ctx, s.pointee.real) } else { sqlite3_result_int64(ctx, s.pointee.total) }
  }

  static let averageStep: SQLiteFunctions.Function = { ctx, _, argv in
    guard let v = argv?[0], sqlite3_value_type(v) != SQLITE_NULL else { return }
    guard let s = state(ctx, Average.self, create: true) else { return sqlite3_result_error_nomem(ctx) }
    s.pointee.sum += sqlite3_value_double(v)
    s.pointee.count += 1
  }

  static let averageFinal: Final = { ctx in
    guard let s = state(ctx, Average.self, create: false), s.pointee.count > 0 else { return sqlite3_result_null(ctx) }
    sqlite3_result_double(ctx, s.pointee.sum / Double(s.pointee.count))
  }
}
