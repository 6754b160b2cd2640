import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

/// Sift's PostgreSQL functions live in their own schema `sift` (Grammar/notes/postgres.md):
/// compiled SQL calls them qualified, so a user's `search_path` need not name it and a user's
/// `DROP SCHEMA … CASCADE` does not take them away.
@Suite("PostgreSQL functions in schema sift")
struct PostgresFunctionSchemaTests {
  @Test func compiledSQLCallsThemQualified() throws {
    let schema = try SQLSchema(json: RequiredFunctionsTests.notes)
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    let folded = try compiler.compile(
      SiftFetchRequest(
        entity: "note", predicate: try SiftPredicate(format: "title ==[c] 'x' AND rating / 2 > 1 AND rating == words"),
        sortDescriptors: [SiftSortDescriptor("title", comparison: .localizedStandard)]))
    #expect(folded.sql.contains("sift.sift_fold("), "\(folded.sql)")
    #expect(folded.sql.contains("sift.sift_fdiv("), "\(folded.sql)")
    #expect(folded.sql.contains("sift.sift_exact("), "\(folded.sql)")
    #expect(folded.sql.contains("sift.sift_localized_events("), "\(folded.sql)")
    let setup = PostgreSQLDialect.setupSQL
    #expect(setup.first == "CREATE SCHEMA IF NOT EXISTS sift")
    #expect(setup.allSatisfy { !$0.contains("FUNCTION sift_") && !$0.contains("COLLATION IF NOT EXISTS sift_") })
    #expect(setup.last?.contains(PostgreSQLDialect.setupVersion) == true)
    let quoted = PostgreSQLDialect.setupSQL(schema: "My Fns")
    #expect(quoted[0] == "CREATE SCHEMA IF NOT EXISTS \"My Fns\"")
    #expect(PostgreSQLDialect(functionSchema: "My Fns").foldFunction == "\"My Fns\".sift_fold")
  }

  /// A user schema alone on the path runs `[cd]`, division and a localized sort; after the
  /// user drops that schema with `CASCADE`, the functions are still there for the next one.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func userSchemasComeAndGoFunctionsStay() throws {
    let info = try #require(PostgresTestServer.conninfo)
    for round in 0..<2 {
      let db = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_user"))
      let name = try #require(db.schemaName)
      if round == 0 { try db.prepareSiftFunctions() }  // the second round runs no setup at all
      try db.run(
        "SET search_path TO \(PostgresDatabase.quoteIdentifier(name));"
          + "CREATE TABLE note (id bigint PRIMARY KEY, title text, rating double precision, words bigint);"
          + "INSERT INTO note VALUES (1, 'file10', 4.5, 3), (2, 'FÎLE9', 1.0, 1), (3, 'file2', 2.0, 2)")
      let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: name).schema)
      let request = SiftFetchRequest(
        entity: "note", predicate: try SiftPredicate(format: "title BEGINSWITH[cd] 'file' AND NOT (rating / 0 < 0)"),
        sortDescriptors: [SiftSortDescriptor("title", comparison: .localizedStandard)])
      let rows = try db.execute(try compiler.compile(request))
      #expect(rows.map { $0.first } == [.integer(3), .integer(2), .integer(1)], "round \(round): \(rows)")
      // The user's own schema goes, with everything in it.
      try db.run("DROP SCHEMA \(PostgresDatabase.quoteIdentifier(name)) CASCADE")
      db.close()
      let left = try PostgresDatabase(conninfo: info)
      defer { left.close() }
      let found = try left.execute(
        SQLStatement(
          sql: "SELECT count(*) FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
            + " WHERE n.nspname = 'sift' AND p.proname IN ('sift_fold', 'sift_fdiv', 'sift_exact')"))
      #expect(found == [[.integer(3)]], "round \(round)")
    }
  }
}
