import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Distinct fetches and grouped aggregates on PostgreSQL text, which sorts by code points
/// (`COLLATE "C"`): regression for `SELECT DISTINCT x … ORDER BY x COLLATE "C"`, which
/// PostgreSQL refused ("for SELECT DISTINCT, ORDER BY expressions must appear in select list").
@Suite("PostgreSQL distinct and grouped text")
struct PostgresDistinctTests {
  static let requests: [SiftFetchRequest] = [
    SiftFetchRequest(entity: "Venue", resultType: .distinct("priceCategory")),
    SiftFetchRequest(entity: "Venue", resultType: .distinct("name")),
    SiftFetchRequest(entity: "Venue", resultType: .distinct("location.city")),
    SiftFetchRequest(
      entity: "Venue", predicate: try? SiftPredicate(format: "distance < 5"), resultType: .distinct("name")),
    SiftFetchRequest(entity: "Venue", resultType: .distinct("rating")),
    SiftFetchRequest(entity: "Venue", resultType: .aggregates([SiftAggregate(.count)], groupBy: ["priceCategory"])),
  ]

  @Test func selectListHoldsTheOrderedExpression() throws {
    let st = try SQLFixtures.postgres.compile(SiftFetchRequest(entity: "Venue", resultType: .distinct("name")))
    #expect(
      st.sql
        == "SELECT DISTINCT t0.\"name\" COLLATE \"C\" FROM \"venue\" t0 ORDER BY t0.\"name\" COLLATE \"C\" ASC NULLS FIRST"
    )
  }

  /// Sift's own tables: PostgreSQL answers as SQLite does, row for row.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func siftTablesAgreeWithSQLite() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.load(SQLFixtures.records, entity: "Venue", schema: SQLFixtures.schema, dialect: PostgreSQLDialect())
    for request in Self.requests {
      let pg = try db.execute(try SQLFixtures.postgres.compile(request))
      let lite = try SQLFixtures.database.with { try $0.execute(try SQLFixtures.sqlite.compile(request)) }
      #expect(!pg.isEmpty)
      #expect(pg == lite, "\(request.resultType)")
    }
  }

  /// A schema Sift did not make (read-only, introspected): distinct text in code-point order.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func existingSchemaDistinctText() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let name = try #require(db.schemaName)
    try db.run(
      "CREATE TABLE word (id integer PRIMARY KEY, spelling text); INSERT INTO word VALUES (1, 'b'), (2, 'B'), (3, 'a'), (4, 'b'), (5, 'é'), (6, NULL), (7, 'Z')"
    )
    let c = SQLCompiler(dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: name).schema)
    let rows = try db.execute(try c.compile(SiftFetchRequest(entity: "word", resultType: .distinct("spelling"))))
    #expect(rows == [[.null], [.text("B")], [.text("Z")], [.text("a")], [.text("b")], [.text("é")]])
  }
}
