import Foundation
import SiftPostgres
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLivePostgres

/// The push source behind the seam (issue #33): a commit comes out as `.rows` with the keys it
/// changed, a TRUNCATE as `.unknown`; a missing slot, or a watched table the publication does not
/// cover (a view), is `live-mode-unavailable` at start, never a source that silently misses commits.
@Suite(
  "PostgreSQL live: push source",
  .enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
struct PostgresLivePushTests {
  @Test func commitsComeOutAsKeysPerTable() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    let conninfo = try #require(LivePostgresServer.conninfo)
    let schema = try #require(db.schemaName)
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text); CREATE VIEW near AS SELECT * FROM venue")
    let slot = "sift_livepush_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let setup = PostgresLiveSetup(name: slot, tables: [(schema, "venue")])
    _ = try setup.apply(on: db)
    defer { _ = try? setup.drop(on: db) }
    let venue = PostgresLiveTableName(schema: schema, name: "venue")

    let onView = PostgresLivePush(slot: slot, tables: [venue, PostgresLiveTableName(schema: schema, name: "near")])
    expectSiftError(id: "live-mode-unavailable") { try onView.start(database: db, conninfo: conninfo) }
    let missing = PostgresLivePush(slot: slot + "_x", tables: [venue])
    expectSiftError(id: "live-mode-unavailable") { try missing.start(database: db, conninfo: conninfo) }

    let push = PostgresLivePush(slot: slot, tables: [venue])
    try push.start(database: db, conninfo: conninfo)
    #expect(try push.changes(database: db, timeout: 0.1) == [])
    try db.run("INSERT INTO venue VALUES (1, 'a'), (2, 'b')")
    #expect(try push.changes(database: db, timeout: 10) == [.rows(table: venue, keys: ["1", "2"])])
    try db.run("TRUNCATE venue")
    #expect(try push.changes(database: db, timeout: 10) == [.unknown])
    push.stop()
  }
}
