import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// The load oracle: bytes read as JSON records two ways, with no date keys and with three named
/// ones — by the columnar loader (`SiftColumnarRecords(bytes:dates:)`, whose own parser reads
/// the common shapes with raw pointers and hands the rest to the general way) and by the
/// general reader (`JSONRecords.values(bytes:dates:)`). What the general way refuses, the
/// columnar loader refuses too; what both read, they read as the same records; nothing traps
/// (the address sanitizer watches the loader's pointer code).
///
/// ```swift
/// LoadOracle.check(Array(#"{"at": "2024-01-02", "n": 1}"#.utf8))   // nil
/// ```
public enum LoadOracle {
  /// No date keys, and one key per format (one of them nested).
  public static let dateStrategies: [SiftJSONDates] = [
    .none, SiftJSONDates(keys: ["at": .iso8601, "ms": .milliseconds, "o.s": .seconds]),
  ]

  /// Nil when the oracle holds for `bytes` (cut to `FuzzTarget.maxInputBytes`).
  public static func check(_ bytes: [UInt8]) -> FuzzFailure? {
    let bytes = Array(bytes.prefix(FuzzTarget.maxInputBytes))
    for dates in dateStrategies {
      let general = try? JSONRecords.values(bytes: bytes, dates: dates)
      let columns = try? SiftColumnarRecords(bytes: bytes, dates: dates)
      func fail(_ message: String) -> FuzzFailure {
        let strategy = dates.isNone ? "no date keys" : "date keys at, ms, o.s"
        return FuzzFailure(
          oracle: "load", message: "\(message) (\(strategy))", input: String(decoding: bytes, as: UTF8.self))
      }
      guard let columns else { continue }
      guard let general else { return fail("the columnar loader read what the general way refuses") }
      guard columns.count == general.count else {
        return fail("\(columns.count) records in columns, \(general.count) the general way")
      }
      for (i, record) in general.enumerated() where columns.record(at: i) != record {
        return fail("record \(i): columns \(columns.record(at: i)), general \(record)")
      }
    }
    return nil
  }
}
