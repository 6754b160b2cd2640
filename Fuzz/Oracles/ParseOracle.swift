import Foundation
import SiftSyntax

/// The parse oracle: any text either parses or throws a well-formed `.parse` error; what
/// parses prints in canonical form and re-parses to an equal tree (`parse(p.predicateFormat)
/// == p`), printing is idempotent, and binding fixed argument lists and substituting every
/// variable keep those properties.
///
/// ```swift
/// ParseOracle.check("name BEGINSWITH[c] %@ AND $X > 1")   // nil
/// ```
public enum ParseOracle {
  /// Argument lists tried against every template: all key-path-like strings (fit `%K`, `%@`,
  /// `%s`), then a mix of every kind that prints as a literal.
  public static let argumentLists: [[SiftValue]] = [
    ["name", "tags", "price", "a.b", "SELF", "x"],
    [7, "Blue", 2.5, .date(Date(timeIntervalSinceReferenceDate: 86_400.5)), [1, "a", .null], .null, true, -3],
  ]

  /// Values tried for every free `$VARIABLE`.
  public static let variableValues: [SiftValue] = ["Red bar", 42, [1, 2, 3], .null]

  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    func fail(_ message: String) -> FuzzFailure {
      FuzzFailure(oracle: "parse", message: message, input: text)
    }
    let parsed: SiftPredicate
    do {
      parsed = try SiftPredicate.parse(text)
    } catch {
      return DiagnosticChecks.problem(with: error, expectedStages: [.parse]).map(fail)
    }
    for warning in parsed.warnings where warning.range.end > text.utf8.count || warning.range.start < 0 {
      return fail("warning \(warning.id) range \(warning.range) outside the source")
    }
    if let problem = roundTripProblem(parsed) { return fail(problem) }

    // Binding: each fixed list, cut or cycled to the number of specifiers.
    let count = parsed.unboundArgumentCount
    for list in argumentLists {
      let arguments = (0..<count).map { list[$0 % list.count] }
      do {
        let bound = try parsed.binding(arguments)
        if bound.unboundArgumentCount != 0 { return fail("binding left \(bound.unboundArgumentCount) specifiers") }
        if let problem = roundTripProblem(bound) { return fail("after binding: " + problem) }
      } catch {
        if let problem = DiagnosticChecks.problem(with: error, expectedStages: [.arguments]) {
          return fail("binding: " + problem)
        }
      }
    }
    if count < 64 {
      do {
        _ = try parsed.binding(Array(repeating: 1, count: count + 1))
        return fail("binding \(count + 1) arguments to \(count) specifiers did not throw")
      } catch {
        if let problem = DiagnosticChecks.problem(with: error, expectedStages: [.arguments]) {
          return fail("binding too many: " + problem)
        }
      }
    }

    // Substituting: every free variable, with each value in turn.
    let free = parsed.variables
    if !free.isEmpty {
      for value in variableValues {
        let substituted = parsed.substituting(Dictionary(uniqueKeysWithValues: free.map { ($0, value) }))
        if !substituted.variables.isEmpty {
          return fail("substituting left variables \(substituted.variables.sorted())")
        }
        if let problem = roundTripProblem(substituted, tolerating: []) {
          return fail("after substituting: " + problem)
        }
      }
    }
    return nil
  }

  /// Nil when `p` prints to text that parses back to `p` and prints the same again (or when
  /// the printed text fails with one of the `tolerating` diagnostic ids).
  static func roundTripProblem(_ p: SiftPredicate, tolerating: Set<String> = []) -> String? {
    let printed = p.predicateFormat
    let reparsed: SiftPredicate
    do {
      reparsed = try SiftPredicate.parse(printed)
    } catch {
      if tolerating.contains(error.diagnostic.id) { return nil }
      return
        "canonical form \(printed.debugDescription) does not parse: \(error.diagnostic.id) \(error.diagnostic.message)"
    }
    if reparsed != p {
      return
        "canonical form \(printed.debugDescription) re-parses to a different tree, printed \(reparsed.predicateFormat.debugDescription)"
    }
    if reparsed.unboundArgumentCount != p.unboundArgumentCount {
      return "canonical form has \(reparsed.unboundArgumentCount) specifiers, the tree \(p.unboundArgumentCount)"
    }
    let again = reparsed.predicateFormat
    if again != printed {
      return "printing is not idempotent: \(printed.debugDescription) then \(again.debugDescription)"
    }
    return nil
  }
}

extension ParseOracle {
  /// Nil when `error` is a well-formed error of one of `stages` (kebab-case id, a message,
  /// a range inside its source); otherwise what is wrong. Used by every oracle.
  ///
  /// ```swift
  /// ParseOracle.diagnosticProblem(error, stages: [.parse])   // nil for a good parse error
  /// ```
  public static func diagnosticProblem(_ error: SiftError, stages: Set<SiftError.Stage>) -> String? {
    DiagnosticChecks.problem(with: error, expectedStages: stages)
  }
}
