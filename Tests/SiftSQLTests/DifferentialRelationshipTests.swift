import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// Memory, SQLite and PostgreSQL (when reachable) on relationships, for the disagreements a
/// probing round found: union operators ending on a to-one (nil objects are dropped), and
/// distinct strings told apart by Unicode scalars.
@Suite("Differential: relationships")
struct DifferentialRelationshipTests {
  static let schema = """
    {"entities": {
      "Venue": {"attributes": {"id": "integer", "name": "string", "tags": "stringArray"},
                "relationships": {"menu": {"toMany": "Item"}}},
      "Item": {"attributes": {"item": "string", "price": "double"},
               "relationships": {"maker": {"toOne": "Person"}}},
      "Person": {"attributes": {"name": "string"}}}}
    """

  static let records: [SiftValue] = [
    ["id": 1, "name": "no maker", "menu": [["item": "tea", "price": 2.0, "maker": nil]], "tags": ["é", "e\u{301}"]],
    [
      "id": 2, "name": "one maker", "menu": [["item": "tea", "maker": ["name": "bob"]], ["item": "milk"]],
      "tags": ["é", "é"],
    ],
    ["id": 3, "name": "accents", "menu": [["item": "é"], ["item": "e\u{301}"], ["item": "é"]]],
    ["id": 4, "name": "empty", "menu": [], "tags": []],
    ["id": 5, "name": "nil"],
  ]

  static let predicates = [
    // @unionOfObjects / @distinctUnionOfObjects ending on a to-one drop nil objects
    "menu.@unionOfObjects.maker[SIZE] > 0",
    "ANY menu.@unionOfObjects.maker == nil", "nil IN menu.@unionOfObjects.maker",
    "ALL menu.@unionOfObjects.maker != nil", "menu.@distinctUnionOfObjects.maker[SIZE] == 1",
    "ANY menu.@unionOfObjects.maker.name == 'bob'", "menu.@unionOfObjects.item[SIZE] == 2",
    // distinct strings by scalars: é and e + U+0301 are two values
    "menu.@distinctUnionOfObjects.item[SIZE] == 2", "menu.@distinctUnionOfObjects.item[SIZE] == 1",
    "tags.@distinctUnionOfObjects.self[SIZE] == 2", "tags.@distinctUnionOfObjects.self[SIZE] == 1",
    "SUBQUERY(menu, $m, $m.item BEGINSWITH 'e').@count == 1",
    // a to-many or array value compared with nil: nil when missing or null, not when empty
    "tags == nil", "tags != nil", "nil == menu", "menu != nil", "NOT (tags == nil) AND menu == nil",
    "SUBQUERY(menu, $m, TRUEPREDICATE) == nil", "SUBQUERY(tags, $t, $t == 'x') != nil",
    "menu.@unionOfObjects.item == nil", "menu.@distinctUnionOfObjects.item != nil", "tags.@unionOfObjects.self == nil",
  ]

  @Test func enginesAgree() throws {
    let engines = try ThreeWay(schema: try SQLSchema(json: Self.schema), entity: "Venue", records: Self.records)
    for format in Self.predicates {
      let p = try SiftPredicate(format: format)
      let found = engines.check(p, label: format)
      #expect(found == nil, "\(found?.report ?? "")")
    }
  }

  /// The rules themselves, in memory: nil objects are not elements of a union, and distinct
  /// strings compare by scalars.
  @Test func memoryAnswers() throws {
    let engines = try ThreeWay(
      schema: try SQLSchema(json: Self.schema), entity: "Venue", records: Self.records, usePostgres: false)
    let expected: [(String, [Int])] = [
      ("menu.@unionOfObjects.maker[SIZE] > 0", [1]),
      ("ALL menu.@unionOfObjects.maker != nil", [0, 1, 2, 3, 4]),  // ALL over nil is true
      ("menu.@distinctUnionOfObjects.item[SIZE] == 2", [1, 2]),
      ("tags.@distinctUnionOfObjects.self[SIZE] == 2", [0]),
      ("tags == nil", [2, 4]), ("menu == nil", [4]), ("menu != nil", [0, 1, 2, 3]),
      ("menu.@unionOfObjects.item == nil", [4]),  // a union over a nil collection is nil
    ]
    for (format, want) in expected {
      let got = engines.outcomes(try SiftPredicate(format: format)).memory
      #expect(got == .matches(want), "\(format): \(got)")
    }
  }
}
