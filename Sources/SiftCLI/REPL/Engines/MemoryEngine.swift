import Foundation
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
  /// Records per worker in a round between interrupt checks: a thread's share must be large
  /// enough that starting it costs little (`sift-bench --suite scale`, `parallel_speedup`),
  /// small enough that Ctrl-C stops a slow predicate quickly.
  static let chunk = 16_384

  /// Compiles the predicate (strict errors: a record that cannot be evaluated stops the scan).
  static func matcher(for predicate: SiftPredicate) throws(SiftError) -> SiftMatcher {
    try predicate.compile()
  }

  /// Indices (into the whole data set) of the records in `range` that match, in order,
  /// scanned on up to `workers` threads (the answer is the one-thread answer).
  static func matches(
    _ matcher: SiftMatcher, in set: REPLDataSet, range: Range<Int>, variables: [String: SiftValue], workers: Int
  ) throws(SiftError) -> [Int] {
    if let objects = set.objects {
      return try matcher.matchingIndices(objects, in: range, variables: variables, workers: workers)
    }
    return try matcher.matchingIndices(set.plainValues, in: range, variables: variables, workers: workers)
  }

  /// The fast record form of a data set, when every record is a dictionary.
  static func objects(for records: [SiftValue]) -> [SiftObject]? {
    try? JSONRecords.records(from: .array(records))
  }
}
