import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

@Suite("Predicates built in code")
struct BuiltPredicateTests {
  static func cmp(
    _ key: String, _ op: ComparisonOperator, _ value: SiftValue, _ options: ComparisonOptions = [],
    _ modifier: SiftQuantifier? = nil
  ) -> SiftPredicate {
    (try? SiftPredicate.comparison(key, op, value, options: options, modifier: modifier)) ?? .falsePredicate
  }

  static let a = cmp("a", .equal, 1)
  static let b = cmp("b", .equal, 2)
  static let c = cmp("c", .equal, 3)

  /// Each built predicate, its canonical text, and the tree the parser builds for that text.
  static let cases: [(SiftPredicate, String)] = [
    (.truePredicate, "TRUEPREDICATE"),
    (.falsePredicate, "FALSEPREDICATE"),
    (cmp("SELF", .beginsWith, "d", .caseInsensitive), #"SELF BEGINSWITH[c] "d""#),
    (cmp("name", .contains, "é", [.caseInsensitive, .diacriticInsensitive]), #"name CONTAINS[cd] "é""#),
    (cmp("tags", .equal, "vegan", [], .any), #"ANY tags == "vegan""#),
    (cmp("scores", .greaterThan, 3, [], .all), "ALL scores > 3"),
    (cmp("tags", .like, "l*", .diacriticInsensitive, SiftQuantifier.none), #"NONE tags LIKE[d] "l*""#),
    (cmp("price", .between, [5, 10.5]), "price BETWEEN {5, 10.5}"),
    (cmp("city", .in, ["Oslo", "Rome"]), #"city IN {"Oslo", "Rome"}"#),
    (cmp("menu.@count", .greaterThanOrEqual, 2), "menu.@count >= 2"),
    (cmp("in", .matches, "[a-z]+"), #"#in MATCHES "[a-z]+""#),
    (cmp("first name", .endsWith, "x"), #"SELF["first name"] ENDSWITH "x""#),
    (cmp("deleted", .notEqual, nil), "deleted != nil"),
    (cmp("n", .lessThanOrEqual, -5), "n <= -5"),
    (cmp("on", .equal, true), "on == YES"),
    (.and([]), "TRUEPREDICATE"),
    (.or([]), "FALSEPREDICATE"),
    (.and([a]), "a == 1"),
    (.and([a, b, c]), "a == 1 AND b == 2 AND c == 3"),
    (a && b && c, "a == 1 AND b == 2 AND c == 3"),
    (a || b || c, "a == 1 OR b == 2 OR c == 3"),
    (a && (b || c), "a == 1 AND (b == 2 OR c == 3)"),
    ((a || b) && c, "(a == 1 OR b == 2) AND c == 3"),
    (a || (b && c), "a == 1 OR (b == 2 AND c == 3)"),
    (.and([a, .and([b, c])]), "a == 1 AND (b == 2 AND c == 3)"),
    (!a, "NOT a == 1"),
    (!(a && b), "NOT (a == 1 AND b == 2)"),
    (!(a || b), "NOT (a == 1 OR b == 2)"),
    (!(!a), "NOT NOT a == 1"),
    (!SiftPredicate.truePredicate, "NOT TRUEPREDICATE"),
    (!a && b, "NOT a == 1 AND b == 2"),
    (.comparison(.keyPath("start"), .lessThan, .keyPath("end")), "start < end"),
  ]

  @Test(arguments: cases.indices)
  func printsCanonicallyAndRoundTrips(_ i: Int) throws {
    let (built, text) = Self.cases[i]
    #expect(built.predicateFormat == text)
    #expect(try SiftPredicate.parse(text) == built, "parsing \(text) gives another tree")
    assertRoundTrips(built)
  }

  @Test func buildersNeverWarn() throws {
    // The parser warns about `a AND b OR c`; the built tree prints its grouping explicitly.
    let p = (Self.a && Self.b) || Self.c
    #expect(p.warnings.isEmpty)
    #expect(p.predicateFormat == "(a == 1 AND b == 2) OR c == 3")
    #expect(try SiftPredicate.parse(p.predicateFormat).warnings.isEmpty)
  }

  @Test func argumentsOfCombinedTemplatesCountUpInPrintedOrder() throws {
    let first = try SiftPredicate.parse("x == %@")
    let second = try SiftPredicate.parse("%K BEGINSWITH %@")
    let both = first && !second
    #expect(both.unboundArgumentCount == 3)
    #expect(both.predicateFormat == "x == %@ AND NOT %K BEGINSWITH %@")
    let bound = try both.binding([1, "name", "d"])
    #expect(bound.predicateFormat == #"x == 1 AND NOT name BEGINSWITH "d""#)
    #expect(bound == (try SiftPredicate(format: #"x == 1 AND NOT name BEGINSWITH "d""#)))
    // Splitting a compound operand keeps each term's own count.
    let chained = try SiftPredicate.parse("a == %@ AND b == %@") && first
    #expect(try chained.binding([1, 2, 3]).predicateFormat == "a == 1 AND b == 2 AND x == 3")
    expectSiftError(id: "too-many-arguments", stage: .arguments) { try chained.binding([1, 2, 3, 4]) }
  }

  /// Bad key paths and BETWEEN bounds are errors with a diagnostic, never a crash.
  @Test(arguments: [
    ("a..b", SiftValue.int(1), ComparisonOperator.equal, "invalid-key-path"),
    ("", .int(1), .equal, "invalid-key-path"),
    ("a.", .int(1), .equal, "invalid-key-path"),
    ("tags.@cnt", .int(1), .equal, "unknown-collection-operator"),
    ("price", .int(5), .between, "invalid-between-bounds"),
    ("price", .array([1, 2, 3]), .between, "invalid-between-bounds"),
    ("price", nil, .between, "invalid-between-bounds"),
  ])
  func invalidComparisonsThrow(_ key: String, _ value: SiftValue, _ op: ComparisonOperator, _ id: String) {
    do {
      _ = try SiftPredicate.comparison(key, op, value)
      Issue.record("expected \(id)")
    } catch {
      #expect(error.stage == .arguments)
      #expect(error.diagnostic.id == id)
      #expect(!SiftDiagnosticRenderer().render(error.diagnostic, in: error.source).isEmpty)
    }
  }

  @Test(arguments: 0..<16)
  func randomBuiltPredicatesRoundTrip(_ batch: Int) throws {
    var gen = RandomBuiltPredicate(seed: UInt64(batch) &* 104_729 &+ 3)
    for _ in 0..<200 {
      let built = try gen.predicate()
      let printed = built.predicateFormat
      do {
        let reparsed = try SiftPredicate.parse(printed)
        #expect(reparsed == built, "\(printed)\n  built:    \(SiftJSON.serialize(ASTJSON.encode(built.root)))")
        #expect(reparsed.unboundArgumentCount == built.unboundArgumentCount, "\(printed)")
        #expect(reparsed.predicateFormat == printed)
      } catch {
        Issue.record("printed form does not parse:\n\(printed)\n\(error)")
      }
    }
  }
}

@Suite("Printer: one-term compounds built in code")
struct SingleTermCompoundPrintingTests {
  static let a = PredicateNode(.comparison(SiftComparison(lhs: .keyPath("a"), op: .equal, rhs: .constant(1))))
  static let b = PredicateNode(.comparison(SiftComparison(lhs: .keyPath("b"), op: .equal, rhs: .constant(2))))
  static let c = PredicateNode(.comparison(SiftComparison(lhs: .keyPath("c"), op: .equal, rhs: .constant(3))))
  static func and(_ t: [PredicateNode]) -> PredicateNode { PredicateNode(.and(t)) }
  static func or(_ t: [PredicateNode]) -> PredicateNode { PredicateNode(.or(t)) }
  static func not(_ p: PredicateNode) -> PredicateNode { PredicateNode(.not(p)) }

  /// Regression: a one-term AND/OR prints as its term, and the printer used to decide on
  /// parentheses before looking through it, so `NOT` of a one-term AND of `a OR b` printed as
  /// `NOT a == 1 OR b == 2`, which means `(NOT a) OR b`. Each tree must print to text whose
  /// parse is the same tree with the one-term wrappers removed.
  static let cases: [(PredicateNode, String, PredicateNode)] = [
    (not(and([or([a, b])])), "NOT (a == 1 OR b == 2)", not(or([a, b]))),
    (not(or([and([a, b])])), "NOT (a == 1 AND b == 2)", not(and([a, b]))),
    (and([and([or([a, b])]), c]), "(a == 1 OR b == 2) AND c == 3", and([or([a, b]), c])),
    (and([or([and([or([a, b])])]), c]), "(a == 1 OR b == 2) AND c == 3", and([or([a, b]), c])),
    (or([c, and([and([a, b])])]), "c == 3 OR (a == 1 AND b == 2)", or([c, and([a, b])])),
    (not(and([a])), "NOT a == 1", not(a)),
    (and([or([a])]), "a == 1", a),
  ]

  @Test(arguments: cases.indices)
  func onlyTheTermIsPrinted(_ i: Int) throws {
    let (tree, text, meaning) = Self.cases[i]
    let printed = CanonicalPrinter().print(tree)
    #expect(printed == text)
    #expect(try SiftPredicate.parse(printed).root == meaning)
  }
}
