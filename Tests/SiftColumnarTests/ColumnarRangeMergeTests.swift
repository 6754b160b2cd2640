import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftColumnar

/// Comparisons of one column joined by AND run as one range kernel
/// (`ColumnarPlanner.mergingRanges`), with the row evaluator's answers: integers, numbers,
/// dates, ISO-8601 text (with and without `[c]`), null and missing values, empty ranges.
@Suite struct ColumnarRangeMergeTests {
  static let values: [SiftValue] = {
    var rng = SeededRandom(seed: 36)
    return (0..<3_000).map { i -> SiftValue in
      var d: [String: SiftValue] = ["id": .int(Int64(i))]
      switch rng.next() % 8 {
      case 0: d["at"] = .null
      case 1: break  // missing
      default:
        let year = 2020 + Int(rng.next() % 5), month = 1 + Int(rng.next() % 12)
        d["at"] = .string(String(format: "%04d-%02d-%02dT00:00:00Z", year, month, 1 + Int(rng.next() % 28)))
      }
      d["n"] = rng.next() % 9 == 0 ? .null : .int(Int64(rng.next() % 100))
      d["x"] = rng.next() % 9 == 0 ? .null : .double(Double(rng.next() % 1000) / 10)
      d["day"] = .date(Date(timeIntervalSince1970: Double(rng.next() % 1000) * 86_400))
      return .dictionary(d)
    }
  }()

  static let formats = [
    "at >= '2023-01-01T00:00:00Z' AND at < '2023-07-01T00:00:00Z'",
    "at > '2021' AND at <= '2022-06-01T00:00:00Z' AND n > 10",
    "at >=[c] '2023-01-01t' AND at <[c] '2023-07-01T'",
    "at >= '2024' AND at < '2023'",
    "n >= 10 AND n < 50", "n > 10 AND n <= 10", "n >= 5 AND x < 50.5 AND n < 90 AND x >= 3",
    "x > 10.5 AND x <= 70", "day >= %@ AND day < %@", "NOT (n >= 10 AND n < 50)",
    "(n >= 10 AND n < 50) OR (at >= '2022' AND at < '2023')",
  ]

  @Test(arguments: formats)
  func mergedRangesAnswerAsRows(_ format: String) throws {
    let columns = try SiftColumnarRecords(values: Self.values)
    let rows = try JSONRecords.records(from: .array(Self.values))
    let arguments: [SiftValue] = [
      .date(Date(timeIntervalSince1970: 100 * 86_400)), .date(Date(timeIntervalSince1970: 400 * 86_400)),
    ]
    let m = try SiftPredicate(format: format, arguments: format.contains("%@") ? arguments : []).compile()
    #expect(m.columnarFallback(for: columns) == nil, "\(format) runs as kernels")
    let expected = try m.matchingIndices(rows)
    #expect(try m.matchingIndices(columns) == expected, "\(format)")
    #expect(try m.count(columns, workers: 2) == expected.count, "\(format), two threads")
  }

  /// A range written as two comparisons is one kernel: one pass over the column.
  @Test func twoComparisonsOfOneColumnAreOneKernel() throws {
    let columns = try SiftColumnarRecords(values: Self.values)
    let m = try SiftPredicate(format: "at >= '2023-01-01T00:00:00Z' AND at < '2023-07-01T00:00:00Z'").compile()
    guard case .and(let terms)? = m.columnarPlan(columns, [:]).plan, terms.count == 1,
      case .leaf(let leaf) = terms[0], case .strings(let t) = leaf.test
    else {
      Issue.record("not one kernel: \(String(describing: m.columnarPlan(columns, [:]).plan))")
      return
    }
    #expect(t.lower?.bytes == Array("2023-01-01T00:00:00Z".utf8) && t.lower?.inclusive == true)
    #expect(t.upper?.bytes == Array("2023-07-01T00:00:00Z".utf8) && t.upper?.inclusive == false)
  }
}
