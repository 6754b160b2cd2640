import Foundation
import Testing

@testable import SiftSyntax

@Suite("Format arguments and variables")
struct ArgumentTests {
  @Test func bindsInOrder() throws {
    let date = Date(timeIntervalSinceReferenceDate: 726_148_800)
    let p = try SiftPredicate(
      format: "%K == %@ AND createdAt >= %@", "priceInfo.priceCategory", "$", SiftValue(date))
    #expect(
      p.predicateFormat == #"priceInfo.priceCategory == "$" AND createdAt >= CAST("2024-01-05T12:00:00Z", "NSDate")"#)
    assertRoundTrips(p)
  }

  static let ok: [(String, [SiftValue], String)] = [
    ("%K > %d", ["tipCount", 100], "tipCount > 100"),
    ("%K.city == %@", ["location", "Paris"], #"location.city == "Paris""#),
    ("%K == 1", ["menu.@count"], "menu.@count == 1"),
    ("%K == 1", ["SELF"], "SELF == 1"),
    ("a IN %@", [[1, 2, "x"]], #"a IN {1, 2, "x"}"#),
    ("a == %@", [nil], "a == nil"),
    ("a == %@", [true], "a == YES"),
    ("a == %f", [3], "a == 3.0"),
    ("a == %lld", [true], "a == 1"),
    ("a == %s", ["x"], #"a == "x""#),
    ("a == %c", ["x"], #"a == "x""#),
    ("a == %c", [65], #"a == "A""#),
    ("a == '%@' AND b == %@", ["v"], #"a == "%@" AND b == "v""#),
    ("a BETWEEN %@", [[1, 5]], "a BETWEEN {1, 5}"),
    ("%K == %@", ["first name", "Ann"], #"SELF["first name"] == "Ann""#),
  ]

  @Test(arguments: 0..<ok.count)
  func bindsKinds(_ i: Int) throws {
    let (format, args, expected) = Self.ok[i]
    let p = try SiftPredicate(format: format, arguments: args)
    #expect(p.predicateFormat == expected)
    #expect(p.unboundArgumentCount == 0)
  }

  static let bad: [(String, [SiftValue], String, Int)] = [
    ("%K == %@", [], "missing-argument", 0),
    ("a == %@", [], "missing-argument", 5),
    ("a == %@ AND b == %@", [1], "missing-argument", 17),
    ("a == %@", [1, 2], "too-many-arguments", 0),
    ("%K == 1", [5], "wrong-argument-kind", 0),
    ("a == %d", ["x"], "wrong-argument-kind", 5),
    ("a == %u", [-1], "wrong-argument-kind", 5),
    ("a == %f", ["x"], "wrong-argument-kind", 5),
    ("a == %s", [1], "wrong-argument-kind", 5),
    ("a == %c", ["xy"], "wrong-argument-kind", 5),
    ("%K == 1", ["a..b"], "invalid-key-path", 0),
    ("%K == 1", ["a.@bogus"], "unknown-collection-operator", 0),
  ]

  @Test(arguments: 0..<bad.count)
  func rejectsWithPosition(_ i: Int) throws {
    let (format, args, id, offset) = Self.bad[i]
    let e = try #require(parseError(format, args))
    #expect(e.stage == .arguments)
    #expect(e.diagnostic.id == id, "\(e)")
    #expect(e.diagnostic.range.start == offset, "\(e)")
  }

  @Test func parseOnceBindMany() throws {
    let template = try SiftPredicate.parse("price < %@ AND name BEGINSWITH %@")
    #expect(template.unboundArgumentCount == 2)
    #expect(template.predicateFormat == "price < %@ AND name BEGINSWITH %@")
    #expect(try template.binding([5, "a"]).predicateFormat == #"price < 5 AND name BEGINSWITH "a""#)
    #expect(try template.binding([9, "b"]).predicateFormat == #"price < 9 AND name BEGINSWITH "b""#)
  }

  @Test func substitutesVariablesButNotSubqueryIterators() throws {
    let p = try SiftPredicate.parse("name == $NAME AND SUBQUERY(menu, $NAME, $NAME.price < $MAX).@count > 0")
    #expect(p.variables == ["NAME", "MAX"])
    let s = p.substituting(["NAME": "Red bar", "MAX": 5])
    #expect(s.predicateFormat == #"name == "Red bar" AND SUBQUERY(menu, $NAME, $NAME.price < 5).@count > 0"#)
    #expect(s.variables.isEmpty)
    let partial = p.substituting(["MAX": 1])
    #expect(partial.variables == ["NAME"])
  }

  /// Binding and substitution build the same trees the parser builds for their printed form.
  static let boundCases: [(String, [SiftValue], [String: SiftValue])] = [
    ("a[%@] == 1", ["b c"], [:]),
    ("a IN {%@, 1}", ["x"], [:]),
    ("a IN {$x, 1}", [], ["x": 2]),
    ("a > CAST(%@, 'NSDate')", [5], [:]),
    ("a > CAST($t, 'NSDate')", [], ["t": 7.5]),
    ("%K.x == 1", ["SELF"], [:]),
    ("$D.x[$K].y == 3", [], ["D": "Red bar", "K": "k"]),
    ("n BETWEEN %@", ["name"], [:]),
    ("n BETWEEN %@", [[1, 2, 3]], [:]),
  ]

  @Test(arguments: 0..<boundCases.count)
  func boundTreesRoundTrip(_ i: Int) throws {
    let (format, args, vars) = Self.boundCases[i]
    let p = try SiftPredicate(format: format, arguments: args).substituting(vars)
    assertRoundTrips(p)
  }
}
