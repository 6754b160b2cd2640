import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftPostgres

/// Push mode end to end on the server (issue #33): the setup (publication + pgoutput slot, both
/// uniquely named per test and dropped), the stream's committed transactions with their keys,
/// `confirmed_flush_lsn` advancing only when a change set is confirmed, refusals for a view and
/// a table without a key, and a slot that would retain WAL without bound dropped with a message.
@Suite(
  "PostgreSQL replication stream",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct ReplicationStreamTests {
  final class Fixture {
    let conninfo: String
    let db: PostgresDatabase
    let schema: String
    let name: String

    init() throws {
      conninfo = try #require(PostgresTestServer.conninfo)
      db = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_push"))
      schema = try #require(db.schemaName)
      name = "sift_push_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      try db.run(
        """
        CREATE TABLE item (id bigint PRIMARY KEY, title text, body text);
        ALTER TABLE item ALTER body SET STORAGE EXTERNAL;
        CREATE TABLE nokey (a int);
        CREATE VIEW item_view AS SELECT * FROM item;
        INSERT INTO item VALUES (1, 'one', repeat('x', 100000))
        """)
    }

    var setup: PostgresLiveSetup { PostgresLiveSetup(name: name, tables: [(schema, "item")]) }

    func confirmedFlush() throws -> PostgresLSN? {
      let rows = try db.query(
        "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = $1", [.text(name)])
      guard case .text(let s) = rows.first?.first else { return nil }
      return PostgresLSN(text: s)
    }

    deinit {
      _ = try? setup.drop(on: db)
      db.close()
    }
  }

  @Test func aCommitArrivesWithItsKeysAndIsConfirmedOnlyWhenDelivered() throws {
    let f = try Fixture()
    let said = try f.setup.apply(on: f.db)
    #expect(said.contains("created publication \(f.name)") && said.contains("created logical replication slot"))
    let stream = try PostgresReplicationStream(conninfo: f.conninfo, slot: f.name, publication: f.name)
    defer { stream.close() }
    try f.db.run(
      """
      BEGIN;
      INSERT INTO item VALUES (2, NULL, 'two');
      UPDATE item SET title = 'uno' WHERE id = 1;
      UPDATE item SET id = 3 WHERE id = 2;
      DELETE FROM item WHERE id = 3;
      COMMIT
      """)
    let tx = try #require(try stream.next(timeout: 10))
    #expect(tx.tables.count == 1)
    let t = try #require(tx.tables.first)
    #expect(
      t.schema == f.schema && t.table == "item" && t.keyColumns == ["id"] && t.columns == ["id", "title", "body"])
    #expect(t.rows.map(\.kind) == [.insert, .update, .update, .delete])
    #expect(t.rows.map(\.key) == [["2"], ["1"], ["3"], ["3"]])
    #expect(t.rows[2].oldKey == ["2"])
    #expect(t.rows[0].new == [.text("2"), .null, .text("two")])
    // The 100,000-byte body is TOASTed and unchanged: left out, marked 'u'.
    #expect(t.rows[1].new?.count == 3 && t.rows[1].new?.first == .text("1"))
    #expect(t.rows[1].new?.last == .unchangedToast, "the body was sent")

    let before = try #require(try f.confirmedFlush())
    #expect(before < tx.endLSN)
    #expect(try stream.next(timeout: 0.3) == nil)
    #expect(try #require(try f.confirmedFlush()) < tx.endLSN, "confirmed before the change set was delivered")
    try stream.confirm(tx.endLSN)
    var confirmed = try f.confirmedFlush()
    for _ in 0..<50 where (confirmed ?? .zero) < tx.endLSN {
      Thread.sleep(forTimeInterval: 0.1)
      confirmed = try f.confirmedFlush()
    }
    #expect((confirmed ?? .zero) >= tx.endLSN)

    try f.db.run("TRUNCATE item")
    let truncate = try #require(try stream.next(timeout: 10))
    #expect(truncate.tables.first?.truncated == true)
    stream.close()
    #expect(try f.setup.drop(on: f.db).hasPrefix("dropped slot"))
  }

  @Test func theDropRemovesEveryTrace() throws {
    let f = try Fixture()
    _ = try f.setup.apply(on: f.db)
    #expect(try f.setup.apply(on: f.db).contains("updated publication"))
    #expect(try f.setup.drop(on: f.db) == "dropped slot \(f.name) and publication \(f.name)")
    let left = try f.db.query(
      "SELECT (SELECT count(*) FROM pg_replication_slots WHERE slot_name = $1)"
        + " + (SELECT count(*) FROM pg_publication WHERE pubname = $1)", [.text(f.name)])
    #expect(left == [[.int(0)]])
    #expect(try f.setup.drop(on: f.db).contains("nothing to drop"))
  }

  @Test(arguments: [("item_view", "is a view"), ("nokey", "has no primary key"), ("absent", "no table")])
  func tablesPushCannotStreamAreRefused(table: String, says: String) throws {
    let f = try Fixture()
    let setup = PostgresLiveSetup(name: f.name, tables: [(f.schema, table)])
    expectSiftError(id: "live-push-setup") { _ = try setup.apply(on: f.db) }
    do { _ = try setup.apply(on: f.db) } catch { #expect(error.message.contains(says), "\(error.message)") }
    let left = try f.db.query("SELECT count(*) FROM pg_publication WHERE pubname = $1", [.text(f.name)])
    #expect(left == [[.int(0)]])
  }

  @Test func anInactiveSlotRetainingWALIsDroppedWithAMessage() throws {
    let f = try Fixture()
    _ = try f.setup.apply(on: f.db)
    try f.db.run("INSERT INTO item SELECT g, 'x', 'y' FROM generate_series(10, 2000) g")
    let state = try #require(try PostgresSlotRetention.check(f.name, on: f.db))
    #expect(!state.active && (state.retainedBytes ?? 0) > 0)
    #expect(try PostgresSlotRetention.dropIfUnbounded(f.name, limit: Int64.max, on: f.db) == nil)
    let message = try #require(try PostgresSlotRetention.dropIfUnbounded(f.name, limit: 1, on: f.db))
    #expect(message.hasPrefix("dropped replication slot \(f.name): it is inactive and retains"))
    #expect(try PostgresSlotRetention.check(f.name, on: f.db) == nil)
  }

  @Test func theRetentionRule() {
    let s = PostgresSlotRetention(slot: "s", active: false, walStatus: "reserved", retainedBytes: 10)
    #expect(s.reasonToDrop(limit: 10) == nil)
    #expect(s.reasonToDrop(limit: 9)?.contains("retains 10 bytes") == true)
    var active = s
    active.active = true
    #expect(active.reasonToDrop(limit: 0) == nil)
    active.walStatus = "lost"
    #expect(active.reasonToDrop(limit: 0)?.contains("lost") == true)
    var unreserved = s
    unreserved.walStatus = "unreserved"
    #expect(unreserved.reasonToDrop(limit: 1000)?.contains("unreserved") == true)
  }
}
