import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Fetch requests, batch update/delete and compile errors, run against SQLite.
@Suite("SQL fetch and batch")
struct SQLFetchTests {
  static func run(_ request: SiftFetchRequest) throws -> [[SQLValue]] {
    let st = try SQLFixtures.sqlite.compile(request)
    #expect(placeholdersMatch(st, SQLiteDialect()))
    let pg = try SQLFixtures.postgres.compile(request)
    #expect(placeholdersMatch(pg, PostgreSQLDialect()))
    return try SQLFixtures.database.with { db in try db.execute(st) }
  }

  @Test func countMatchesMemory() throws {
    let p = try SiftPredicate(format: "distance < 5 AND ANY tags == 'wifi'")
    let rows = try Self.run(SiftFetchRequest(entity: "Venue", predicate: p, resultType: .count))
    let memory = try p.compile().matchingIndices(SQLFixtures.records).count
    #expect(rows == [[.integer(Int64(memory))]])
    let limited = try Self.run(SiftFetchRequest(entity: "Venue", predicate: p, limit: 3, offset: 1, resultType: .count))
    #expect(limited == [[.integer(Int64(min(3, max(0, memory - 1))))]])
  }

  @Test func sortingPagingAndNullOrder() throws {
    let sorts = [SiftSortDescriptor("rating"), SiftSortDescriptor("name", ascending: false)]
    let all = try Self.run(SiftFetchRequest(entity: "Venue", sortDescriptors: sorts))
    let ratingColumn = try SQLFixtures.sqlite.recordColumns(entity: "Venue").firstIndex(of: "rating") ?? 0
    #expect(all.count == 1000)
    #expect(all.first?[ratingColumn] == .null)  // nil sorts first ascending
    let page = try Self.run(SiftFetchRequest(entity: "Venue", sortDescriptors: sorts, limit: 10, offset: 100))
    #expect(page == Array(all[100..<110]))
    let rest = try Self.run(SiftFetchRequest(entity: "Venue", sortDescriptors: sorts, offset: 995))
    #expect(rest == Array(all[995...]))
    let nullsLast = try Self.run(
      SiftFetchRequest(entity: "Venue", sortDescriptors: [SiftSortDescriptor("rating", nulls: .last)], limit: 1))
    #expect(nullsLast.first?[ratingColumn] != .null)
    let ci = try Self.run(
      SiftFetchRequest(
        entity: "Venue", sortDescriptors: [SiftSortDescriptor("location.city", comparison: .localizedStandard)],
        limit: 5))
    #expect(ci.count == 5)
  }

