import SiftEvaluation
import SiftSyntax
import Testing

/// The bounds and rules the fuzzers enforce, as plain tests (see Grammar/notes/fuzzing.md).
@Suite("Fuzzing rules")
struct ResourceBoundTests {
  @Test(arguments: [30, 40, 200])
  func catastrophicBacktrackingStopsAtTheStepBudget(_ count: Int) throws {
    // Without backreferences the automaton answers in linear time (issue 23).
    let linear = try RegexPattern("(a+)+$")
    let subject = String(repeating: "a", count: count) + "b"
    #expect(try linear.match(subject) == false)
    // A backreference needs backtracking: the step budget, and an error when it runs out.
    let regex = try RegexPattern(#"(a+)+\1$"#)
    #expect(regex.matches(subject) == false)
    #expect(throws: RegexPattern.LimitExceeded.self) { try regex.match(subject) }
  }

  @Test func ordinaryPatternsKeepWorking() throws {
    let regex = try RegexPattern("(a+)+$")
    #expect(try regex.match("aaaa"))
    #expect(try !regex.match("aab"))
    // A linear match over a long subject fits the length-scaled budget.
    let long = String(repeating: "ab", count: 200_000)
    #expect(try RegexPattern("(?:ab)+").match(long))
    #expect(try !RegexPattern("(?:ab)+c").match(long))
    #expect(try RegexPattern("[a-z]+", options: .caseInsensitive).match("ABC"))
  }

  @Test(arguments: [(0, 20), (999, 20), (1_000, 21), (1_000_000, 1_020)])
  func budgetScalesWithTheSubject(_ length: Int, _ units: Int) {
    #expect(RegexPattern.stepBudget(forLength: length) == units)
  }

  @Test(arguments: [
    ("a[%@] == 1", ["b c"] as [SiftValue], #"a["b c"] == 1"#),
    ("SELF[%@] == 1", ["k"], "k == 1"),
    ("%K.x == 1", ["a.b"], "a.b.x == 1"),
    ("%K.x == 1", ["SELF"], "x == 1"),
    ("n BETWEEN %@", [[1, 2] as SiftValue], "n BETWEEN {1, 2}"),
    ("n BETWEEN %@", [.null], "n BETWEEN nil"),
  ])
  func bindingGivesTheParsedTree(_ format: String, _ args: [SiftValue], _ equivalent: String) throws {
    let bound = try SiftPredicate.parse(format).binding(args)
    #expect(bound == (try SiftPredicate.parse(equivalent)))
    #expect(try SiftPredicate.parse(bound.predicateFormat) == bound)
  }

  @Test func substitutedSubscriptsAreKeys() throws {
    let p = try SiftPredicate.parse("d[$K] == 1 AND $D[$K].x == 2").substituting(["K": "b c", "D": "e"])
    #expect(p == (try SiftPredicate.parse(#"d["b c"] == 1 AND "e"["b c"].x == 2"#)))
  }

  /// A BETWEEN bound that is not a pair binds (so the printed form still parses) and is
  /// reported by the evaluator at the specifier, like a literal bound.
  static let badBounds: [SiftValue] = ["x", 3, [1], [1, 2, 3]]

  @Test(arguments: badBounds)
  func betweenArgumentMustBeAPair(_ value: SiftValue) throws {
    let bound = try SiftPredicate.parse("n > 1 AND n BETWEEN %@").binding([value])
    #expect(try SiftPredicate.parse(bound.predicateFormat) == bound)
    do {
      _ = try bound.compile().matches(["n": 5] as SiftValue)
      Issue.record("evaluating BETWEEN \(value) did not throw")
    } catch {
      #expect(error.stage == .evaluate)
      #expect(error.diagnostic.id == "between-needs-two-bounds")
      #expect(error.diagnostic.range == SiftSourceRange(start: 20, end: 22))
    }
  }
}
