import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftLivePostgres

/// The read-only mode needs a role with `SELECT` on the watched table and nothing else, and
/// creates nothing (Grammar/notes/live.md, "PostgreSQL").
@Suite("PostgreSQL live: a SELECT-only role")
struct PostgresLiveRoleTests {
  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func aRoleWithOnlySelectCanWatchAndNothingIsCreated() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    let schema = db.schemaName ?? ""
    let role = "sift_live_ro_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let q = PostgresDatabase.quoteIdentifier
    try db.run(
      "CREATE ROLE \(q(role)) LOGIN PASSWORD 'sift-live-ro';"
        + "CREATE TABLE venue (id int8 PRIMARY KEY, name text, rating int8);"
        + "INSERT INTO venue VALUES (1, 'Alpha', 3), (2, 'Beta', 5);"
        + "GRANT USAGE ON SCHEMA \(q(schema)) TO \(q(role)); GRANT SELECT ON venue TO \(q(role))")
    defer {
      try? db.run(
        "REVOKE ALL ON venue FROM \(q(role)); REVOKE ALL ON SCHEMA \(q(schema)) FROM \(q(role)); DROP ROLE \(q(role))")
    }
    let base = (LivePostgresServer.conninfo ?? "").split(separator: " ")
      .filter { !$0.hasPrefix("user=") && !$0.hasPrefix("password=") }.map(String.init)
    let conninfo = (base + ["user=\(role)", "password=sift-live-ro"]).joined(separator: " ")
    let hub = try PostgresLiveHub(conninfo: conninfo, schema: schema, source: PostgresLivePolling(interval: 0.01))
    defer { hub.close() }
    let w = try hub.watch(
      SiftFetchRequest(
        entity: "venue", predicate: try SiftPredicate(format: "rating > %@", 2),
        sortDescriptors: [SiftSortDescriptor("name")]))
    try db.run("UPDATE venue SET rating = 1 WHERE id = 1")
    var events: [PostgresLiveEvent] = []
    let deadline = Date().addingTimeInterval(10)
    while events.isEmpty, Date() < deadline { events = hub.refresh(timeout: 0.05) }
    guard case .changes(_, let cs)? = events.first else {
      Issue.record("no change set: \(events)")
      return
    }
    #expect(cs.deleted.count == 1 && w.results.ids == [2])
    // Nothing was created: the catalog holds as many relations as before (this schema's own).
    let inSchema =
      "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
      + " WHERE n.nspname = $1"
    #expect(try db.execute(SQLStatement(sql: inSchema, bindings: [.text(schema)])) == [[.integer(2)]])
  }
}
