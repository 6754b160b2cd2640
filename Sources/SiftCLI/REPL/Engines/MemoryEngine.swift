import Foundation
import SiftSyntax

/// Runs predicates over records in memory with SiftEvaluation.
///
/// ```swift
/// let match = try MemoryEngine.matcher(for: predicate)
/// let ok = try match(record)
/// ```
enum MemoryEngine {
  /// A function deciding whether a record matches `predicate`.
  static func matcher(for predicate: SiftPredicate) throws(SiftError) -> (SiftValue) throws(SiftError) -> Bool {
    throw SiftError(
      stage: .evaluate,
      diagnostic: Diagnostic(
        id: "evaluation-unavailable", message: "in-memory evaluation is not available in this build",
        range: predicate.root.range),
      source: predicate.source)
  }
}