  @Test func caseInsensitiveSortFoldsUnicode() throws {
    let db = try SQLiteDatabase()
    let records: [SiftValue] = [
      ["id": 1, "name": "b"], ["id": 2, "name": "Á"], ["id": 3, "name": "a"], ["id": 4, "name": "B"],
    ]
    try db.load(records, entity: "Venue", schema: SQLFixtures.schema, dialect: SQLiteDialect())
    let st = try SQLFixtures.sqlite.compile(
      SiftFetchRequest(
        entity: "Venue", sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive)]))
    let ids = try db.execute(st).map { $0[0] }
    #expect(ids == [.integer(3), .integer(1), .integer(4), .integer(2)])  // a, b, B (pk tiebreak), á
  }

  @Test func distinctAndAggregates() throws {
    let distinct = try Self.run(SiftFetchRequest(entity: "Venue", resultType: .distinct("priceCategory")))
    #expect(distinct == [[.null], [.text("$")], [.text("$$")], [.text("$$$")]])
    let aggregates = try Self.run(
      SiftFetchRequest(
        entity: "Venue", predicate: try SiftPredicate(format: "specialCount < 0"),
        resultType: .aggregates(
          [SiftAggregate(.count), SiftAggregate(.sum, "tipCount"), SiftAggregate(.avg, "rating")], groupBy: [])))
    #expect(aggregates == [[.integer(0), .integer(0), .null]])
    let grouped = try Self.run(
      SiftFetchRequest(
        entity: "Venue",
        resultType: .aggregates(
          [SiftAggregate(.count), SiftAggregate(.max, "distance", name: "far")], groupBy: ["priceCategory"])))
    #expect(grouped.count == 4)
    let total = grouped.compactMap { $0[1].intValue }.reduce(0, +)
    #expect(total == 1000)
  }

  @Test func batchUpdateAndDelete() throws {
    let db = try SQLiteDatabase()
    try db.load(SQLFixtures.records, entity: "Venue", schema: SQLFixtures.schema, dialect: SQLiteDialect())
    let c = SQLFixtures.sqlite
    let noRating = try SiftPredicate(format: "rating == nil")
    let before = try db.matchingIndices(of: noRating, entity: "Venue", compiler: c)
    let update = BatchUpdateRequest(
      entity: "Venue", predicate: noRating,
      assignments: [("favorite", .value(true)), ("tipCount", try .expression("tipCount + %@", 1000))])
    _ = try db.execute(try c.compile(update))
    let after = try db.matchingIndices(
      of: try SiftPredicate(format: "favorite == YES AND tipCount >= 1000"), entity: "Venue", compiler: c)
    #expect(after == before)

    let delete = BatchDeleteRequest(entity: "Venue", predicate: try SiftPredicate(format: "ANY tags == 'wifi'"))
    let wifi = try db.matchingIndices(of: try SiftPredicate(format: "ANY tags == 'wifi'"), entity: "Venue", compiler: c)
    for st in try c.compile(delete) { _ = try db.execute(st) }
    let left = try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\""))
    #expect(left == [[.integer(Int64(1000 - wifi.count))]])
    let orphans = try db.execute(
      SQLStatement(
        sql: "SELECT COUNT(*) FROM \"venue__tags\" WHERE \"owner\" NOT IN (SELECT \"id\" FROM \"venue\")"))
    #expect(orphans == [[.integer(0)]])

    expectSiftError(id: "invalid-assignment", stage: .sql, at: 0) {
      try c.compile(BatchUpdateRequest(entity: "Venue", assignments: [("tags", .value("x"))]))
    }
    expectSiftError(id: "type-mismatch", stage: .sql, at: 0) {
      try c.compile(BatchUpdateRequest(entity: "Venue", assignments: [("name", .value(5))]))
    }
    expectSiftError(id: "negative-limit", stage: .sql) { try c.compile(SiftFetchRequest(entity: "Venue", limit: -1)) }
  }

  static let unsupported: [(format: String, id: String, text: String)] = [
    ("FUNCTION(name, 'reversedString') == 'X'", "unknown-function", "FUNCTION(name, 'reversedString')"),
    ("ANY location.city == 'Paris'", "quantifier-needs-collection", "location.city"),
    ("menu.item == 'taco'", "to-many-not-allowed", "menu.item"),
    ("name UTI-CONFORMS-TO phone", "unsupported-in-sql", "phone"),
    // A number is not an identifier: memory's not-a-string (fuzz: differential, uti-on-a-number).
    ("2 UTI-CONFORMS-TO 'Blue'", "not-a-string", "2"),
    ("name UTI-EQUALS 5", "not-a-string", "5"),
    ("name > 5", "incomparable-values", ">"),
    ("name MATCHES '(('", "invalid-regex", "'(('"),
    ("random() > 0.5", "unsupported-in-sql", "random()"),
    ("random:(tags) == 'x'", "unsupported-in-sql", "random:(tags)"),
    (
      "distanceToLocation:fromLocation:({0, 0}, {0, 1}) > 1", "unsupported-in-sql",
      "distanceToLocation:fromLocation:({0, 0}, {0, 1})"
    ),
    ("objectFrom:withIndex:(tags, -1) == 'x'", "unsupported-in-sql", "-1"),
    ("name == $NAME", "unbound-variable", "$NAME"),
    ("ANY menu.location.city == 'x'", "unknown-key-path", "menu.location.city"),
    ("location > 3", "object-comparison", ">"),
    ("specialCount BEGINSWITH '1'", "not-a-string", "specialCount"),
    ("tags[-1] == 'x'", "unsupported-in-sql", "-1"),
    // branches of two kinds: SQL would order/search/add them where memory reports a type error
    ("TERNARY(favorite == YES, name, tipCount) < 'z'", "type-mismatch", "TERNARY(favorite == YES, name, tipCount)"),
    ("TERNARY(favorite == YES, 3, name) > 3", "type-mismatch", "TERNARY(favorite == YES, 3, name)"),
  ]

  /// What SQL cannot express faithfully is an error naming the construct, with its range.
  @Test(arguments: 0..<unsupported.count)
  func unsupportedConstructsAreErrors(_ i: Int) throws {
    let c = Self.unsupported[i]
    let p = try SiftPredicate(format: c.format)
    for compiler in [SQLFixtures.sqlite, SQLFixtures.postgres] {
      do {
        let st = try compiler.compileWhere(p, entity: "Venue")
        Issue.record("\(c.format) compiled: \(st)")
      } catch {
        #expect(error.stage == .sql)
        #expect(error.diagnostic.id == c.id, "\(c.format): \(error.diagnostic.message)")
        let r = error.diagnostic.range
        let utf8 = Array(c.format.utf8)
        let text = r.end <= utf8.count ? String(decoding: utf8[r.start..<r.end], as: UTF8.self) : ""
        #expect(text == c.text, "\(c.format): range \(r)")
      }
    }
  }
}
