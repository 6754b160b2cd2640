import Foundation
import SiftPostgres
import SiftSQL
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `sift load` (the one command that writes, into a database it creates), `sift setup-sql`,
/// and the existing-database commands on PostgreSQL (Tests/Fixtures/existing/shop.postgres.sql).
@Suite(
  "sift load, setup-sql, and PostgreSQL schemas",
  .enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
struct ExistingDatabaseCommandsTests {
  static let venues = ExistingFixture.fixtures.appendingPathComponent("conformance/venues.json").path
  static let venueSchema = ExistingFixture.fixtures.appendingPathComponent("sql/venues.schema.json").path

  @Test func loadCreatesANewFileAndRefusesAnExistingOne() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("venues.sqlite").path
    let load = ["load", "--data", Self.venues, "--schema", Self.venueSchema, "--entity", "Venue", "--into", target]
    let first = try SiftProcess.run(load, stdin: "")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("loaded 1000 records of 'Venue' into \(target)"), "\(first.stdout)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["venues.sqlite"], "no temporary file left")
    // The new file is a database whose tables can be read back.
    let db = try ExistingDatabase.open(sqlite: target)
    #expect(db.schema.entity("venue") != nil, "\(db.schema.entityNames)")

    let before = ExistingFixture.snapshot(target)
    let again = try SiftProcess.run(load, stdin: "")
    #expect(again.status == 1 && again.stderr.contains("\(target) exists"), "\(again.stderr)")
    #expect(ExistingFixture.snapshot(target) == before, "an existing file was touched")

    let replaced = try SiftProcess.run(load + ["--replace"], stdin: "")
    #expect(replaced.status == 0, "\(replaced.stderr)")
  }

  @Test func failedLoadLeavesNothing() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = dir.appendingPathComponent("bad.json").path
    try #"[{"id": 1, "name": "ok"}, {"id": 1, "name": "duplicate key"}]"#.write(
      toFile: data, atomically: true, encoding: .utf8)
    let target = dir.appendingPathComponent("out.sqlite").path
    let r = try SiftProcess.run(
      ["load", "--data", data, "--schema", Self.venueSchema, "--entity", "Venue", "--into", target], stdin: "")
    #expect(r.status == 1 && r.stderr.contains("out.sqlite"), "\(r.stdout) \(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.json"])
    let noEntity = try SiftProcess.run(
      ["load", "--data", data, "--schema", Self.venueSchema, "--entity", "Nope", "--into", target], stdin: "")
    #expect(noEntity.status == 1 && noEntity.stderr.contains("'Nope'"), "\(noEntity.stderr)")
    #expect(try SiftProcess.run(["load", "--data", data], stdin: "").status == 2)
  }

  @Test func setupSQL() throws {
    let pg = try SiftProcess.run(["setup-sql", "--dialect", "postgres"], stdin: "")
    #expect(pg.status == 0)
    #expect(pg.stdout.contains("CREATE SCHEMA IF NOT EXISTS sift;"), "\(pg.stdout.prefix(300))")
    #expect(pg.stdout.contains("CREATE OR REPLACE FUNCTION sift.sift_fold"), "\(pg.stdout.prefix(300))")
    #expect(pg.stdout.contains("CREATE OR REPLACE FUNCTION sift.sift_fdiv"))
    // A SELECT-only role may use them: USAGE and EXECUTE go to PUBLIC, or to the roles named.
    #expect(pg.stdout.contains("GRANT USAGE ON SCHEMA sift TO PUBLIC;"), "\(pg.stdout.suffix(600))")
    let named = try SiftProcess.run(["setup-sql", "--dialect", "postgres", "--grant", "app,report"], stdin: "")
    #expect(named.status == 0 && named.stdout.contains("GRANT USAGE ON SCHEMA sift TO \"app\", \"report\";"))
    #expect(named.stdout.contains("REVOKE USAGE ON SCHEMA sift FROM PUBLIC;"), "\(named.stdout.suffix(600))")
    #expect(try SiftProcess.run(["setup-sql", "--dialect", "sqlite", "--grant", "app"], stdin: "").status == 2)
    let sqlite = try SiftProcess.run(["setup-sql", "--dialect", "sqlite"], stdin: "")
    #expect(sqlite.status == 0 && sqlite.stdout.contains("SQLiteFunctions.register(on: handle)"), "\(sqlite.stdout)")
    #expect(try SiftProcess.run(["setup-sql", "--dialect", "oracle"], stdin: "").status == 2)
    #expect(try SiftProcess.run(["setup-sql"], stdin: "").status == 2)

    // The migration runs, twice (idempotent), and then `[c]` works on the server from a schema
    // whose search_path does not name sift.
    guard let conninfo = REPLPostgres.conninfo else { return }
    let db = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_cli_setup"))
    defer { db.close() }
    try db.executeScript(pg.stdout)
    try db.executeScript(pg.stdout)
    let run = try SiftProcess.run(["setup-sql", "--dialect", "postgres", "--postgres", conninfo], stdin: "")
    #expect(run.status == 0 && run.stdout.contains("schema sift already holds"), "\(run.stdout) \(run.stderr)")
    let bad = try SiftProcess.run(
      ["setup-sql", "--dialect", "postgres", "--postgres", "host=127.0.0.1 port=1"], stdin: "")
    #expect(bad.status == 1 && bad.stderr.hasPrefix("sift setup-sql: "), "\(bad.stderr)")
    try db.run("SET search_path TO \(PostgresDatabase.quoteIdentifier(try #require(db.schemaName)))")
    let rows = try db.execute(SQLStatement(sql: "SELECT sift.sift_fold($1, 1)", bindings: [.text("ÉCOLE")]))
    #expect(rows == [[.text("école")]])
  }

  /// The shop fixture in a schema of its own; the CLI then reads it without writing.
  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func postgresSchemaIsQueriedInPlace() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let owner = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_cli_shop"))
    defer { owner.close() }
    let script = try String(
      contentsOf: ExistingFixture.fixtures.appendingPathComponent("existing/shop.postgres.sql"), encoding: .utf8)
    try owner.executeScript(script)
    let schema = try #require(owner.schemaName)
    func relations() throws -> [[SQLValue]] {
      try owner.execute(
        SQLStatement(
          sql:
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY 1",
          bindings: [.text(schema)]))
    }
    let before = try relations()

    let batch = try SiftProcess.run(
      ["batch", "--postgres", conninfo, "--pg-schema", schema, "--entity", "product"],
      stdin: [
        #"{"id": 1, "format": "price > 10 OR ANY category.name == 'garden'"}"#,
        #"{"id": 2, "format": "stock < %@", "args": [100]}"#,
        #"{"id": 3, "format": "nope > 1"}"#,
      ].joined(separator: "\n"))
    #expect(batch.status == 0, "\(batch.stderr)")
    let lines = batch.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines.first?.contains(#""rows": ["HAM-1", "SEED-7"]"#) == true, "\(lines)")
    #expect(lines.dropFirst().first?.contains(#""rows": ["HAM-1"]"#) == true, "\(lines)")
    #expect(lines.last?.contains(#""stage": "sql""#) == true, "\(lines)")

    let sql = try SiftProcess.run(
      ["sql", "customer.email BEGINSWITH 'a'", "--postgres", conninfo, "--pg-schema", schema, "--entity", "order"],
      stdin: "")
    #expect(
      sql.status == 0 && sql.stdout.contains(#"FROM "order" t0"#) && sql.stdout.contains("-- $1 = 'a%'"),
      "\(sql.stdout) \(sql.stderr)")

    let repl = try SiftProcess.run(
      [
        "--postgres", conninfo, "--pg-schema", schema, "--entity", "product", "-c", ".tables", "-c", ".schema", "-c",
        "stock > 100",
      ], stdin: "")
    #expect(repl.status == 0, "\(repl.stderr)")
    #expect(
      repl.stdout.contains("PostgreSQL schema \(schema) (read-only)") && repl.stdout.contains("product_category"),
      "\(repl.stdout)")
    #expect(
      repl.stdout.contains("date (native)") && repl.stdout.contains("timestamp without time zone"), "\(repl.stdout)")
    #expect(repl.stdout.contains("Tomato seeds") && repl.stdout.contains("(1 row)"), "\(repl.stdout)")

    let session = REPLSession()
    #expect(session.execute(".connect \(conninfo) --pg-schema \(schema)").status == .ok)
    #expect(session.execute(".use customer").status == .ok)
    #expect(session.execute(".count is_vip == YES").text == "1\n")

    #expect(try relations() == before, "the schema was changed")
    let missing = try SiftProcess.run(
      ["--postgres", conninfo, "--pg-schema", "sift_no_such_schema", "-c", ".tables"], stdin: "")
    #expect(missing.status == 1 && missing.stderr.contains("sift_no_such_schema"), "\(missing.stderr)")
  }
}
