import Foundation
import SiftSyntax

/// The committed baselines (`Sources/sift-bench/baselines.json`) and the check against them.
///
/// Every measurement `emit` prints is also kept here while a run records or checks. A measurement
/// is named by its `name` and its other text fields (`format`, `case`, `engine`, …); each of its
/// ratio fields (`ratio_vs_closure`, `speedup_vs_foundation`, `sqlite_copy_vs_baseline`, …) is
/// one baseline entry. `--record FILE` writes the run's ratios; `--check FILE` re-runs the
/// file's quick suites and reports every ratio more than `tolerance` worse than its baseline.
///
/// Ratios, not times, are kept: each is measured against a baseline run in the same process, so a
/// figure recorded on one machine still says something on another.
struct BenchBaselines: Codable {
  /// One ratio of one measurement.
  struct Entry: Codable, Equatable {
    /// `name` and the text fields that tell measurements of that name apart, e.g.
    /// `evaluate.eq_string` or `sql.compile format=a == 1 dialect=sqlite`.
    var measurement: String
    /// The suite that measured it (`evaluate`, `sql`, …).
    var suite: String
    /// The ratio's field, e.g. `ratio_vs_closure`.
    var field: String
    var value: Double
    /// `lower` when a smaller ratio is better (Sift's time over a baseline's), `higher` when a
    /// larger one is (a speedup, a throughput ratio).
    var better: String
  }

  /// How much worse than its baseline a ratio may be before the check reports it (0.25: 25%).
  var tolerance: Double
  /// The suites `--check` re-runs (quick enough for CI).
  var quickSuites: [String]
  /// Where and how the entries were measured, for the reader.
  var measuredOn: String
  var entries: [Entry]

  /// Fields whose larger value is better; every other ratio field is Sift's cost over a baseline's.
  static let higherIsBetter: Set<String> = [
    "load_vs_foundation", "load_vs_rows", "sqlite_copy_vs_baseline", "postgres_copy_vs_baseline",
    "parallel_speedup", "loop_parallel_speedup",
  ]

  /// Whether a field of an emitted measurement is a ratio the baselines keep.
  static func isRatio(_ field: String) -> Bool {
    higherIsBetter.contains(field) || field.hasPrefix("speedup_") || field.contains("ratio")
      || field.contains("_vs_")
  }

  /// The entries of one emitted measurement.
  static func entries(of fields: [(String, SiftValue)], suite: String) -> [Entry] {
    var name = ""
    var labels: [String] = []
    for (k, v) in fields {
      guard case .string(let s) = v else { continue }
      if k == "name" { name = s } else { labels.append("\(k)=\(s)") }
    }
    let measurement = ([name] + labels.sorted()).joined(separator: " ")
    return fields.compactMap { (k, v) -> Entry? in
      guard isRatio(k), let x = v.benchNumber, x.isFinite else { return nil }
      let better = higherIsBetter.contains(k) || k.hasPrefix("speedup_") ? "higher" : "lower"
      // Three decimals: finer digits are noise, and keep the committed file's diffs readable.
      let kept = (x * 1000).rounded() / 1000
      return Entry(measurement: measurement, suite: suite, field: k, value: kept, better: better)
    }
  }

  /// A ratio that is more than `tolerance` worse than its baseline.
  struct Regression: CustomStringConvertible {
    var baseline: Entry
    var measured: Double
    var description: String {
      let worse = baseline.better == "lower" ? measured / baseline.value : baseline.value / measured
      return "\(baseline.measurement) \(baseline.field): \(BenchBaselines.format(measured)) against "
        + "\(BenchBaselines.format(baseline.value)) (\(BenchBaselines.format(worse))x worse; \(baseline.better) is better)"
    }
  }

  /// Compares a run's entries with the baselines: the regressions, and the baselines the run did
  /// not measure (a renamed case, a suite that failed).
  func compare(_ run: [Entry]) -> (regressions: [Regression], missing: [Entry], checked: Int) {
    var measured: [String: Double] = [:]
    for e in run { measured[e.measurement + "\u{0}" + e.field] = e.value }
    var regressions: [Regression] = []
    var missing: [Entry] = []
    var checked = 0
    for b in entries {
      guard let m = measured[b.measurement + "\u{0}" + b.field] else {
        missing.append(b)
        continue
      }
      checked += 1
      // A ratio near zero says nothing about a 25% change; skip baselines below 0.01.
      guard b.value >= 0.01, m > 0 else { continue }
      let worse = b.better == "lower" ? m / b.value : b.value / m
      if worse > 1 + tolerance { regressions.append(Regression(baseline: b, measured: m)) }
    }
    return (regressions, missing, checked)
  }

  static func format(_ x: Double) -> String { String(format: "%.2f", x) }

  static func load(_ path: String) throws -> BenchBaselines {
    do {
      return try JSONDecoder().decode(BenchBaselines.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw BenchOptions.Failure(description: "cannot read baselines \(path): \(error)")
    }
  }

  func write(_ path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try (encoder.encode(self) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
  }
}

extension SiftValue {
  fileprivate var benchNumber: Double? {
    switch self {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }
}

/// Every measurement printed by this run, kept for `--record` and `--check`.
final class BenchRecorder: @unchecked Sendable {
  static let shared = BenchRecorder()
  private let lock = NSLock()
  private var kept: [BenchBaselines.Entry] = []
  private var suite = "custom"

  /// Names the suite whose measurements follow.
  func start(_ suite: String) {
    lock.lock()
    self.suite = suite
    lock.unlock()
  }

  func keep(_ fields: [(String, SiftValue)]) {
    lock.lock()
    let new = BenchBaselines.entries(of: fields, suite: suite)
    kept += new
    lock.unlock()
  }

  var entries: [BenchBaselines.Entry] {
    lock.lock()
    defer { lock.unlock() }
    return kept
  }
}
