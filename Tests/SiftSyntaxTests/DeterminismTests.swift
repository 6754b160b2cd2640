import SiftSyntax
import Testing

/// `isDeterministic` tells callers (a result cache, the fuzzers' rows-vs-columns oracle) when two
/// runs over the same records may answer differently: any `random`/`now` call or `FUNCTION(…)`,
/// wherever it sits in the tree.
@Suite("Determinism")
struct DeterminismTests {
  static let cases: [(format: String, deterministic: Bool)] = [
    ("price < 5", true),
    ("sqrt:(price) > 2 AND name BEGINSWITH 'a'", true),
    ("now() > 0", false),
    ("random() < 0.5", false),
    ("random:(8) > 1", false),
    ("randomn:(8) > 1", false),
    ("price < 5 OR random() < 0.5", false),
    ("NOT (abs:(random:(3)) == 1)", false),
    ("SUBQUERY(tags, $t, $t == 'x' AND now() > 0).@count > 0", false),
    ("TERNARY(random() < 0.5, 1, 2) == 1", false),
    ("{1, random()} CONTAINS 1", false),
    ("FUNCTION(name, 'uppercase') == 'A'", false),
    ("SUBQUERY(tags, $t, $t == 'x').@count > 0", true),
  ]

  @Test(arguments: cases)
  func predicate(_ c: (format: String, deterministic: Bool)) throws {
    #expect(try SiftPredicate(format: c.format).isDeterministic == c.deterministic, "\(c.format)")
  }

  @Test func functionsThatDrawOrReadTheClock() {
    let changing = BuiltinFunction.allCases.filter { !$0.isDeterministic }
    #expect(Set(changing) == [.random, .randomElement, .randomn, .now])
  }
}
