import Foundation
import SiftEvaluation
import SiftSyntax

/// Runs predicates over records in memory with SiftEvaluation, in chunks so that Ctrl-C and
/// progress reports are checked between chunks of records.
///
/// ```swift
/// let matcher = try MemoryEngine.matcher(for: predicate)
/// let hits = try MemoryEngine.matches(matcher, in: set, range: 0..<set.count, variables: [:])
/// ```
enum MemoryEngine {
  /// Records per chunk between interrupt checks.
  static let chunk = 4096

  /// Compiles the predicate (strict errors: a record that cannot be evaluated stops the scan).
  static func matcher(for predicate: SiftPredicate) throws(SiftError) -> SiftMatcher {
    try predicate.compile()
  }

  /// Indices (into the whole data set) of the records in `range` that match.
  static func matches(
    _ matcher: SiftMatcher, in set: REPLDataSet, range: Range<Int>, variables: [String: SiftValue]
  ) throws(SiftError) -> [Int] {
    let found: [Int]
    if let objects = set.objects {
      found = try matcher.matchingIndices(objects[range], variables: variables)
    } else {
      found = try matcher.matchingIndices(set.values(in: range), variables: variables)
    }
    return found.map { $0 + range.lowerBound }
  }

  /// The fast record form of a data set, when every record is a dictionary.
  static func objects(for records: [SiftValue]) -> [SiftObject]? {
    try? JSONRecords.records(from: .array(records))
  }
}
