import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

@Suite struct SemanticsTests {
  /// Int64 and Double compare by value, never through a lossy conversion.
  @Test(arguments: [
    (SiftValue.int(9_007_199_254_740_993), SiftValue.double(9_007_199_254_740_992.0), false),
    (.int(9_007_199_254_740_992), .double(9_007_199_254_740_992.0), true),
    (.int(Int64.max), .double(9_223_372_036_854_775_808.0), false),
    (.int(Int64.min), .double(-9_223_372_036_854_775_808.0), true),
    (.int(3), .double(3.0000001), false), (.int(1), .bool(true), true), (.int(0), .double(.nan), false),
  ])
  func exactNumericEquality(_ a: SiftValue, _ b: SiftValue, _ equal: Bool) {
    #expect(evaluate("%@ == %@", [a, b]) == equal)
    #expect(evaluate("%@ != %@", [a, b]) == !equal)
  }

  @Test func exactNumericOrdering() {
    #expect(evaluate("%@ > %@", [.int(9_007_199_254_740_993), .double(9_007_199_254_740_992.0)]) == true)
    #expect(evaluate("%@ < %@", [.int(Int64.max), .double(9_223_372_036_854_775_808.0)]) == true)
    #expect(evaluate("%@ < %@", [.double(-0.5), .int(0)]) == true)
    #expect(evaluate("%@ > %@", [.double(-0.5), .int(-1)]) == true)
    #expect(evaluate("%@ < 1 OR %@ >= 1", [.double(.nan), .double(.nan)]) == false)
  }

  /// Nothing reachable from input traps.
  @Test(arguments: [
    "max + max > 0", "min - max < 0", "max * max > 0", "min / -1 > 0", "-min > 0", "abs(min) > 0",
    "1 << 1000 == 0", "1 >> -1000 == 0", "max ** max > 0", "(-2) ** 63 < 0", "modulus:by:(min, -1) == 0",
    "leftshift:by:(1, min) == 0", "sum({max, max}) > max", "CAST(1e300, 'NSDate') > now()",
    "CAST('99999999999999999999999', 'NSNumber') > 0", "2 ** -5000 == 0", "randomn(max) >= 0",
  ])
  func noTraps(_ format: String) {
    #expect(evaluate(format) == true, "\(format)")
  }

  @Test func integerDivisionByZeroIsAnError() throws {
    let e = try #require(evaluationError("n / zero == 1"))
    #expect(e.stage == .evaluate)
    #expect(e.diagnostic.id == "division-by-zero")
    #expect(e.source.utf8Slice(e.diagnostic.range) == "n / zero")
    #expect(evaluate("d / 0 == 1") == false)
  }

  /// An invalid literal regex fails `compile()`; one that folding made constant fails only
  /// where it is evaluated, as SQL does (fuzzing: `FALSEPREDICATE AND name MATCHES
  /// uppercase("(")` failed in memory, matched nothing in SQLite).
  @Test func foldedInvalidRegexFailsWhenReached() throws {
    expectSiftError(id: "invalid-regex", stage: .evaluate, at: 32) {
      try SiftPredicate(format: "FALSEPREDICATE AND name MATCHES '('").compile()
    }
    let folded = try SiftPredicate(format: "FALSEPREDICATE AND name MATCHES uppercase('(')").compile()
    #expect(try folded.matches(["name": "x"]) == false)
    let reached = try SiftPredicate(format: "name MATCHES uppercase('(')").compile()
    do {
      _ = try reached.matches(["name": "x"])
      Issue.record("an invalid folded regex matched")
    } catch {
      #expect(error.diagnostic.id == "invalid-regex")
    }
  }

  /// CAST to NSString of a date beyond the ISO years gives its seconds since 1970 (it trapped:
  /// found by probing the evaluate oracle).
  @Test func farDatesCastToString() throws {
    let p = try SiftPredicate(format: "CAST(CAST(1e300, 'NSDate'), 'NSString') == '1e+300'")
    #expect(try p.compile().matches(["x": 1]) == true)  // 978307200 s between 1970 and 2001 vanish in 1e300
    let q = try SiftPredicate(format: "CAST(CAST(x / 0, 'NSDate'), 'NSString') == 'inf'")
    #expect(try q.compile().matches(["x": 1.5]) == true)
  }

  /// Errors carry the id and the source range of the offending node.
  @Test(arguments: [
    ("name BEGINSWITH 5", "not-a-string", "5"), ("n BEGINSWITH 'x'", "not-a-string", "n"),
    ("ANY name == 'x'", "quantifier-needs-collection", "name"), ("n BETWEEN nums", "between-needs-two-bounds", "nums"),
    ("n IN 5", "not-a-collection", "5"), ("n < 'a'", "incomparable-values", "<"),
    ("name MATCHES '('", "invalid-regex", "'('"),
    ("FUNCTION(n, 'nope') == 1", "unknown-function", "FUNCTION(n, 'nope')"),
    ("ANYKEY == 1", "unsupported", "ANYKEY"), ("x == $UNSET", "unbound-variable", "$UNSET"),
    ("SUBQUERY(n, $x, $x == 1).@count == 0", "not-a-collection", "n"),
    ("n.@count == 1", "not-a-collection", "n.@count"),
    ("d & 1 == 1", "bitwise-needs-integers", "d & 1"), ("name + 1 == 1", "not-a-number", "name + 1"),
  ])
  func errorsPointAtTheirNode(_ format: String, _ id: String, _ text: String) throws {
    let e = try #require(evaluationError(format), "\(format)")
    #expect(e.stage == .evaluate)
    #expect(e.diagnostic.id == id, "\(format)")
    #expect(e.source.utf8Slice(e.diagnostic.range) == text, "\(format)")
    #expect(!e.description.isEmpty)
  }

