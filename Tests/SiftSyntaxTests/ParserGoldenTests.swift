import Testing

@testable import SiftSyntax

/// Input → canonical form. `nil` means the input is already canonical.
struct GoldenCase: CustomTestStringConvertible, Sendable {
  var input: String
  var canonical: String?
  var testDescription: String { input }
  init(_ input: String, _ canonical: String? = nil) {
    self.input = input
    self.canonical = canonical
  }
}

@Suite("Canonical printing")
struct ParserGoldenTests {
  static let cases: [GoldenCase] = [
    // Operators and their synonyms normalise.
    .init("a = 1", "a == 1"),
    .init("a == 1"),
    .init("a <> 1", "a != 1"),
    .init("a =< 1", "a <= 1"),
    .init("a => 1", "a >= 1"),
    .init("a < 1"), .init("a > 1"),
    // Set expressions: keywords print upper-case; they bind looser than every arithmetic and
    // bitwise operator, left to right, and tighter than comparisons.
    .init("x in {1, 2} union {3}", "x IN {1, 2} UNION {3}"),
    .init("tags intersect {'a'} == {'a'}", "tags INTERSECT {\"a\"} == {\"a\"}"),
    .init("x IN a MINUS b MINUS c"), .init("x IN a MINUS (b MINUS c)"),
    .init("x IN (a UNION b) MINUS c", "x IN a UNION b MINUS c"),
    .init("x IN a + b UNION c & d"), .init("(a UNION b) + 1 == 2"), .init("(a UNION b).@count == 2"),
    .init("-a INTERSECT {1} == {}"),
    // Keywords are case-insensitive and print upper-case.
    .init("name beginswith[c] 'blue' and favorite == yes", "name BEGINSWITH[c] \"blue\" AND favorite == YES"),
    .init("a like[cd] 'x*'", "a LIKE[cd] \"x*\""),
    .init("a matches[dc] 'x'", "a MATCHES[cd] \"x\""),
    .init("a in[lc] {1}", "a IN[cl] {1}"),
    .init("a contains[n] 'x'", "a CONTAINS[n] \"x\""),
    .init("a endswith 'x'", "a ENDSWITH \"x\""),
    .init("a between {1, 2}", "a BETWEEN {1, 2}"),
    .init("a uti-conforms-to 'public.text'", "a UTI-CONFORMS-TO \"public.text\""),
    // Strings: double quotes, escapes.
    .init("a == 'it\\'s'", "a == \"it's\""),
    .init(#"a == 'say "hi"'"#, #"a == "say \"hi\"""#),
    .init(#"a == "tab\there""#),
    .init(#"a == "\u00e9""#, #"a == "é""#),
    .init(#"a == "\x41\101""#, #"a == "AA""#),
    .init(#"a MATCHES "\d+""#, #"a MATCHES "\\d+""#),
    // Booleans and nil.
    .init("a == TRUE", "a == YES"),
    .init("a == false", "a == NO"),
    .init("a == NULL", "a == nil"),
    .init("a == Nil", "a == nil"),
    // Numbers.
    .init("a == 0x1F", "a == 31"),
    .init("a == 0b101", "a == 5"),
    .init("a == 0o17", "a == 15"),
    .init("a == 1.5e3", "a == 1500.0"),
    .init("a == 2.0"),
    .init("a == -5"),
    .init("a == -(5)"),
    .init("a == --5", "a == -(-5)"),
    .init("a == -9223372036854775808"),
    .init("a == 9223372036854775808", "a == 9.223372036854776e+18"),
    .init("a == 1e999"),
    // Compounds: AND binds tighter; mixes are parenthesised.
    .init("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
    .init("a == 1 AND b == 2 OR c == 3", "(a == 1 AND b == 2) OR c == 3"),
    .init("(a == 1 OR b == 2) AND c == 3"),
    .init("a == 1 AND (b == 2 AND c == 3)"),
    .init("a == 1 && b == 2 || c == 3", "(a == 1 AND b == 2) OR c == 3"),
    .init("NOT a == 1"),
    .init("!a == 1", "NOT a == 1"),
    .init("NOT (a == 1 OR b == 2)"),
    .init("NOT NOT a == 1"),
    .init("((a == 1))", "a == 1"),
    .init("TRUEPREDICATE"), .init("FALSEPREDICATE"),
    // Quantifiers.
    .init("SOME tags == 'x'", "ANY tags == \"x\""),
    .init("ALL a > 1"), .init("NONE a > 1"),
    // Key paths.
    .init("SELF.a == 1", "a == 1"),
    .init("SELF == 1"),
    .init("#size == 1"),
    .init("a.#in == 1"),
    .init("scores.@sum.self > 1", "scores.@sum.self > 1"),
    .init("@count > 1", "SELF.@count > 1"),
    .init("a['b'] == 1", "a.b == 1"),
    .init("SELF['first name'] == 1", "SELF[\"first name\"] == 1"),
    .init("a[0] == 1"), .init("a[FIRST] == 1"), .init("a[LAST] == 1"), .init("a[SIZE] == 1"),
    .init("a[$i] == 1"),
    .init("$x.name == 1"),
    .init("café == 1"),
    // Arithmetic precedence: parentheses only where needed.
    .init("(a + b) * c == 1"),
    .init("a + (b * c) == 1", "a + b * c == 1"),
    .init("a - (b - c) == 1"),
    .init("(a - b) - c == 1", "a - b - c == 1"),
    .init("(2 ** 3) ** 2 == 1"),
    .init("2 ** (3 ** 2) == 1", "2 ** 3 ** 2 == 1"),
    .init("-2 ** 2 == 4"),
    .init("-(a + b) == 1"),
    .init("~a & 1 == 1"),
    .init("a & (b | c) == 1"),
    .init("(a + 1) & 2 == 1", "a + 1 & 2 == 1"),
    .init("a + 1 & 2 == 1"),
    // Aggregates and constants.
    .init("a IN {1, 2, 3}"),
    .init("a IN {}"),
    .init("a IN {b, 1}"),
    .init("a IN {{1}, {}}"),
    // Functions and special forms.
    .init("sum:({1, 2}) == 3", "sum({1, 2}) == 3"),
    .init("modulus:by:(7, 2) == 1"),
    .init("now() > a"), .init("random() < 1"), .init("random(5) < 5"),
    .init("FUNCTION(a, 'len:', 1) == 1", "FUNCTION(a, \"len:\", 1) == 1"),
    .init("SUBQUERY(a, $x, $x.b == 1 AND $x.c == 2).@count > 0"),
    .init("CAST(a, 'NSNumber') > 1", "CAST(a, \"NSNumber\") > 1"),
    .init("a > CAST(0, 'NSDate')", "a > CAST(\"2001-01-01T00:00:00Z\", \"NSDate\")"),
    .init("TERNARY(a == 1, b, c) == 1"),
    .init("$x := 1 + 2 == 3"),
    .init("ANYKEY == 1"),
    // Unbound specifiers print as written.
    .init("%K == %@"), .init("a > %lld"), .init("a == '%@'", "a == \"%@\""),
  ]

  @Test(arguments: cases)
  func printsCanonically(_ c: GoldenCase) throws {
    let p = try assertParses(c.input)
    #expect(p.predicateFormat == (c.canonical ?? c.input))
  }

  @Test func longAndChainIsFlat() throws {
    let text = (0..<10_000).map { "a == \($0)" }.joined(separator: " AND ")
    let p = try SiftPredicate.parse(text)
    guard case .and(let terms) = p.root.kind else {
      Issue.record("expected AND")
      return
    }
    #expect(terms.count == 10_000)
    #expect(p.root.height == 3)
    assertRoundTrips(p)
  }

  @Test func foldsConstantAggregatesAndDates() throws {
    let p = try SiftPredicate.parse("a IN {1, 'x', nil} AND b == CAST(10, 'NSDate')")
    guard case .and(let t) = p.root.kind, case .comparison(let c1) = t[0].kind, case .comparison(let c2) = t[1].kind
    else {
      Issue.record("shape")
      return
    }
    #expect(c1.rhs.kind == .constant([1, "x", nil]))
    #expect(c2.rhs.kind == .constant(.date(.init(timeIntervalSinceReferenceDate: 10))))
  }
}
