import Foundation
import SiftPostgres
import SiftSyntax

/// The push change source: commits streamed by logical replication (`pgoutput` through libpq)
/// from the slot and publication `sift setup-sql --live` made, reported as the primary keys
/// each commit changed per table, so the hub re-reads those rows only. It needs the setup
/// (`wal_level = logical`, a role with `REPLICATION`; see `sift help setup-sql`).
///
/// A commit is confirmed to the server (the slot's `confirmed_flush_lsn`) only when the hub asks
/// for more after delivering it, so a dropped connection re-streams what was not delivered.
/// `start` refuses (`live-mode-unavailable`) when the slot is missing, when a watched table is not
/// in the publication (a view never is: watch it read-only), and drops a slot that would retain
/// WAL without bound (inactive past `walLimit` bytes, or lost), saying so in `notices`.
///
/// ```swift
/// let push = PostgresLivePush(slot: "sift_live", tables: [.init(schema: "public", name: "venue")])
/// ```
public final class PostgresLivePush: PostgresLiveChangeSource {
  /// The mode's name.
  public let mode = "push"
  /// The tables the hub watches: each must be published.
  public let tables: [PostgresLiveTableName]
  let feed: PostgresPushFeed

  /// A push source reading `slot` (and the publication of the same name), for watchers of
  /// `tables`; an inactive slot holding more than `walLimit` bytes of WAL is dropped at start.
  public init(slot: String = "sift_live", tables: [PostgresLiveTableName] = [], walLimit: Int64 = 1 << 30) {
    self.tables = tables
    feed = PostgresPushFeed(slot: slot, walLimit: walLimit)
  }

  /// What the source had to tell the user (a slot dropped for the WAL it held), oldest first.
  public var notices: [String] { feed.notices }

  /// Checks the publication covers `tables`, then opens the stream.
  public func start(database: PostgresDatabase, conninfo: String) throws(SiftError) {
    try checkPublished(database)
    do throws(SiftError) {
      try feed.start(database: database, conninfo: conninfo)
    } catch {
      guard error.id == DiagnosticID.livePushSetup.rawValue else { throw error }
      throw SiftError(stage: .live, id: .liveModeUnavailable, message: error.message, underlying: error)
    }
  }

  /// The next commit's changed keys per table (`.unknown` for a TRUNCATE or a key the stream
  /// cannot name), waiting at most `timeout` seconds.
  public func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange] {
    try feed.changes(database: database, timeout: timeout).map { change in
      guard let keys = change.keys else { return .unknown }
      return .rows(table: PostgresLiveTableName(schema: change.schema, name: change.table), keys: keys)
    }
  }

  /// Closes the stream; the slot stays for the next start.
  public func stop() { feed.stop() }

  func checkPublished(_ database: PostgresDatabase) throws(SiftError) {
    guard !tables.isEmpty else { return }
    let published = try database.publishedTables(publication: feed.publication)
    for t in tables where !published.contains(where: { $0 == (t.schema, t.name) }) {
      throw SiftError(
        stage: .live, id: .liveModeUnavailable,
        message: "\(t) is not in publication \(feed.publication), so push mode would miss its changes"
          + " (a view cannot be published): run sift setup-sql --live --pg-schema \(t.schema) --entity \(t.name),"
          + " or watch read-only")
    }
  }
}
