import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// `UNION`, `INTERSECT`, `MINUS` with a to-many key path or an array attribute as an operand,
/// in SQL (a derived table: SQLCompilation+SetExpressions.swift): memory, SQLite and
/// PostgreSQL (when reachable) agree under `@count`, `IN`, `ANY`/`ALL`/`NONE`, aggregates and
/// SUBQUERY; shapes SQL cannot hold are refused with `unsupported-in-sql` naming the expression.
@Suite("Set expressions over collections in SQL")
struct SetExpressionCollectionTests {
  static let schema = DifferentialRelationshipTests.schema
  static let records: [SiftValue] =
    DifferentialRelationshipTests.records + [
      ["id": 6, "name": "numbers", "menu": [["item": "x", "price": 2], ["item": "x", "price": 3.5]], "tags": ["x"]]
    ]

  static let predicates: [String] = [
    "(menu.item UNION {'x'}).@count == 3", "(tags UNION {'x'}).@count == 2", "(tags UNION {'x'}).@count == 1",
    "'tea' IN menu.item UNION tags", "'x' IN tags UNION {'x'}", "NOT 'x' IN tags MINUS {'x'}",
    "ANY (menu.item INTERSECT tags) == 'é'", "ANY (menu.item INTERSECT tags) == 'x'",
    "ALL (tags MINUS {'é'}) == 'e\u{301}'", "NONE (menu.item MINUS {'tea'}) BEGINSWITH 'm'",
    "(menu.price UNION {2, 3.5}).@sum > 5", "(menu.price UNION {2, 3.5}).@count == 2",
    "(menu.item MINUS menu.item).@count == 0", "((tags UNION menu.item) MINUS {'tea'}).@count == 2",
    "SUBQUERY(tags UNION {'z'}, $t, $t == 'z').@count == 1", "(tags INTERSECT {'é'}).@count == 1",
    "(tags UNION {}).@count == 0", "({'a', 'é'} INTERSECT tags).@count == 1", "(tags UNION tags) == nil",
    "(tags MINUS {'é'}) != nil", "(menu.price INTERSECT {2.0, 7}).@max == 2", "ANY (tags UNION {'q'}) ==[c] 'Q'",
    "(menu.item UNION tags UNION {'z'}).@count >= 3", "(tags UNION nil) == nil",
    // nil elements (items without a price) are elements, equal to each other
    "(menu.price UNION {2}).@count == 2", "nil IN menu.price UNION {5}", "(menu.price MINUS {nil}).@count == 1",
    "(menu.price INTERSECT {nil, 2}).@count == 1", "ANY (menu.price UNION {nil}) == nil",
    "(menu.price UNION {nil, 3}).@count == 3", "(menu.price UNION {}).@count == 1",
    // chains: one compound, left to right (PostgreSQL's INTERSECT would bind tighter unparenthesised)
    "(tags UNION {'a'} UNION {'b', 'c'} MINUS {'a'}).@count == 3",
    "(tags UNION {'x'} INTERSECT {'x', 'é'}).@count == 2",
    "(menu.item UNION tags INTERSECT {'tea', 'é'} UNION {'q'}).@count == 3",
    "'tea' IN tags MINUS {'x'} UNION menu.item",
  ]

  @Test func enginesAgree() throws {
    let engines = try ThreeWay(schema: try SQLSchema(json: Self.schema), entity: "Venue", records: Self.records)
    for format in Self.predicates {
      let p = try SiftPredicate(format: format)
      if let found = engines.check(p, label: format) { Issue.record("\(found.report)") }
      let (memory, _, _) = engines.outcomes(p)
      if case .failed(let m) = memory { Issue.record("\(format) failed in memory: \(m)") }
    }
  }

  /// A long chain is one compound SELECT, within SQLite's parser stack however long it grows.
  @Test func longChainsStayFlat() throws {
    let format = "(tags" + (0..<60).map { " UNION {'w\($0)'}" }.joined() + " MINUS {'w0'}).@count == 60"
    let engines = try ThreeWay(schema: try SQLSchema(json: Self.schema), entity: "Venue", records: Self.records)
    let p = try SiftPredicate(format: format)
    if let found = engines.check(p, label: "a chain of 61") { Issue.record("\(found.report)") }
    #expect(engines.outcomes(p).memory == .matches([1, 5]), "\(engines.outcomes(p).memory)")
  }

  /// What the derived table cannot hold: objects, kinds PostgreSQL cannot put in one column,
  /// an operand that is not a collection. The message names the expression.
  @Test(arguments: [
    ("(menu UNION menu).@count == 1", "menu UNION menu"), ("(tags UNION {1}).@count == 1", "tags UNION {1}"),
    ("(menu.price UNION tags).@count == 1", "menu.price UNION tags"),
    ("(name UNION tags).@count == 1", "name UNION tags"), ("(tags UNION menu.item)[FIRST] == 'a'", "no order"),
  ])
  func unsupportedShapesAreRefused(_ format: String, _ named: String) throws {
    let schema = try SQLSchema(json: Self.schema)
    for dialect in [SQLiteDialect() as any SQLDialect, PostgreSQLDialect()] {
      do {
        _ = try SQLCompiler(dialect: dialect, schema: schema).compileMatchingIndices(
          try SiftPredicate(format: format), entity: "Venue")
        Issue.record("\(format) compiled")
      } catch {
        #expect(error.diagnostic.id == "unsupported-in-sql", "\(format): \(error)")
        #expect(error.diagnostic.message.contains(named), "\(format): \(error.diagnostic.message)")
      }
    }
  }
}
