import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// Kernel scans keep the matcher's `EvaluationOptions.timeLimit`: past it the scan stops with
/// the evaluator's `time-limit` error, never a partial answer.
@Suite struct ColumnarTimeLimitTests {
  static let records = try! SiftColumnarRecords(values: (0..<40_000).map { .dictionary(["n": .int(Int64($0))]) })

  @Test func aScanPastItsTimeLimitIsAnError() throws {
    var options = EvaluationOptions()
    options.timeLimit = 0
    let limited = try SiftPredicate(format: "n >= 10").compile(options)
    #expect(limited.columnarFallback(for: Self.records) == nil, "the scan runs as kernels")
    for workers in [1, 2] {
      #expect {
        _ = try limited.count(Self.records, workers: workers)
      } throws: { ($0 as? SiftError)?.id == "time-limit" }
      #expect {
        _ = try limited.matchingIndices(Self.records, workers: workers)
      } throws: { ($0 as? SiftError)?.id == "time-limit" }
    }
    let unlimited = try SiftPredicate(format: "n >= 10").compile()
    #expect(try unlimited.count(Self.records, workers: 2) == 39_990)
  }

  /// MATCHES runs on the row evaluator, which reads the deadline inside one costly value
  /// (issue 35): a 200 ms limit stops `(.*a){1000}b` on 8 KB long before it would answer.
  @Test func aCostlyPatternStopsAtTheLimit() throws {
    let body = String(repeating: "xa", count: 4000)
    let records = try SiftColumnarRecords(values: [.dictionary(["body": .string(body)])])
    var options = EvaluationOptions()
    options.timeLimit = 200
    let m = try SiftPredicate(format: "body MATCHES '(.*a){1000}b'").compile(options)
    #expect(m.columnarFallback(for: records) != nil, "MATCHES runs on the row evaluator")
    let start = Date()
    #expect {
      _ = try m.count(records, workers: 2)
    } throws: { ($0 as? SiftError)?.id == "time-limit" }
    #expect(Date().timeIntervalSince(start) < 5)
  }
}
