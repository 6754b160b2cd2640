import Foundation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftLivePostgres

/// Push mode's faults (issue #33): the replication stream is killed (its walsender terminated)
/// while commits happen; the hub reports the lost connection, starts the stream again from the
/// slot's last confirmed commit and resynchronises the watcher with one change set — the commits
/// made meanwhile are in it, never a silent gap.
@Suite("PostgreSQL live: push faults")
struct PostgresLivePushFaultTests {
  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func aKilledStreamIsRestartedAndTheWatcherResynchronised() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    let schema = try #require(db.schemaName)
    try db.run("CREATE TABLE venue (id int8 PRIMARY KEY, name text, rating int8)")
    try db.run("INSERT INTO venue VALUES (1, 'Alpha', 3), (2, 'Beta', 5), (3, 'Gamma', 1)")
    let slot = "sift_livefault_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let setup = PostgresLiveSetup(name: slot, tables: [(schema, "venue")])
    _ = try setup.apply(on: db)
    defer { _ = try? setup.drop(on: db) }
    let hub = try PostgresLiveHub(
      conninfo: LivePostgresServer.conninfo ?? "", schema: schema,
      source: PostgresLivePush(slot: slot, tables: [PostgresLiveTableName(schema: schema, name: "venue")]))
    defer { hub.close() }
    let w = try hub.watch(
      SiftFetchRequest(
        entity: "venue", predicate: try SiftPredicate(format: "rating >= 3"),
        sortDescriptors: [SiftSortDescriptor("name")]))
    #expect(w.results.ids == [1, 2])
    try db.run("UPDATE venue SET rating = 6 WHERE id = 2")
    var events = hub.refresh(timeout: 10)
    #expect(events.count == 1, "\(events)")

    let walsender = try #require(
      try db.execute(
        SQLStatement(
          sql: "SELECT active_pid::int8 FROM pg_replication_slots WHERE slot_name = $1", bindings: [.text(slot)])
      ).first?.first)
    try db.run("SELECT pg_terminate_backend(\(walsender))")
    try db.run("UPDATE venue SET rating = 4 WHERE id = 3; DELETE FROM venue WHERE id = 1")
    var changeSets: [SiftChangeSet<SiftValue>] = []
    var lost = 0
    let deadline = Date().addingTimeInterval(20)
    while w.results.ids != [2, 3] && Date() < deadline {
      events = hub.refresh(timeout: 0.2)
      for e in events {
        switch e {
        case .changes(_, let cs): changeSets.append(cs)
        case .error(nil, let error): lost += error.id == "live-connection-lost" ? 1 : 0
        default: break
        }
      }
    }
    #expect(w.results.ids == [2, 3])
    #expect(lost == 1)
    #expect(hub.reconnections == 1)
    #expect(changeSets.count == 1, "one resynchronising change set: \(changeSets)")
  }
}
