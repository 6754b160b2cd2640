import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// Golden SQL for both dialects: `Tests/Fixtures/sql/golden/<dialect>.sql`. Re-record with
/// `RECORD_GOLDEN=1 swift test --filter SQLGoldenTests`, then review the diff.
@Suite("Golden SQL")
struct SQLGoldenTests {
  static let predicates: [(String, [SiftValue])] = [
    ("name == %@", ["Red bar"]),
    ("priceCategory != '$'", []),
    ("NOT (rating > 4.5)", []),
    ("rating == nil OR rating <= 1", []),
    ("specialCount IN {1, 3, nil}", []),
    ("specialCount IN {}", []),
    ("id IN %@", [[1, 2, 3]]),
    ("distance BETWEEN {1, 2}", []),
    ("favorite == YES", []),
    ("favorite == 1 AND specialCount == TRUE", []),
    ("name BEGINSWITH 'Blue'", []),
    ("name BEGINSWITH[cd] 'blue'", []),
    ("name ENDSWITH 'Café'", []),
    ("name CONTAINS %@", ["50%_off\\"]),
    ("name LIKE[c] '*bar?'", []),
    ("name MATCHES '(Blue|Red) .*'", []),
    ("name MATCHES[cd] 'cafe.*'", []),
    ("name ==[cd] 'zurich'", []),
    ("name < 'C'", []),
    ("location.city ==[c] 'berlin'", []),
    ("location == nil", []),
    ("ANY tags == 'wifi'", []),
    ("ALL scores > 50", []),
    ("NONE menu.price > 30", []),
    ("tags.@count > 2", []),
    ("menu.@avg.price > 30", []),
    ("scores.@sum > 300", []),
    ("SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0", []),
    ("tags[FIRST] == 'vegan'", []),
    ("'wifi' IN tags", []),
    ("tipCount / 10 > specialCount", []),
    ("specialCount ** 2 == 16", []),
    ("TERNARY(favorite == YES, specialCount, 0) > 7", []),
    ("NOT (name == 'x' OR ANY tags == 'y')", []),
  ]

  static let dialects: [any SQLDialect] = [SQLiteDialect(), PostgreSQLDialect()]

  static func render(_ dialect: any SQLDialect) throws -> String {
    let compiler = SQLCompiler(dialect: dialect, schema: SQLFixtures.schema)
    var out = "-- Golden SQL for \(dialect.name). Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests\n\n"
    for (format, args) in predicates {
      let p = try SiftPredicate(format: format, arguments: args)
      let st = try compiler.compileWhere(p, entity: "Venue")
      out += "-- " + format + (args.isEmpty ? "" : "  args: " + args.map(SiftJSON.serialize).joined(separator: ", ")) + "\n"
      out += st.sql + "\n"
      out += "-- bindings: [" + st.bindings.map(\.description).joined(separator: ", ") + "]\n\n"
    }
    let request = SiftFetchRequest(
      entity: "Venue", predicate: try SiftPredicate(format: "distance < 5"),
      sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive), SiftSortDescriptor("rating", ascending: false)],
      limit: 10, offset: 20)
    out += "-- fetch: distance < 5, sort name[c], rating desc, limit 10 offset 20\n" + (try compiler.compile(request)).description + "\n\n"
    let update = BatchUpdateRequest(
      entity: "Venue", predicate: try SiftPredicate(format: "rating == nil"),
      assignments: [("favorite", .value(false)), ("tipCount", try .expression("tipCount + %@", 1))])
    out += "-- batch update\n" + (try compiler.compile(update)).description + "\n\n"
    out += "-- batch delete\n" + (try compiler.compile(BatchDeleteRequest(entity: "Venue", predicate: try SiftPredicate(format: "tipCount < 10"))))
      .map(\.description).joined(separator: "\n") + "\n\n"
    out += "-- DDL\n" + SQLDDL(schema: SQLFixtures.schema, dialect: dialect).createStatements().joined(separator: ";\n") + ";\n"
    return out
  }

  @Test(arguments: [0, 1])
  func matchesGoldenFile(_ which: Int) throws {
    let dialect = Self.dialects[which]
    let text = try Self.render(dialect)
    let url = SQLFixtures.root.appendingPathComponent("sql/golden/\(dialect.name).sql")
    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    let a = text.split(separator: "\n", omittingEmptySubsequences: false)
    let b = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let firstDiff = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(text == golden, "line \((firstDiff?.offset ?? min(a.count, b.count)) + 1): got \(firstDiff.map { String($0.element.0) } ?? "<end>")")
  }
}
