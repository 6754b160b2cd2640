import Foundation
import SiftPostgres
import SiftSQL
import Testing

/// `sift setup-sql --live` (issue #33, push mode): the printed setup and drop, the usage errors,
/// and on the server the publication and slot it makes (uniquely named) and `--drop` removing
/// every trace; a view is refused with `live-push-setup`.
@Suite("sift setup-sql --live")
struct SetupSQLLiveTests {
  @Test func printsTheSetupAndTheDrop() throws {
    let setup = try SiftProcess.run(
      ["setup-sql", "--live", "--pg-schema", "shop", "--entity", "product,order"], stdin: "")
    #expect(setup.status == 0, "\(setup.stderr)")
    #expect(setup.stdout.contains("CREATE PUBLICATION sift_live FOR TABLE \"shop\".\"product\", \"shop\".\"order\";"))
    #expect(setup.stdout.contains("SELECT pg_create_logical_replication_slot('sift_live', 'pgoutput')"))
    #expect(setup.stdout.contains("wal_level = logical"))
    let drop = try SiftProcess.run(["setup-sql", "--live", "--drop", "--slot", "app_live"], stdin: "")
    #expect(drop.status == 0 && drop.stdout.contains("DROP PUBLICATION IF EXISTS app_live;"), "\(drop.stdout)")
    #expect(
      drop.stdout.contains("pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'app_live'")
    )
  }

  @Test(arguments: [
    ["setup-sql", "--live"],  // no table
    ["setup-sql", "--live", "--entity", "t", "--slot", "Bad-Name"],
    ["setup-sql", "--live", "--entity", "t", "--dialect", "sqlite"],
    ["setup-sql", "--live", "--entity", "t", "--grant", "app"],
    ["setup-sql", "--live", "--entity", "t", "--mysql", "mysql://sift@127.0.0.1/sift"],
    ["setup-sql", "--live", "--entity", ""],
    ["setup-sql", "--dialect", "postgres", "--drop"],
    ["setup-sql", "--dialect", "postgres", "--entity", "t"],
  ])
  func usageErrors(args: [String]) throws {
    let r = try SiftProcess.run(args, stdin: "")
    #expect(r.status == 2, "\(args): \(r.stdout) \(r.stderr)")
  }

  @Test(.enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
  func runsAndDropsOnTheServer() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let db = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_cli_live"))
    defer { db.close() }
    let schema = try #require(db.schemaName)
    try db.run("CREATE TABLE item (id bigint PRIMARY KEY, title text); CREATE VIEW item_view AS SELECT * FROM item")
    let slot = "sift_cli_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let base = ["setup-sql", "--live", "--slot", slot, "--postgres", conninfo]
    defer { _ = try? SiftProcess.run(base + ["--drop"], stdin: "") }
    let view = try SiftProcess.run(base + ["--pg-schema", schema, "--entity", "item_view"], stdin: "")
    #expect(view.status == 1 && view.stderr.contains("is a view"), "\(view.stderr)")
    let made = try SiftProcess.run(base + ["--pg-schema", schema, "--entity", "item"], stdin: "")
    #expect(made.status == 0 && made.stdout.contains("created publication \(slot)"), "\(made.stdout) \(made.stderr)")
    let dropped = try SiftProcess.run(base + ["--drop"], stdin: "")
    #expect(dropped.stdout == "dropped slot \(slot) and publication \(slot)\n", "\(dropped.stdout) \(dropped.stderr)")
    let left = try db.execute(
      .init(
        sql: "SELECT (SELECT count(*) FROM pg_replication_slots WHERE slot_name = $1)"
          + " + (SELECT count(*) FROM pg_publication WHERE pubname = $1)", bindings: [.text(slot)]))
    #expect(left == [[.integer(0)]])
  }
}
