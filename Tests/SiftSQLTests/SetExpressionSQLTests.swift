import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import Testing

/// `UNION`, `INTERSECT`, `MINUS` in SQL: over constant lists they are folded before compiling
/// (`SetOperatorFolding`, memory's element equality and order), so SQLite and PostgreSQL match
/// the records memory matches; over array attributes and to-many key paths they compile to a
/// derived table (SetExpressionCollectionTests).
@Suite("Set expressions in SQL")
struct SetExpressionSQLTests {
  static let schemaJSON = """
    {"entities": {"Row": {"table": "row", "attributes": {"n": "integer", "x": "double", "s": "string",
      "nums": "integerArray"}}}}
    """
  static let records: [SiftValue] = [
    ["n": 1, "x": 1.0, "s": "1", "nums": [1, 2]], ["n": 2, "x": 2.5, "s": "a", "nums": []],
    ["n": 3, "x": -1.0, "s": "é", "nums": [3]], ["n": nil, "x": nil, "s": nil, "nums": nil],
  ]

  static let predicates: [String] = [
    "n IN {1, 2} UNION {3}", "n IN {1, 2, 3} MINUS {2.0}", "n IN {1, 2, 3} INTERSECT {3, 1.0, 7}",
    "x IN {1, 2} UNION {2.5}", "s IN {\"a\"} UNION {1}", "s IN {\"1\", \"a\"} MINUS {1}",
    "s IN {'e\\u0301'} UNION {'b'}", "n IN {1} MINUS {1}", "NOT n IN {1, 2} INTERSECT {2}",
    "({1, 2} UNION {2, 3}).@count == 3", "n IN ({1, 2, 3} MINUS {1}) MINUS {3}", "n IN {nil} UNION {2}",
    "ANY nums IN {2, 3} UNION {9}",
  ]

  @Test(arguments: predicates)
  func constantListsAgreeWithMemory(_ format: String) throws {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records)
    let p = try SiftPredicate(format: format)
    if let failure = engines.check(p, label: format) { Issue.record("\(failure.report)") }
    let (memory, _, _) = engines.outcomes(p)
    if case .failed(let m) = memory { Issue.record("\(format) failed in memory: \(m)") }
  }

  /// The fold gives memory's list, element for element and in memory's order.
  @Test func foldedListIsMemorysList() throws {
    for format in ["{1, 2, 2} UNION {2.0, 3, '3'}", "{3, 1, 2} INTERSECT {2, 3.0}", "{1, true, 2} MINUS {2}"] {
      let e = try SiftExpression(format: format)
      let folded = try #require(SetOperatorFolding.constantElements(e.root), "\(format)")
      #expect(SiftValue.array(folded) == (try e.expressionValue()), "\(format)")
    }
  }

  /// Array attributes as operands compile too (SetExpressionCollectionTests has more).
  @Test(arguments: [
    "n IN nums UNION {1}", "n IN {1, 5} MINUS nums", "(nums INTERSECT {1}).@count == 1",
    // Integers and doubles are told apart exactly, beyond 2^53 too (not through Double).
    "(nums UNION {9007199254740992.0}).@count == 2", "(nums INTERSECT {9007199254740992.0}).@count == 0",
    "(nums UNION {2.0}).@count == 2",
  ])
  func keyPathOperandsAgreeWithMemory(_ format: String) throws {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let big: [SiftValue] = [["n": 5, "x": 0.5, "s": "b", "nums": [.int(9_007_199_254_740_993), 2]]]
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records + big)
    let p = try SiftPredicate(format: format)
    if let failure = engines.check(p, label: format) { Issue.record("\(failure.report)") }
    if case .matches(let m) = engines.outcomes(p).memory, m.isEmpty { Issue.record("\(format) selects nothing") }
  }
}
