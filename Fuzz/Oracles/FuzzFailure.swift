import SiftSyntax

/// One oracle violation: which oracle, what went wrong, and for which input. The fuzz
/// executables abort with it (so libFuzzer saves the input); the regression tests expect none.
///
/// ```swift
/// if let failure = FuzzTarget.parse.check(Array("a ==".utf8)) { print(failure) }
/// ```
public struct FuzzFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The oracle that failed ("parse", "evaluate", "sql", "differential").
  public var oracle: String
  /// What broke, in one line.
  public var message: String
  /// The predicate text the oracle was looking at.
  public var input: String

  /// Creates a failure.
  public init(oracle: String, message: String, input: String) {
    self.oracle = oracle
    self.message = message
    self.input = input
  }

  /// "[oracle] message\n  input: …" with the input escaped so control bytes stay visible.
  public var description: String {
    "[\(oracle)] \(message)\n  input: \(input.debugDescription)"
  }
}

/// Shared checks on diagnostics: every `SiftError` must carry a stable kebab-case id and a
/// source range inside its source, and must render without trapping.
enum DiagnosticChecks {
  /// Nil when `error` is well-formed for `stage`; otherwise what is wrong with it.
  static func problem(with error: SiftError, expectedStages: Set<SiftError.Stage>) -> String? {
    let d = error.diagnostic
    if !expectedStages.contains(error.stage) {
      return "error at unexpected stage \(error.stage.rawValue): \(d.id)"
    }
    if !isKebabCase(d.id) { return "diagnostic id is not kebab-case: \(d.id.debugDescription)" }
    let length = error.source.utf8.count
    if d.range.start < 0 || d.range.start > d.range.end || d.range.end > length {
      return "diagnostic \(d.id) range \(d.range) outside source of \(length) bytes"
    }
    if d.message.isEmpty { return "diagnostic \(d.id) has an empty message" }
    _ = error.description  // rendering must not trap
    return nil
  }

  /// `lower-case-words-joined-by-hyphens`.
  static func isKebabCase(_ id: String) -> Bool {
    guard let first = id.utf8.first, let last = id.utf8.last, first != 45, last != 45 else { return false }
    return id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
  }
}
