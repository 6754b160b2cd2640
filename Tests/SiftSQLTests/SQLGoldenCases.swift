import Foundation
import SiftSQL
import SiftSyntax

/// The cases of the golden SQL files (`SQLGoldenTests`), one table per layout. Every construct
/// the compiler knows appears at least once; every case's SQL also runs (`SQLGoldenRunTests`).
enum SQLGoldenCases {
  /// WHERE conditions on the Sift-made venues schema (`Tests/Fixtures/sql/venues.schema.json`).
  static let venuePredicates: [(String, [SiftValue])] = [
    // Comparisons, nil, booleans, IN, BETWEEN
    ("name == %@", ["Red bar"]),
    ("priceCategory != '$'", []),
    ("NOT (rating > 4.5)", []),
    ("rating == nil OR rating <= 1", []),
    ("rating != nil", []),
    ("nil == rating", []),
    ("rating >= 4 AND rating < 4.5", []),
    ("4 < rating", []),
    ("specialCount IN {1, 3, nil}", []),
    ("specialCount IN {}", []),
    ("NOT (specialCount IN {1, 2})", []),
    ("id IN %@", [[1, 2, 3]]),
    ("distance BETWEEN {1, 2}", []),
    ("NOT (distance BETWEEN {1, 2})", []),
    ("distance BETWEEN %@", [[0.5, 3]]),
    ("favorite == YES", []),
    ("favorite == NO", []),
    ("favorite != YES", []),
    ("favorite == 1 AND specialCount == TRUE", []),
    ("favorite == nil", []),
    ("TRUEPREDICATE", []),
    ("FALSEPREDICATE", []),
    ("name == name", []),
    ("distance < rating", []),
    ("specialCount == tipCount", []),
    ("createdAt > 1700000000", []),
    ("code == %@", ["B-1"]),
    ("phone == nil AND code != nil", []),
    ("(specialCount > 5 OR favorite == YES) AND distance < 5", []),
    ("NOT (name == 'x' OR ANY tags == 'y')", []),
    ("NOT (NOT (rating > 3))", []),
    ("name == 'a' OR name == 'b' OR name == 'c'", []),
    ("name IN {'Red bar', 'Blue cafe'}", []),
    ("name IN[c] {'red bar', 'BLUE CAFE'}", []),
    // Strings and their options
    ("name BEGINSWITH 'Blue'", []),
    ("name BEGINSWITH[c] 'blue'", []),
    ("name BEGINSWITH[d] 'cafe'", []),
    ("name BEGINSWITH[cd] 'blue'", []),
    ("name ENDSWITH 'Café'", []),
    ("name ENDSWITH[c] 'BAR'", []),
    ("name CONTAINS %@", ["50%_off\\"]),
    ("name CONTAINS[c] 'BAR'", []),
    ("name CONTAINS[cd] 'cafe'", []),
    ("name CONTAINS code", []),
    ("name BEGINSWITH ''", []),
    ("name LIKE 'Blue*'", []),
    ("name LIKE[c] '*bar?'", []),
    ("name LIKE[cd] 'caf*'", []),
    ("name MATCHES '(Blue|Red) .*'", []),
    ("name MATCHES[c] 'blue.*'", []),
    ("name MATCHES[cd] 'cafe.*'", []),
    ("name ==[c] 'RED BAR'", []),
    ("name ==[d] 'Cafe'", []),
    ("name ==[cd] 'zurich'", []),
    ("name !=[c] 'red bar'", []),
    ("name < 'C'", []),
    ("name >= 'M' AND name < 'N'", []),
    ("name BETWEEN {'A', 'M'}", []),
    ("name <[c] 'c'", []),
    ("'Blue' IN name", []),
    // To-one key paths
    ("location.city ==[c] 'berlin'", []),
    ("location.city == 'Oslo'", []),
    ("location.city == nil", []),
    ("location.city != 'Oslo'", []),
    ("location == nil", []),
    ("location != nil", []),
    ("location.distance < distance", []),
    ("location.city BEGINSWITH 'Be'", []),
    ("location.zip IN {'10115', '0150'}", []),
    ("NOT (location.city == 'Oslo')", []),
    // To-many relationships and array attributes
    ("ANY tags == 'wifi'", []),
    ("ANY tags ==[c] 'WIFI'", []),
    ("ANY tags BEGINSWITH 've'", []),
    ("NONE tags == 'loud'", []),
    ("ALL tags != 'loud'", []),
    ("ALL scores > 50", []),
    ("ANY scores BETWEEN {10, 20}", []),
    ("ANY scores IN {1, 2, 3}", []),
    ("'wifi' IN tags", []),
    ("tags CONTAINS 'wifi'", []),
    ("tags.@count > 2", []),
    ("tags.@count == 0", []),
    ("tags == nil", []),
    ("scores.@sum > 300", []),
    ("scores.@avg >= 50", []),
    ("scores.@min < 10", []),
    ("scores.@max > 90", []),
    ("tags[FIRST] == 'vegan'", []),
    ("tags[LAST] == 'wifi'", []),
    ("tags[SIZE] > 1", []),
    ("scores[0] > 10", []),
    ("ANY menu.price < 10", []),
    ("ANY menu.item ==[c] 'soup'", []),
    ("NONE menu.price > 30", []),
    ("ALL menu.vegan == YES", []),
    ("menu.@count >= 2", []),
    ("menu.@avg.price > 30", []),
    ("menu.@sum.price < 100", []),
    ("menu.@min.price < 5", []),
    ("menu.@max.item > 'M'", []),
    ("ANY menu.@distinctUnionOfObjects.item == 'soup'", []),
    ("ANY menu.price < location.distance", []),
    ("SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0", []),
    ("SUBQUERY(menu, $m, $m.price > distance).@count == 0", []),
    ("SUBQUERY(tags, $t, $t BEGINSWITH 'w').@count >= 1", []),
    // Arithmetic, functions, TERNARY, variables bound as arguments
    ("tipCount / 10 > specialCount", []),
    ("specialCount ** 2 == 16", []),
    ("specialCount + tipCount > 10", []),
    ("specialCount - 1 == tipCount * 2", []),
    ("-distance < -1", []),
    ("distance * 2 + 1 BETWEEN {3, 5}", []),
    ("modulus:by:(specialCount, 3) == 1", []),
    ("sqrt:(distance) > 1", []),
    ("floor:(distance) == 1", []),
    ("abs:(distance) > 1", []),
    ("TERNARY(favorite == YES, specialCount, 0) > 7", []),
    ("TERNARY(rating == nil, 0, rating) >= 4", []),
    ("lowercase:(name) == 'red bar'", []),
    ("uppercase:(name) BEGINSWITH 'RED'", []),
    ("SELF.name == 'Red bar'", []),
    ("name == %@ AND distance < %@", ["Red bar", 2.5]),
    // CAST between kinds and FUNCTION selectors (Grammar/notes/sql.md, "CAST and selectors")
    ("CAST(rating, 'NSString') == '4.5'", []),
    ("CAST(specialCount, 'NSString') == '5'", []),
    ("CAST(favorite, 'NSString') == '1'", []),
    ("CAST(code, 'NSNumber') > 1", []),
    ("CAST(favorite, 'NSNumber') == 1", []),
    ("CAST(createdAt, 'NSDate') < %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("FUNCTION(name, 'length') > 3", []),
    ("FUNCTION(name, 'uppercaseString') == 'RED BAR'", []),
    ("FUNCTION(rating, 'intValue') == 4", []),
    ("FUNCTION(favorite, 'boolValue') == YES", []),
    ("FUNCTION(tags, 'count') == 2", []),
  ]

  /// Whole statements on the venues schema: results, joins, sorts, pages, aggregates.
  static func venueRequests() throws -> [(String, SiftFetchRequest)] {
    func p(_ format: String) throws -> SiftPredicate { try SiftPredicate(format: format) }
    let v = "Venue"
    return [
      (
        "fetch: location.city == 'Oslo' (a semi-join)",
        SiftFetchRequest(entity: v, predicate: try p("location.city == 'Oslo'"), resultType: .count)
      ),
      (
        "fetch: location.city == nil OR name == 'x' (a left join)",
        SiftFetchRequest(entity: v, predicate: try p("location.city == nil OR name == 'x'"), resultType: .count)
      ),
      (
        "fetch: location.city ==[c] 'oslo' AND NOT (location.zip == '1') (semi-joins)",
        SiftFetchRequest(entity: v, predicate: try p("location.city ==[c] 'oslo' AND NOT (location.zip == '1')"))
      ),
      (
        "fetch: NOT (location.city == 'Oslo') (a negated semi-join)",
        SiftFetchRequest(entity: v, predicate: try p("NOT (location.city == 'Oslo')"), resultType: .count)
      ),
      (
        "fetch: location.distance < distance AND location.zip == nil (one left join)",
        SiftFetchRequest(
          entity: v, predicate: try p("location.distance < distance AND location.zip == nil"), resultType: .count)
      ),
      (
        "fetch: ANY menu.price < location.distance (a left join the subselect refers to)",
        SiftFetchRequest(entity: v, predicate: try p("ANY menu.price < location.distance"), resultType: .count)
      ),
      (
        "fetch: location.city == 'Oslo', sorted by location.city, distinct cities",
        SiftFetchRequest(
          entity: v, predicate: try p("location.city != nil"), sortDescriptors: [SiftSortDescriptor("location.city")],
          resultType: .distinct("location.city"))
      ),
      (
        "fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20",
        SiftFetchRequest(
          entity: v, predicate: try p("distance < 5"),
          sortDescriptors: [
            SiftSortDescriptor("name", comparison: .caseInsensitive), SiftSortDescriptor("rating", ascending: false),
          ],
          limit: 10, offset: 20)
      ),
      (
        "fetch: sort rating nulls last, localized name",
        SiftFetchRequest(
          entity: v,
          sortDescriptors: [
            SiftSortDescriptor("rating", nulls: .last), SiftSortDescriptor("name", comparison: .localizedStandard),
          ])
      ),
      (
        "fetch: count with limit",
        SiftFetchRequest(entity: v, predicate: try p("rating > 1"), limit: 3, resultType: .count)
      ),
      ("fetch: offset without limit", SiftFetchRequest(entity: v, offset: 2, resultType: .properties(["id"]))),
      (
        "fetch: properties name, location.city",
        SiftFetchRequest(
          entity: v, predicate: try p("favorite == YES"), resultType: .properties(["name", "location.city"]))
      ),
      ("fetch: indices", SiftFetchRequest(entity: v, predicate: try p("ANY tags == 'wifi'"), resultType: .indices)),
      (
        "fetch: aggregates grouped by priceCategory",
        SiftFetchRequest(
          entity: v, predicate: try p("distance < 10"),
          resultType: .aggregates(
            [
              SiftAggregate(.count), SiftAggregate(.sum, "tipCount"), SiftAggregate(.avg, "rating"),
              SiftAggregate(.min, "name"), SiftAggregate(.max, "distance"),
            ],
            groupBy: ["priceCategory"]))
      ),
      (
        "fetch: aggregates grouped by location.city",
        SiftFetchRequest(
          entity: v, predicate: try p("location.city != nil"),
          resultType: .aggregates([SiftAggregate(.count)], groupBy: ["location.city"]))
      ),
      (
        "fetch: expressions",
        SiftFetchRequest(
          entity: v,
          resultType: .expressions([
            SiftExpressionDescription(expression: try SiftExpression(format: "distance * 2")),
            SiftExpressionDescription(expression: try SiftExpression(format: "tags.@count")),
          ]))
      ),
    ]
  }

  /// WHERE conditions on an introspected-style schema Sift did not create (`ExistingEvents`:
  /// per-column date encodings, JSON and native arrays, numeric, uuid, a to-one and a to-many).
  static let eventPredicates: [(String, [SiftValue])] = [
    ("title == %@", ["Launch"]),
    ("title BEGINSWITH[c] 'la'", []),
    ("title CONTAINS[cd] 'cafe'", []),
    ("at_unix > %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("at_unix_int <= %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("at_2001 < %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    (
      "at_ms BETWEEN %@",
      [.array([.date(Date(timeIntervalSince1970: 1_600_000_000)), .date(Date(timeIntervalSince1970: 1_800_000_000))])]
    ),
    ("at_iso >= %@", [.date(Date(timeIntervalSince1970: 1_700_000_000.5))]),
    ("at_sqlite == %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("CAST(at_iso, 'NSNumber') > 0", []),
    ("FUNCTION(at_2001, 'timeIntervalSince1970') > 1700000000", []),
    ("on_day == %@", [.date(Date(timeIntervalSince1970: 1_700_006_400))]),
    ("at_tz > %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("at_ts < %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("at_ms == nil", []),
    ("ANY tags == 'wifi'", []),
    ("tags.@count > 1", []),
    ("ALL scores > 1", []),
    ("weights.@sum > 1.5", []),
    ("ANY jtags ==[c] 'A'", []),
    ("price > 10.5", []),
    ("flag == YES", []),
    ("code == %@", ["00000000-0000-0000-0000-000000000001"]),
    ("venue.name == 'Hall'", []),
    ("venue == nil", []),
    ("venue.name == nil OR flag == NO", []),
    ("ANY tickets.seat BEGINSWITH 'A'", []),
    ("ANY performers.name == 'Ada'", []),
    ("SUBQUERY(tickets, $t, $t.seat != nil).@count > 1", []),
    ("tickets.@count == 0", []),
  ]

  /// WHERE conditions on the events file's schema as SQLite introspection reads it (to-many
  /// and many-to-many named for their tables, dates by declared type, JSON arrays).
  static let introspectedPredicates: [(String, [SiftValue])] = [
    ("title ==[c] 'launch'", []),
    ("venue.name == 'Hall'", []),
    ("venue.name BEGINSWITH[c] 'ha' OR venue == nil", []),
    ("ANY ticket.seat == 'A1'", []),
    ("ticket.@count > 1", []),
    ("ANY performer.name ==[cd] 'ada'", []),
    ("at_tz < %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("at_sqlite >= %@", [.date(Date(timeIntervalSince1970: 1_700_000_000))]),
    ("on_day == %@", [.date(Date(timeIntervalSince1970: 1_700_006_400))]),
    ("ANY tags == 'wifi' AND flag == YES", []),
    ("scores.@max > 5", []),
    ("price BETWEEN {10, 20}", []),
    // event_title_nocase (COLLATE NOCASE): a NOCASE range in front of the exact test, where exact
    ("title BEGINSWITH[c] 'STAND'", []),
    ("title BEGINSWITH[c] 'part'", []),
    ("title BEGINSWITH[cd] 'STAND'", []),
  ]
}
