import Foundation
import SiftSyntax

/// A replication slot that would keep WAL without bound: the server may not recycle WAL past a
/// slot's `restart_lsn`, so a slot no one reads fills the disk. `check` reads the slot's state
/// from `pg_replication_slots` and `drop…` removes one that is lost (`wal_status = 'lost'`: it can
/// never stream again), or inactive and either `unreserved` (about to be lost) or retaining more
/// than the limit (`pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)`). An active slot is
/// someone's stream and is left alone.
package struct PostgresSlotRetention: Equatable, Sendable {
  package var slot: String
  package var active: Bool
  /// `reserved`, `extended`, `unreserved` or `lost` (nil before PostgreSQL 13).
  package var walStatus: String?
  /// Bytes of WAL the slot holds back (nil when it has no `restart_lsn`).
  package var retainedBytes: Int64?

  /// Why the slot should be dropped under `limit` bytes, or nil when it may stay.
  package func reasonToDrop(limit: Int64) -> String? {
    if walStatus == "lost" { return "its WAL is lost (wal_status 'lost'): it can never stream again" }
    guard !active else { return nil }
    if walStatus == "unreserved" {
      return "it is inactive and its WAL is about to be removed (wal_status 'unreserved')"
    }
    if let retainedBytes, retainedBytes > limit {
      return "it is inactive and retains \(retainedBytes) bytes of WAL (limit \(limit))"
    }
    return nil
  }

  /// The slot's state, or nil when there is no such slot.
  package static func check(_ slot: String, on db: PostgresDatabase) throws(SiftError) -> PostgresSlotRetention? {
    let rows: [[PostgresWireValue]]
    do throws(PostgresError) {
      rows = try db.query(
        """
        SELECT active, wal_status, pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::int8
        FROM pg_replication_slots WHERE slot_name = $1
        """, [.text(slot)])
    } catch {
      throw error.siftError
    }
    guard let row = rows.first, row.count == 3 else { return nil }
    var state = PostgresSlotRetention(slot: slot, active: row[0] == .bool(true), walStatus: nil, retainedBytes: nil)
    if case .text(let s) = row[1] { state.walStatus = s }
    if case .int(let n) = row[2] { state.retainedBytes = n }
    return state
  }

  /// Drops `slot` when it would retain WAL without bound (see `reasonToDrop`); returns the message
  /// saying so, or nil when the slot is absent or healthy. The publication is kept: setting push
  /// up again (`sift setup-sql --live`) makes a new slot, and until then watchers poll.
  package static func dropIfUnbounded(_ slot: String, limit: Int64, on db: PostgresDatabase) throws(SiftError)
    -> String?
  {
    guard let state = try check(slot, on: db), let reason = state.reasonToDrop(limit: limit) else { return nil }
    do throws(PostgresError) {
      // `active = false` again: a stream that started meanwhile keeps its slot.
      let dropped = try db.query(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active",
        [.text(slot)])
      if dropped.isEmpty { return nil }
    } catch {
      throw error.siftError
    }
    return "dropped replication slot \(slot): \(reason); run sift setup-sql --live again to stream changes"
  }
}
