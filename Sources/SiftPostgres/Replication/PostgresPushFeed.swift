import Foundation
import SiftSyntax

/// What one commit changed in one table, as push mode reports it to a live hub: the primary-key
/// values (text, as `pgoutput` sends them) of every row inserted, updated or deleted — both the
/// old and the new key when an update changed it — or `keys == nil` when the rows cannot be named
/// (TRUNCATE, a key of several columns or a NULL key): re-read the whole table.
package struct PostgresPushChange: Equatable, Sendable {
  package var schema: String
  package var table: String
  package var keys: [String]?
  package var keyColumn: String?
}

/// Push mode's change feed: the logical replication stream of one slot (set up by `sift setup-sql
/// --live`), turned into the keys each commit changed. A hub calls `start` after each
/// (re)connection, then `changes` in a loop; each `changes` call first confirms the commits the
/// previous call returned (the hub delivered their change sets before asking again), so the
/// slot's `confirmed_flush_lsn` never passes a commit whose change set was not delivered, and a
/// reconnection re-streams what was not confirmed (reported twice at worst, never lost).
///
/// `start` first drops the slot if it would retain WAL without bound (`PostgresSlotRetention`),
/// and says so in `notices`; a missing slot is an error (`live-push-setup`) naming the setup.
package final class PostgresPushFeed {
  package let slot: String
  package let publication: String
  /// Bytes of WAL an inactive slot may hold back before `start` drops it.
  package let walLimit: Int64
  private var stream: PostgresReplicationStream?
  private var unconfirmed: PostgresLSN?
  /// Messages for the user (a slot dropped for its WAL), oldest first; the hub takes them.
  package var notices: [String] = []

  package init(slot: String = PostgresLiveSetup.defaultName, publication: String? = nil, walLimit: Int64 = 1 << 30) {
    self.slot = slot
    self.publication = publication ?? slot
    self.walLimit = walLimit
  }

  /// Checks the slot (dropping it if it retains WAL without bound) and opens the stream from the
  /// slot's `confirmed_flush_lsn`.
  package func start(database: PostgresDatabase, conninfo: String, timeout: Double = 10) throws(SiftError) {
    stop()
    if let dropped = try PostgresSlotRetention.dropIfUnbounded(slot, limit: walLimit, on: database) {
      notices.append(dropped)
    }
    guard try PostgresSlotRetention.check(slot, on: database) != nil else {
      throw PostgresLiveSetup.refused(
        "push mode needs replication slot \(slot): run sift setup-sql --live --entity TABLE --slot \(slot) "
          + "(or watch read-only)")
    }
    // A stream closed a moment ago may hold the slot until its walsender exits (SQLSTATE 55006,
    // "replication slot … is active"): try again until `timeout`.
    let deadline = Date().addingTimeInterval(timeout)
    while stream == nil {
      do throws(PostgresError) {
        stream = try PostgresReplicationStream(
          conninfo: conninfo, slot: slot, publication: publication, timeout: max(1, deadline.timeIntervalSinceNow))
      } catch {
        guard error.sqlState == "55006", Date() < deadline else { throw error.siftError }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    unconfirmed = nil
  }

  /// Confirms the previous call's commits, then waits at most `timeout` seconds for the next
  /// commit and returns what it changed (empty: nothing committed in time) once the commit is
  /// visible to `database`'s next statement.
  ///
  /// Logical decoding may stream a commit before the committing session made it visible to
  /// other sessions (the walsender decodes the commit record once it is flushed; the committer
  /// leaves the proc array after that): a re-read by key in that gap sees the old row, and the
  /// change is lost. `sift-bench --suite live-postgres` lost 1-45% of commits at 100 commits/s
  /// without this wait. So the feed waits (bounded) until the transaction id is visible in a
  /// snapshot taken on `database`.
  package func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresPushChange] {
    guard let stream else {
      throw PostgresError(kind: .connection, message: "the push feed is not started").siftError
    }
    do throws(PostgresError) {
      if let lsn = unconfirmed {
        try stream.confirm(lsn)
        unconfirmed = nil
      }
      guard let tx = try stream.next(timeout: timeout) else { return [] }
      unconfirmed = tx.endLSN
      try Self.waitVisible(tx.xid, on: database)
      return tx.tables.map(Self.change)
    } catch {
      self.stream = nil
      stream.close()
      throw error.siftError
    }
  }

  /// Closes the stream (the slot stays, inactive, for the next `start`).
  package func stop() {
    stream?.close()
    stream = nil
    unconfirmed = nil
  }

  /// Waits until transaction `xid` (32 bits; its epoch taken from the snapshot's xmax) is
  /// visible in a new snapshot of `database`, at most two seconds.
  static func waitVisible(_ xid: UInt32, on database: PostgresDatabase) throws(PostgresError) {
    let deadline = Date().addingTimeInterval(2)
    while true {
      let rows = try database.query(
        "WITH s AS (SELECT pg_current_snapshot() AS snap) SELECT pg_visible_in_snapshot(((("
          + "(pg_snapshot_xmax(snap)::text::int8 >> 32) - CASE WHEN $1 > (pg_snapshot_xmax(snap)::text::int8"
          + " & 4294967295) THEN 1 ELSE 0 END) << 32) | $1)::text::xid8, snap) FROM s", [.int(Int64(xid))])
      if rows.first?.first == .bool(true) || Date() >= deadline { return }
      Thread.sleep(forTimeInterval: 0.0005)
    }
  }

  static func change(_ t: PostgresTableChanges) -> PostgresPushChange {
    var change = PostgresPushChange(schema: t.schema, table: t.table, keys: nil, keyColumn: nil)
    guard !t.truncated, t.keyColumns.count == 1 else { return change }
    var keys: [String] = []
    var seen: Set<String> = []
    for row in t.rows {
      for key in [row.oldKey, row.key] {
        guard let key else { continue }
        guard key.count == 1, let k = key[0] else { return change }
        if seen.insert(k).inserted { keys.append(k) }
      }
    }
    change.keys = keys
    change.keyColumn = t.keyColumns[0]
    return change
  }
}
