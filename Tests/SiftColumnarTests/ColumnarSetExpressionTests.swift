import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// `UNION`, `INTERSECT`, `MINUS` over columns answer as the row evaluator does (and as the
/// expected indices say, so neither path can be wrong alike).
@Suite struct ColumnarSetExpressionTests {
  static let values: [SiftValue] = [
    ["n": 1, "s": "a", "t": ["x", "y"]], ["n": 2.0, "s": "1", "t": []], ["n": 3, "s": "é", "t": ["y"]],
    ["n": nil, "s": nil, "t": nil], ["s": "b", "t": ["z", "z"]],
  ]

  static let cases: [(String, [Int])] = [
    ("n IN {1, 2} UNION {3}", [0, 1, 2]),
    ("n IN {1, 2, 3} MINUS {2}", [0, 2]),
    ("n IN {3, 2} INTERSECT {2.0, 7}", [1]),
    ("s IN {'a'} UNION {1}", [0]),
    ("NOT s IN {'a', 'b'} MINUS {'b'}", [1, 2, 3, 4]),
    ("(t UNION {'y'}).@count == 2", [0, 4]),
    ("(t INTERSECT {'y', 'z'}).@count == 1", [0, 2, 4]),
    ("ANY t IN {'q'} UNION {'z'}", [4]),
  ]

  @Test(arguments: cases.indices)
  func columnsAnswerAsRows(_ i: Int) throws {
    let (format, expected) = Self.cases[i]
    let bytes = Array(SiftJSON.serialize(.array(Self.values)).utf8)
    let rows = try JSONRecords.load(bytes: bytes)
    let columns = try SiftColumnarRecords(bytes: bytes)
    let m = try SiftPredicate(format: format).compile()
    #expect(try m.matchingIndices(rows) == expected, "\(format)")
    #expect(try m.matchingIndices(columns) == expected, "\(format)")
    #expect(try m.matchingIndices(columns, workers: 2) == expected, "\(format)")
  }
}
