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
}
