import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// To-one key paths in a fetch: semi-joins for comparisons false for nil, LEFT JOINs for the
/// rest. A missing related row reads as nil in all three engines: `location.city == nil` is
/// true for it, `location.city == "Oslo"` false, and no row repeats (counts, DISTINCT,
/// aggregates and groups see each record once).
@Suite("To-one joins")
struct ToOneJoinTests {
  static let records: [SiftValue] = [
    ["id": 1, "name": "a", "distance": 1.0, "location": ["id": 11, "city": "Oslo", "distance": 2.0]],
    ["id": 2, "name": "b", "distance": 3.0, "location": ["id": 12, "city": nil, "distance": 1.0]],
    ["id": 3, "name": "c", "distance": 2.0, "location": nil],
    [
      "id": 4, "name": "d", "distance": 5.0, "location": ["id": 14, "city": "Bergen", "distance": 9.0],
      "menu": [["id": 41, "item": "soup", "price": 4.0], ["id": 42, "item": "tea", "price": 12.0]],
    ],
    ["id": 5, "name": "e", "distance": 0.5, "location": ["id": 15, "city": "Oslo", "distance": 0.1]],
  ]

  /// (predicate, the matching records' positions).
  static let cases: [(String, [Int])] = [
    ("location.city == 'Oslo'", [0, 4]),
    ("location.city == nil", [1, 2]),
    ("location.city != 'Oslo'", [1, 2, 3]),
    ("NOT (location.city == 'Oslo')", [1, 2, 3]),
    ("location.city == nil OR name == 'e'", [1, 2, 4]),
    ("location == nil", [2]),
    ("location.distance < distance", [1, 4]),
    ("NOT (location.distance < distance)", [0, 2, 3]),
    ("location.distance < distance AND location.city == 'Oslo'", [4]),
    ("ANY menu.price > location.distance", [3]),
    ("location.city IN {'Oslo', 'Bergen'} AND location.distance > 1", [0, 3]),
  ]

  @Test func threeEnginesAgree() throws {
    let w = try ThreeWay(schema: SQLFixtures.schema, entity: "Venue", records: Self.records)
    for (format, expected) in Self.cases {
      let o = w.outcomes(try SiftPredicate(format: format))
      #expect(o.memory == .matches(expected), "\(format): memory \(o.memory)")
      #expect(o.sqlite == .matches(expected), "\(format): sqlite \(o.sqlite)")
      if let pg = o.postgres { #expect(pg == .matches(expected), "\(format): postgresql \(pg)") }
    }
  }

  /// The fetch's FROM joins each to-one step once, and a LEFT JOIN never repeats a row.
  @Test func joinsDoNotRepeatRows() throws {
    let w = try ThreeWay(schema: SQLFixtures.schema, entity: "Venue", records: Self.records, usePostgres: false)
    let p = try SiftPredicate(format: "location.city == nil OR location.distance < distance OR location.zip == nil")
    let count = try w.sqliteCompiler.compile(SiftFetchRequest(entity: "Venue", predicate: p, resultType: .count))
    #expect(count.sql.components(separatedBy: "LEFT JOIN").count == 2, "\(count.sql)")
    #expect(try w.sqlite.execute(count).first?.first == .integer(5))
    let grouped = try w.sqliteCompiler.compile(
      SiftFetchRequest(
        entity: "Venue", predicate: try SiftPredicate(format: "location.city == nil OR location.distance < 100"),
        resultType: .aggregates([SiftAggregate(.count)], groupBy: ["location.city"])))
    let rows = try w.sqlite.execute(grouped)
    #expect(rows.map { $0[1] } == [.integer(2), .integer(1), .integer(2)], "\(rows)")
  }
}
