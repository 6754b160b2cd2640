import CSQLite
import Foundation
import SiftSyntax

/// The aggregates Sift registers on every SQLite connection, computed as in-memory
/// evaluation computes `@sum` (both accumulate with SiftSemantics' `NumericSum`) and `@avg`
/// (`Aggregates` in SiftEvaluation), so that SQL and memory give the same number:
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
    // A `NumericSum` in SQLite's zeroed aggregate context: all zero is the empty sum.
    guard let s = state(ctx, NumericSum.self, create: true) else { return sqlite3_result_error_nomem(ctx) }
    if sqlite3_value_type(v) == SQLITE_INTEGER {
      s.pointee.add(sqlite3_value_int64(v))
    } else {
      s.pointee.add(sqlite3_value_double(v))
    }
  }

  static let sumFinal: Final = { ctx in
    guard let s = state(ctx, NumericSum.self, create: false) else { return sqlite3_result_null(ctx) }
    if let total = s.pointee.integer {
      sqlite3_result_int64(ctx, total)
    } else {
      sqlite3_result_double(ctx, s.pointee.double)
    }
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
