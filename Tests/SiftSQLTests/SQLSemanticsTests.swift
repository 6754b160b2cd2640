import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Differential tests on a small hand-made data set full of edge cases (nil, missing keys,
/// empty arrays and to-manys, Unicode, LIKE wildcards in data): SQLite must return exactly
/// the records in-memory evaluation returns.
@Suite("SQL semantics vs memory")
struct SQLSemanticsTests {
  static let json = #"""
    [
      {"id": 1, "name": "Café Noir", "priceCategory": "$", "specialCount": 3, "distance": 1.5, "tipCount": 10,
       "favorite": true, "rating": 4.5, "phone": "+1-555-0123", "code": "a%b",
       "tags": ["wifi", "vegan"], "scores": [10, 20, 30],
       "location": {"city": "Zürich", "distance": 2.0, "zip": "8000"},
       "menu": [{"item": "taco", "price": 3.5, "vegan": true}, {"item": "pie", "price": 10.0, "vegan": false}]},
      {"id": 2, "name": "cafe noir", "priceCategory": null, "specialCount": 0, "distance": 7.25, "tipCount": 7,
       "favorite": false, "rating": null, "code": "a_b",
       "tags": [], "scores": [],
       "location": {"city": null, "distance": 9.0, "zip": "1"},
       "menu": []},
      {"id": 3, "name": "STRASSE", "specialCount": 9, "distance": 0.0, "tipCount": 100, "favorite": false,
       "code": "100%", "tags": ["WiFi", "ß"], "scores": [5],
       "menu": [{"item": "Taco", "price": 2.0, "vegan": false}]},
      {"id": 4, "name": "straße", "priceCategory": "$$", "specialCount": 1, "distance": 3.0, "tipCount": 0,
       "favorite": true, "rating": 1.0, "phone": null, "code": "x\\y",
       "tags": ["Σ"], "scores": [100, 0],
       "location": {"city": "Montréal", "distance": 1.0, "zip": "H2X"},
       "menu": [{"item": "crème", "price": 5.0, "vegan": true}, {"item": "creme", "price": null, "vegan": null}]},
      {"id": 5, "name": null, "specialCount": 2, "distance": 12.0, "tipCount": 3, "favorite": false,
       "code": "", "tags": ["σ", "wifi", "wifi"], "scores": [1, 2]},
      {"id": 6, "name": "Red ?ar*", "priceCategory": "$", "specialCount": 5, "distance": 5.0, "tipCount": 55,
       "favorite": true, "rating": 3.0, "phone": "+1-555-9999", "code": "Red",
       "location": {"city": "Paris", "distance": 5.0, "zip": "75"},
       "menu": [{"item": "ramen", "price": 8.0, "vegan": false}]}
    ]
    """#

  static let records: [SiftValue] = {
    guard case .array(let a)? = try? SiftJSON.parse(json) else { return [] }
    return a
  }()

  static let database = LockedDatabase {
    let db = try SQLiteDatabase()
    try db.load(records, entity: "Venue", schema: SQLFixtures.schema, dialect: SQLiteDialect())
    return db
  }

  static let predicates: [String] = [
    // nil and two-valued logic
    "priceCategory != '$'", "NOT priceCategory == '$'", "NOT (rating > 2)", "rating != nil", "rating == nil",
    "NOT (rating <= 3 OR name == 'x')", "priceCategory IN {'$', nil}", "NOT priceCategory IN {'$', nil}",
    "priceCategory IN {}", "NOT priceCategory IN {}", "rating <= nil", "rating < nil", "nil == nil",
    "location == nil", "location != nil", "location.city == nil", "location.city != 'Paris'",
    "NOT location.city BEGINSWITH 'Z'", "phone != nil AND NOT phone CONTAINS '9'",
    // strings and options
    "name ==[c] 'CAFÉ NOIR'", "name ==[cd] 'cafe noir'", "name ==[c] 'strasse'", "name BEGINSWITH 'Caf'",
    "name BEGINSWITH[cd] 'CAFE'", "name ENDSWITH[c] 'NOIR'", "name CONTAINS[d] 'e n'", "name CONTAINS ''",
    "code CONTAINS '%'", "code CONTAINS '_'", "code BEGINSWITH 'a%'", "code ENDSWITH '\\\\y'", "code LIKE 'a?b'",
    "code LIKE '*\\\\%'", "name LIKE[c] 'red \\\\?ar\\\\*'", "name LIKE 'Red ?ar*'", "name MATCHES '.*[Nn]oir'",
    "name MATCHES[c] 'caf. noir'", "name MATCHES[cd] 'CAFE.*'", "name < 'a'", "name >= 'cafe'",
    "name IN[c] {'STRAßE', 'red ?ar*'}", "'noir' IN name", "name IN 'Café Noir and more'",
    // numbers, booleans, arithmetic
    "favorite == 1", "favorite == YES", "favorite != NO", "favorite == 2", "specialCount == YES",
    "specialCount == '3'", "specialCount != '3'", "distance BETWEEN {1, 5}", "tipCount / 10 == 1",
    "tipCount / 2.0 > 3", "distance / 0 > 1000", "modulus:by:(tipCount, 7) == 3", "distance * 2 > tipCount",
    "-specialCount < -2", "specialCount ** 2 > 20",
    "TERNARY(favorite == YES, specialCount, 0) >= 3", "abs(-specialCount) == 3",
    // collections
    "ANY tags == 'wifi'", "ALL tags == 'wifi'", "NONE tags == 'wifi'", "ANY tags ==[c] 'WIFI'",
    "ALL scores > 4", "NONE scores > 50", "tags.@count == 0", "scores.@sum > 50", "scores.@avg >= 5",
    "scores.@max == 100", "scores.@min == nil", "menu.@count >= 2", "menu.@sum.price > 10",
    "menu.@avg.price > 5", "menu.@max.price < 9", "ANY menu.item ==[c] 'taco'", "ALL menu.vegan == YES",
    "NONE menu.price > 9", "ANY menu.price == nil", "menu.item CONTAINS 'taco'", "'ß' IN tags",
    "tags CONTAINS[c] 'σ'", "SUBQUERY(menu, $m, $m.vegan == YES).@count > 0",
    "SUBQUERY(tags, $t, $t BEGINSWITH 'w').@count == 2", "tags[FIRST] == 'wifi'", "tags[LAST] ==[c] 'WIFI'",
    "tags[SIZE] == 1", "scores[1] == 20", "ANY menu.@distinctUnionOfObjects.item == 'taco'",
    "ANY {1, 2, 3} == specialCount", "ALL {1, 2} < specialCount", "specialCount IN {1, 2.0, '3'}",
    "ANY tags IN {'vegan', 'Σ'}", "SUBQUERY(tags, $t, $t == 'x').@count == 0", "scores.@sum == nil",
    // a SUBQUERY variable hidden by an inner one of the same name, and visible again after it
    "SUBQUERY(menu, $m, SUBQUERY(tags, $m, $m == 'wifi').@count > 0 AND $m.vegan == YES).@count > 0",
    "SUBQUERY(menu, $m, $m.price < 9 AND SUBQUERY(tags, $t, $t == 'wifi' AND $m.vegan == YES).@count > 0).@count > 0",
    "menu.@sum.price == nil", "menu.@count == nil", "scores.@avg == nil",
    "count(menu.@distinctUnionOfObjects.item) == 2", "NOT (ANY tags == 'wifi')", "NOT (ALL scores > 4)",
  ]

  @Test(arguments: predicates)
  func sqliteAgreesWithMemory(_ format: String) throws {
    let p = try SiftPredicate(format: format)
    let memory = try p.compile().matchingIndices(Self.records)
    let st = try SQLFixtures.sqlite.compileMatchingIndices(p, entity: "Venue")
    #expect(placeholdersMatch(st, SQLiteDialect()))
    let sql = try Self.database.with { db in
      try db.matchingIndices(of: p, entity: "Venue", compiler: SQLFixtures.sqlite)
    }
    #expect(sql == memory, "\(format)\n  \(st)")
    let pg = try SQLFixtures.postgres.compileMatchingIndices(p, entity: "Venue")
    #expect(placeholdersMatch(pg, PostgreSQLDialect()), "\(pg)")
  }

  /// Integer division by zero is an error in memory; SQLite raises it too (never a silent
  /// NULL), so both sides fail.
  @Test(arguments: ["tipCount / 0 == nil", "modulus:by:(tipCount, 0) == 1"])
  func integerDivisionByZeroFailsInBoth(_ format: String) throws {
    let p = try SiftPredicate(format: format)
    expectSiftError(id: "division-by-zero", stage: .evaluate, at: 0) { try p.compile().matchingIndices(Self.records) }
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try Self.database.with { db in try db.matchingIndices(of: p, entity: "Venue", compiler: SQLFixtures.sqlite) }
    }
  }
}