  @Test func errorPolicies() throws {
    let records: [SiftValue] = [["v": "abc"], ["v": 5], ["v": "xbc"], [:]]
    let p = try SiftPredicate(format: "v ENDSWITH 'bc'")
    expectSiftError(id: "not-a-string", stage: .evaluate, at: 0) { try p.compile().filter(records) }
    var strictError: SiftError?
    do { _ = try p.compile().matchingIndices(records) } catch { strictError = error }
    let failure = try #require(strictError)
    #expect(failure.diagnostic.notes.contains { $0.message.contains("record 1") })
    let lenient = try p.compile(EvaluationOptions(policy: .treatAsNoMatch))
    #expect(try lenient.matchingIndices(records) == [0, 2])
    #expect(lenient.policy == .treatAsNoMatch)
    // A failing record does not match even under NOT.
    let negated = try SiftPredicate(format: "NOT v ENDSWITH 'bc'").compile(EvaluationOptions(policy: .treatAsNoMatch))
    #expect(try negated.matchingIndices(records) == [3])
    #expect(try lenient.matches(SiftValue.dictionary(["v": 1])) == false)
  }

  @Test func variables() throws {
    let m = try SiftPredicate(format: "n == $N AND ANY tags == $T").compile()
    #expect(m.variables == ["N", "T"])
    #expect(try m.matches(sample, variables: ["N": 5, "T": "wifi"]))
    #expect(try !m.matches(sample, variables: ["N": 6, "T": "wifi"]))
    let e = try #require(evaluationError("n == $N AND ANY tags == $T", variables: ["N": 5]))
    #expect(e.diagnostic.id == "unbound-variable")
    #expect(e.diagnostic.message.contains("$T"))
    // Unbound variables throw even under the lenient policy, and even with no records.
    let lenient = try SiftPredicate(format: "n == $N").compile(EvaluationOptions(policy: .treatAsNoMatch))
    expectSiftError(id: "unbound-variable", stage: .evaluate, at: 5) { try lenient.filter([SiftValue]()) }
    // SUBQUERY iterators shadow free variables of the same name.
    #expect(evaluate("SUBQUERY(nums, $N, $N > 2).@count == $N", variables: ["N": 2]) == true)
    // Substituted before compiling works too.
    let p = try SiftPredicate(format: "n == $N").substituting(["N": 5])
    #expect(try p.compile().matches(sample))
  }

  @Test func customFunctions() throws {
    var registry = FunctionRegistry()
    registry.register("twice:") { receiver, _ in
      if case .int(let i) = receiver { return .int(i &* 2) }
      return .null
    }
    registry.register("between:and:") { receiver, args in
      guard case .int(let x) = receiver, args.count == 2, case .int(let lo) = args[0], case .int(let hi) = args[1]
      else {
        return .bool(false)
      }
      return .bool(lo <= x && x <= hi)
    }
    struct Boom: Error {}
    registry.register("boom") { _, _ in throw Boom() }
    #expect(registry.names == ["between:and:", "boom", "twice:"])
    let options = EvaluationOptions(functions: registry)
    #expect(evaluate("FUNCTION(n, 'twice:') == 10", options: options) == true)
    #expect(evaluate("FUNCTION(n, 'between:and:', 1, 9) == YES", options: options) == true)
    #expect(evaluationError("FUNCTION(n, 'boom') == 1", options: options)?.diagnostic.id == "function-failed")
    let unknown = try #require(evaluationError("FUNCTION(n, 'twice:') == 10"))
    #expect(unknown.diagnostic.message.contains("twice:"))
  }

  @Test func unboundFormatArgumentIsAnError() throws {
    let template = try SiftPredicate.parse("n == %@")
    expectSiftError(id: "unbound-argument", stage: .evaluate, at: 5) { try template.compile() }
  }

  @Test func foldingRules() {
    #expect(TextFolding.fold("Straße", [.caseInsensitive]) == "strasse")
    #expect(TextRule([.caseInsensitive]).equal("ΣΑΣ", "σας"))
    #expect(TextRule([.diacriticInsensitive]).equal("é", "e"))
    #expect(!TextRule([]).equal("é", "e"))
    #expect(TextRule([.caseInsensitive]).find(TextRule([.caseInsensitive]).prepare("SS"), in: "Maße", .anywhere))
    #expect(!TextRule([]).find(TextRule([]).prepare(""), in: "x", .prefix))
  }
}

extension String {
  /// The text of a UTF-8 byte range (for checking diagnostic ranges).
  func utf8Slice(_ r: SiftSourceRange) -> String {
    let bytes = Array(utf8)
    guard r.start >= 0, r.end <= bytes.count, r.start <= r.end else { return "" }
    return String(decoding: bytes[r.start..<r.end], as: UTF8.self)
  }
}
