import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// Two-thread scans (a Dispatch helper, the caller waiting a bounded time for the helper's
/// last part, then rescanning what is still open): many at once, from several threads, each
/// answer as one thread does, and every one ends.
@Suite struct ColumnarScanTests {
  static let records = try! SiftColumnarRecords(
    values: (0..<100_000).map { .dictionary(["n": .int(Int64($0 % 1000)), "s": .string("x\($0 % 7)")]) })

  @Test func concurrentTwoThreadScansAnswerAsOneThread() async throws {
    let formats = ["n >= 500", "s == 'x3' OR n < 10", "NOT (n BETWEEN {100, 900})"]
    let matchers = try formats.map { try SiftPredicate(format: $0).compile() }
    let expected = try matchers.map { try $0.matchingIndices(Self.records) }
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for t in 0..<6 {
        group.addTask {
          let k = t % matchers.count
          for _ in 0..<10 {
            guard try matchers[k].count(Self.records, workers: 2) == expected[k].count,
              try matchers[k].matchingIndices(Self.records, workers: 2) == expected[k]
            else { return false }
          }
          return true
        }
      }
      for try await ok in group { #expect(ok) }
    }
    #expect(expected.allSatisfy { !$0.isEmpty && $0.count < Self.records.count })
  }
}
