import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// Runs predicates over records in memory with SiftEvaluation, a round of chunks at a time
/// (one chunk per worker thread, scanned at once), so that Ctrl-C and progress reports are
/// checked between rounds.
///
/// ```swift
/// let matcher = try MemoryEngine.matcher(for: predicate)
/// let hits = try MemoryEngine.matches(matcher, in: set, range: 0..<set.count, variables: [:], workers: 2)
/// ```
enum MemoryEngine {
  /// Records per worker in a scan's first round between interrupt checks: small enough that
  /// Ctrl-C stops a slow predicate quickly and the first rows show early.
  static let chunk = 16_384
  /// A round that took less than this doubles the next one, up to `maxChunk` records per
  /// worker: every round waits for its slowest thread, and on a busy machine short rounds
  /// wait often (`sift-bench --suite scale`, `parallel_speedup`, 1,000,000 records: rounds of
  /// 16,384 per worker 1.0-1.56, of 131,072 1.53-1.72 in the same minutes).
  static let growBelow = 0.025
  /// The largest round, per worker.
  static let maxChunk = 16 * chunk

  /// Compiles the predicate (strict errors: a record that cannot be evaluated stops the scan).
  static func matcher(for predicate: SiftPredicate) throws(SiftError) -> SiftMatcher {
    try predicate.compile()
  }

  /// Indices (into the whole data set) of the records in `range` that match, in order,
  /// scanned on up to `workers` threads (the answer is the one-thread answer).
  static func matches(
    _ matcher: SiftMatcher, in set: REPLDataSet, range: Range<Int>, variables: [String: SiftValue], workers: Int
  ) throws(SiftError) -> [Int] {
    if let columns = set.columns,
      let found = try matcher.kernelIndices(columns, in: range, variables: variables, workers: workers)
    {
      return found
    }
    // Held as columns, the rows are built as the rounds reach them (LazyRows), then kept.
    if let objects = set.objects(covering: range) {
      return try matcher.matchingIndices(objects, in: range, variables: variables, workers: workers)
    }
    return try matcher.matchingIndices(set.plainValues, in: range, variables: variables, workers: workers)
  }

  /// The fast record form of a data set, when every record is a dictionary.
  static func objects(for records: [SiftValue]) -> [SiftObject]? {
    try? JSONRecords.records(from: .array(records))
  }
}
