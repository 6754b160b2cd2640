import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// `matchingIndices(_:in:variables:workers:)` scans part of an array, on several threads when
/// asked: whatever the range and the number of threads, it must give what one thread record by
/// record gives — the same positions, in order, and under `.strict` the first failing record's
/// error naming that record's position in the whole array.
@Suite struct ParallelScanTests {
  /// The one-thread, record-by-record answer for `records[range]`.
  static func expected(_ m: SiftMatcher, _ records: [some SiftRecord], _ range: Range<Int>) -> Result<[Int], SiftError>
  {
    var hits: [Int] = []
    for i in range {
      do {
        if try m.matches(records[i]) { hits.append(i) }
      } catch {
        var failure = error
        failure.diagnostic.notes.append(.init("while evaluating record \(i)"))
        return .failure(failure)
      }
    }
    return .success(hits)
  }

  static func scan<R: SiftRecord & Sendable>(_ m: SiftMatcher, _ records: [R], _ range: Range<Int>, _ workers: Int)
    -> Result<[Int], SiftError>
  {
    Result { () throws(SiftError) -> [Int] in try m.matchingIndices(records, in: range, workers: workers) }
  }

  @Test(arguments: [UInt64(5), 23, 77])
  func rangesAndThreadsAgreeWithOneRecordAtATime(seed: UInt64) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: seed))
    // More than three parts' records, so the scans really are split (and parts are taken in turn).
    let dicts = (0..<(RangeScan.part * 3 + 17)).map { _ in g.record() }
    let objects = dicts.map { SiftObject($0) }
    let values = dicts.map { SiftValue.dictionary($0) }
    let ranges = [0..<dicts.count, 1..<dicts.count, 2000..<6000, 5..<9, 300..<300]
    var compared = 0
    for _ in 0..<12 {
      let format = g.predicate()
      let p = try SiftPredicate(format: format)
      for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
        let m = try p.compile(EvaluationOptions(policy: policy))
        for range in ranges {
          let want = Self.expected(m, dicts, range)
          for workers in [1, 2, 3] {
            #expect(Self.scan(m, objects, range, workers) == want, "\(format) on objects \(range) × \(workers)")
            #expect(Self.scan(m, dicts, range, workers) == want, "\(format) on dictionaries \(range) × \(workers)")
            #expect(Self.scan(m, values, range, workers) == want, "\(format) on values \(range) × \(workers)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 12 * 2 * ranges.count * 3)
  }

  /// Failures placed in the second thread's part only, in both parts, and past the range: the
  /// error is always the first failing record's in the range, as one thread reports it.
  @Test(
    arguments: [
      ([6000], 0..<8192, 6000),
      ([7000, 100], 0..<8192, 100),
      ([4100, 4096], 0..<8192, 4096),
      ([9000], 0..<8192, nil),
      ([10], 20..<8192, nil),
    ] as [([Int], Range<Int>, Int?)])
  func strictReportsTheFirstFailureInOrder(bad: [Int], range: Range<Int>, failing: Int?) throws {
    var records = (0..<10_000).map { SiftObject(["a": .int(Int64($0))]) }
    for i in bad { records[i] = SiftObject(["a": "x"]) }
    let strict = try SiftPredicate(format: "a > 8000 OR a < 3").compile()
    let lenient = try SiftPredicate(format: "a > 8000 OR a < 3").compile(EvaluationOptions(policy: .treatAsNoMatch))
    for workers in [1, 2, 4] {
      let result = Self.scan(strict, records, range, workers)
      #expect(result == Self.expected(strict, records, range))
      if let failing {
        guard case .failure(let e) = result else {
          Issue.record("no error with \(workers) workers")
          continue
        }
        #expect(e.diagnostic.notes.last?.message == "while evaluating record \(failing)")
      } else {
        #expect(result == .success(Array(range).filter { $0 > 8000 || $0 < 3 }))
      }
      let skipped = Array(range).filter { ($0 > 8000 || $0 < 3) && !bad.contains($0) }
      #expect(Self.scan(lenient, records, range, workers) == .success(skipped))
    }
  }

  @Test("a range past the records is cut to fit; variables reach every thread")
  func clampedRangeAndVariables() throws {
    let records = (0..<5000).map { SiftValue.dictionary(["a": .int(Int64($0))]) }
    let m = try SiftPredicate(format: "a >= $MIN").compile()
    #expect(try m.matchingIndices(records, in: 4990..<9000, variables: ["MIN": 4995], workers: 2) == Array(4995..<5000))
    #expect(try m.matchingIndices(records, in: 0..<5000, variables: ["MIN": 10], workers: 2) == Array(10..<5000))
    expectSiftError(id: "unbound-variable", stage: .evaluate, at: 5) {
      try m.matchingIndices(records, in: 0..<5000, workers: 2)
    }
  }
}
