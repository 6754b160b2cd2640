import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import Testing

/// The pipeline article's "In 30 seconds" fetch example (SiftSyntax.docc/ThePipeline.md), as
/// written there (paths from the test fixtures).
@Suite struct ReadmeFetchTests {
  @Test func sortedLimitedFetchAndSumInMemoryAndSQL() throws {
    let venues = try JSONRecords.load(contentsOf: DifferentialSchemas.fixture("venues.json"))
    let request = SiftFetchRequest(
      entity: "Venue", predicate: try SiftPredicate(format: "ANY tags == %@", "wifi"),
      sortDescriptors: [SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("name")], limit: 3)
    let top = try request.matchingIndices(in: venues)
    #expect(top == [890, 681, 370])
    let schema = try SQLSchema(
      json: String(contentsOf: SQLFixtures.root.appendingPathComponent("sql/venues.schema.json"), encoding: .utf8))
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let sql = try compiler.compile(request).sql
    #expect(
      sql.contains(#"ORDER BY t0."rating" DESC NULLS LAST, t0."name" ASC NULLS FIRST, t0."id" ASC LIMIT ?"#), "\(sql)")
    let total = try SiftExpression(format: "sum:(specialCount)")
    #expect(try total.aggregateValue(over: venues) == 4424)
    #expect(
      try compiler.compile(total, over: SiftFetchRequest(entity: "Venue")).sql
        == #"SELECT COALESCE(sift_sum(t0."specialCount"), 0) AS "sum(specialCount)" FROM "venue" t0"#)
    // The same request on SQLite selects the same records in the same order.
    let rows = try SQLFixtures.database.with { db in
      try db.execute(
        try compiler.compile(
          SiftFetchRequest(
            entity: "Venue", predicate: request.predicate, sortDescriptors: request.sortDescriptors, limit: 3,
            resultType: .indices)))
    }
    #expect(rows.compactMap { $0.first?.intValue.map { Int($0) } } == top)
  }
}
