import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax

/// The read-only change source (the default): it asks the server for `pg_current_snapshot()`
/// and reports `.unknown` when the text differs from the last look, nothing otherwise. It needs
/// only a connection (no privilege beyond `SELECT` on the watched tables, nothing created).
///
/// Why an identical snapshot means nothing committed (Grammar/notes/live.md): the snapshot is
/// `xmin:xmax:xip` with 64-bit transaction ids. A write transaction that commits between two
/// looks either had its id before the first look — then it was listed in progress (`xip`) and
/// is not any more — or got it after — then its id was at least the first `xmax`, and once it
/// completed `xmax` is past it. Either way the text changes. The converse does not hold (a
/// transaction that started, or rolled back, also changes it): a changed snapshot costs one
/// re-run of the watchers' queries, never a missed commit.
///
/// ```swift
/// let hub = try PostgresLiveHub(conninfo: info, schema: "public", source: PostgresLivePolling(interval: 0.5))
/// ```
public final class PostgresLivePolling: PostgresLiveChangeSource {
  /// The mode's name.
  public let mode = "poll"
  /// Seconds between looks while `changes(database:timeout:)` waits.
  public let interval: Double
  var lastSnapshot: String?

  /// A polling source looking every `interval` seconds while the hub waits (at least 0.01).
  public init(interval: Double = 0.25) {
    self.interval = max(0.01, interval.isFinite ? interval : 0.25)
  }

  /// Reads the snapshot the next look compares with.
  public func start(database: PostgresDatabase, conninfo: String) throws(SiftError) {
    lastSnapshot = try Self.snapshot(database)
  }

  /// `[.unknown]` when the snapshot changed since the last look; else looks again every
  /// `interval` until `timeout` seconds passed, then `[]`.
  public func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange] {
    let deadline = Date().addingTimeInterval(max(0, timeout.isFinite ? min(timeout, 3600) : 0))
    while true {
      let now = try Self.snapshot(database)
      if now != lastSnapshot {
        lastSnapshot = now
        return [.unknown]
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return [] }
      Thread.sleep(forTimeInterval: min(interval, left))
    }
  }

  /// Nothing to release.
  public func stop() { lastSnapshot = nil }

  /// The server's current snapshot as text (`xmin:xmax:xip,…`).
  static func snapshot(_ database: PostgresDatabase) throws(SiftError) -> String {
    let rows = try database.execute(SQLStatement(sql: "SELECT pg_catalog.pg_current_snapshot()::text"))
    guard case .text(let text)? = rows.first?.first else {
      throw SiftError(stage: .live, id: .liveConnectionLost, message: "the server returned no snapshot")
    }
    return text
  }
}
