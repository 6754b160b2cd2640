import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// The evaluate oracle: a parsed predicate compiles and runs over every record of
/// `FuzzData.objects`, and whatever it throws is a well-formed `.evaluate` error whose id is
/// on the documented list below; over the same records as columns (`SiftColumnarRecords`) it
/// gives the same positions, or the same error, unless it calls `random`/`now` (not
/// `isDeterministic`). Anything else (another id, another stage, a
/// trap, another answer) is a bug.
///
/// ```swift
/// EvaluateOracle.check("n / 0 == 1")   // nil: division-by-zero is documented
/// ```
public enum EvaluateOracle {
  /// The evaluation errors users are told about (Grammar/notes/fuzzing.md lists them).
  public static let documentedErrors: Set<String> = [
    "between-needs-two-bounds", "bitwise-needs-integers", "data-too-deep", "division-by-zero",
    "function-failed", "incomparable-values", "invalid-argument", "invalid-cast", "invalid-index",
    "invalid-regex", "not-a-collection", "not-a-number", "not-a-string", "quantifier-needs-collection",
    "unbound-argument", "unbound-variable", "unknown-function", "unsupported",
    // The budgets (decision 14): a MATCHES out of steps, a SUBQUERY nest out of work per record.
    "regex-limit", "work-limit",
  ]

  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    guard let p = PreparedInput.predicate(text) else { return nil }
    func fail(_ message: String) -> FuzzFailure {
      FuzzFailure(oracle: "evaluate", message: message + " (predicate \(p.predicateFormat))", input: text)
    }
    func problem(_ error: SiftError) -> String? {
      if let p = DiagnosticChecks.problem(with: error, expectedStages: [.evaluate]) { return p }
      if !documentedErrors.contains(error.diagnostic.id) {
        return "undocumented evaluation error \(error.diagnostic.id): \(error.diagnostic.message)"
      }
      return nil
    }
    let matcher: SiftMatcher
    do {
      matcher = try p.compile()
    } catch {
      return problem(error).map { fail("compile: " + $0) }
    }
    for (i, record) in FuzzData.objects.enumerated() {
      do {
        _ = try matcher.matches(record)
      } catch {
        if let message = problem(error) { return fail("record \(i): " + message) }
      }
    }
    // `random:(8) > 1` draws again on every run, so two runs need not agree.
    if let columns = FuzzData.columns, p.isDeterministic {
      let rows = outcome { () throws(SiftError) in try matcher.matchingIndices(FuzzData.objects) }
      let kernels = outcome { () throws(SiftError) in try matcher.matchingIndices(columns) }
      if rows != kernels { return fail("columns answer \(kernels), rows \(rows)") }
    }
    return nil
  }

  static func outcome(_ body: () throws(SiftError) -> [Int]) -> String {
    do { return "\(try body())" } catch { return "error \(error.diagnostic.id): \(error.diagnostic.message)" }
  }
}
