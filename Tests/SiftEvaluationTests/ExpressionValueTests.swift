import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

@Suite struct ExpressionValueTests {
  static let venue: SiftValue = [
    "name": "Red bar", "price": 10, "tags": ["wifi", "late"], "scores": [1, 2, 2, 7],
    "menu": [["item": "taco", "price": 4], ["item": "pie", "price": 12.5]],
  ]

  /// Format, variables, expected value against `venue`.
  static let cases: [(String, [String: SiftValue], SiftValue)] = [
    ("price", [:], 10),
    ("name", [:], "Red bar"),
    ("missing", [:], nil),
    ("sum:(scores)", [:], 12),
    ("count:(tags)", [:], 2),
    ("min:(scores)", [:], 1),
    ("max:(menu.price)", [:], 12.5),
    ("average:(scores)", [:], 3.0),
    ("median:(scores)", [:], 2.0),
    ("mode:(scores)", [:], [2]),
    ("price * 2 + 1", [:], 21),
    ("7 / 2", [:], 3),
    ("price * (1 + $TAX)", ["TAX": 0.5], 15.0),
    ("$X", ["X": "given"], "given"),
    ("tags[LAST]", [:], "late"),
    ("menu.@count", [:], 2),
    ("SUBQUERY(menu, $m, $m.price > 5).@count", [:], 1),
    ("TERNARY(price > 5, 'dear', 'cheap')", [:], "dear"),
    ("uppercase:(name)", [:], "RED BAR"),
    ("{price, 1}", [:], [10, 1]),
    ("SELF.name", [:], "Red bar"),
    // Set expressions: each element once, by `==` (1 == 1.0 == true; "1" is not 1), the first
    // operand's order then the second's new elements; nil operand → nil.
    ("{1, 2, 2} UNION {2.0, 3}", [:], [1, 2, 3]),
    ("{\"1\", 1} UNION {1.0, true, \"1\", nil}", [:], ["1", 1, nil]),
    ("scores INTERSECT {7, 2, 9}", [:], [2, 7]),
    ("scores MINUS {2}", [:], [1, 7]),
    ("tags UNION {'wifi', 'cash'}", [:], ["wifi", "late", "cash"]),
    ("(tags UNION {'cash'}).@count", [:], 3),
    ("{1, 2, 3} MINUS {2} UNION {2}", [:], [1, 3, 2]),
    ("{1, 2, 3} MINUS ({2} UNION {2})", [:], [1, 3]),
    ("{'e\\u0301'} INTERSECT {'\\u00e9'}", [:], []),
    ("missing UNION {1}", [:], nil),
    ("{} INTERSECT tags", [:], []),
    ("sum:(scores MINUS {7})", [:], 3),
  ]

  @Test(arguments: cases.indices)
  func valuesAgainstARecord(_ i: Int) throws {
    let (format, variables, expected) = Self.cases[i]
    let e = try SiftExpression(format: format)
    #expect(try e.expressionValue(with: Self.venue, variables: variables) == expected, "\(format)")
  }

  @Test func withoutARecord() throws {
    #expect(try SiftExpression(format: "average:({1, 2, 6})").expressionValue() == 3.0)
    #expect(try SiftExpression(format: "SELF").expressionValue() == nil)
    #expect(try SiftExpression(format: "sum:(%@)", [1, 2, 3]).expressionValue() == 6)
    if case .date = try SiftExpression(format: "now()").expressionValue() {
    } else {
      Issue.record("now() is not a date")
    }
  }

  @Test func plainValueRecordIsSelf() throws {
    #expect(try SiftExpression(format: "uppercase:(SELF)").expressionValue(with: SiftValue.string("Do")) == "DO")
  }

  @Test func compiledOnceServesManyRecords() throws {
    let e = try SiftExpression(format: "price * $RATE").compile()
    #expect(e.variables == ["RATE"])
    let prices = try [1, 2, 3].map { p throws(SiftError) in
      try e.value(with: SiftValue.dictionary(["price": .int(Int64(p))]), variables: ["RATE": 10])
    }
    #expect(prices == [10, 20, 30])
  }

  /// Evaluation errors are `SiftError`s with a position, never a crash.
  @Test(arguments: [
    ("$MISSING + 1", "unbound-variable"),
    ("name * 2", ""),
    ("FUNCTION(name, 'nope')", ""),
    ("%@ + 1", ""),
    ("1 / 0", "division-by-zero"),
    ("1 UNION {2}", "not-a-number"),
    ("tags MINUS 'wifi'", "not-a-number"),
  ])
  func errorsAreDiagnostics(_ format: String, _ id: String) throws {
    let e = try SiftExpression.parse(format)
    do {
      _ = try e.expressionValue(with: Self.venue)
      Issue.record("\(format) evaluated")
    } catch {
      #expect(error.stage == .evaluate, "\(format): \(error)")
      #expect(id.isEmpty || error.diagnostic.id == id, "\(format): \(error.diagnostic.id)")
    }
  }
}
