import Foundation
import SiftPostgres
import SiftSQL
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// Sift's SQL functions on existing databases: `sift sql` names them; `sift batch --postgres …
/// --pg-schema …` finds them in schema `sift` whatever the user's search_path.
@Suite("Existing PostgreSQL databases without Sift's functions")
struct ExistingDatabaseSetupTests {
  /// `sift sql` says which of Sift's functions the statement calls, and how to get them.
  @Test(.enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
  func sqlNamesTheFunctionsItCalls() throws {
    let schema = ExistingFixture.fixtures.appendingPathComponent("sql/venues.schema.json").path
    func sql(_ format: String, _ dialect: String) throws -> String {
      let r = try SiftProcess.run(
        ["sql", format, "--schema", schema, "--entity", "Venue", "--dialect", dialect], stdin: "")
      #expect(r.status == 0, "\(r.stderr)")
      return r.stdout
    }
    #expect(
      try sql("name ==[c] 'x'", "postgres").hasSuffix(
        "-- calls Sift's SQL functions sift_fold (create them once per database, in schema sift: sift setup-sql --dialect postgres)\n"
      ))
    #expect(
      try sql("name CONTAINS[c] 'x'", "sqlite").contains(
        "-- calls Sift's SQL functions sift_search (register them on the connection: sift setup-sql --dialect sqlite)"))
    #expect(try !sql("name == 'x'", "postgres").contains("Sift's SQL functions"))
    let json = try SiftProcess.run(
      ["sql", "name ==[cd] 'x'", "--schema", schema, "--entity", "Venue", "--dialect", "postgres", "--json"], stdin: "")
    #expect(json.stdout.contains(#""functions": ["sift_fold"]"#), "\(json.stdout)")
    let plain = try SiftProcess.run(
      ["sql", "name == 'x'", "--schema", schema, "--entity", "Venue", "--json"], stdin: "")
    #expect(plain.status == 0 && !plain.stdout.contains("functions"), "\(plain.stdout)")
  }

  /// The REPL on a database: `.sql` names the functions; `.engine` says where queries run
  /// (it used to answer "no SQLite database" on an open SQLite file).
  @Test func replOnADatabaseNamesFunctionsAndEngine() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let session = REPLSession()
    #expect(session.execute(".open \(path)").status == .ok)
    #expect(session.execute(".use note").status == .ok)
    let sql = session.execute(".sql title ==[c] 'plan'")
    #expect(
      sql.status == .ok
        && sql.text.contains("functions: sift_fold (Sift's SQL functions, registered on this connection)"),
      "\(sql.text)")
    #expect(!session.execute(".sql title == 'plan'").text.contains("functions:"))
    for arg in ["", " sqlite"] {
      let engine = session.execute(".engine\(arg)")
      #expect(engine.status == .ok && engine.text.hasPrefix("engine: \(path) (read-only;"), "\(arg): \(engine.text)")
    }
    // Another engine is not silently ignored: the command says where the table's queries run.
    let memory = session.execute(".engine memory")
    #expect(memory.status == .refused && memory.text.contains("run in that database"), "\(memory.text)")
    #expect(session.execute("title ==[c] 'QUARTERLY PLAN'").text.contains("(1 row)"))
  }

  /// The functions live in schema `sift`: a user's schema alone on the path runs `[cd]` once
  /// they are set up (a database without them is refused before anything runs:
  /// RequiredFunctionsTests.postgresWithoutSetupFailsUpFront).
  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func batchFindsTheFunctionsInSchemaSift() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let owner = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_cli_nosetup"))
    defer { owner.close() }
    let schema = try #require(owner.schemaName)
    try owner.run(
      "CREATE TABLE item (id integer PRIMARY KEY, name text); INSERT INTO item VALUES (1, 'Écrou'), (2, 'vis')")
    try owner.prepareSiftFunctions()
    let db = try ExistingDatabase.open(postgres: conninfo, schema: schema)
    defer { db.close() }
    // Only the user's schema on the path.
    try #require(db.database as? PostgresDatabase).run("SET search_path TO \(PostgresDatabase.quoteIdentifier(schema))")
    let batch = try BatchDatabase(database: db, entity: "item")

    var plain: [String: SiftValue] = [:]
    try batch.process(try SiftPredicate(format: "name == 'vis'"), into: &plain)
    #expect(plain["rows"] == .array([.int(2)]))
    var folded: [String: SiftValue] = [:]
    try batch.process(try SiftPredicate(format: "name ==[cd] 'ecrou'"), into: &folded)
    #expect(folded["rows"] == .array([.int(1)]))
  }
}
