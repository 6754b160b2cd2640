import SiftPostgres
import SiftSyntax

/// A table as PostgreSQL names it: schema and relation name (unquoted; Sift quotes them).
///
/// ```swift
/// let t = PostgresLiveTableName(schema: "public", name: "venue")
/// ```
public struct PostgresLiveTableName: Sendable, Hashable, CustomStringConvertible {
  /// The schema (`public`).
  public var schema: String
  /// The table or view.
  public var name: String

  /// A table name.
  public init(schema: String, name: String) {
    self.schema = schema
    self.name = name
  }

  /// `schema.name`, as messages show it.
  public var description: String { "\(schema).\(name)" }

  /// The quoted, qualified name for SQL.
  var quoted: String { PostgresDatabase.quoteIdentifier(schema) + "." + PostgresDatabase.quoteIdentifier(name) }
}

/// What a change source learned committed since the hub last asked (`PostgresLiveChangeSource`).
///
/// - `.unknown`: something may have committed, which rows is not known (polling): the hub runs
///   every watcher's query again (multiplexed) and diffs.
/// - `.rows(table:keys:)`: one commit changed (inserted, updated or deleted) the rows of `table`
///   with these primary-key values, in the key column's text form (as `pgoutput` sends them):
///   the hub reads those rows again by key and brings the watchers of that table up to date;
///   watchers of other tables do no work. Name every key a commit touched: an update that
///   changes a row's key names the old key and the new one. What names no rows (`TRUNCATE`, a
///   table without a key) is `.unknown`.
///
/// ```swift
/// let change = PostgresLiveChange.rows(table: .init(schema: "public", name: "venue"), keys: ["7", "12"])
/// ```
public enum PostgresLiveChange: Sendable, Hashable {
  /// Something may have committed; re-run every watcher's query.
  case unknown
  /// One commit changed these rows (primary-key text) of one table.
  case rows(table: PostgresLiveTableName, keys: [String])
}

/// How a `PostgresLiveHub` learns that something committed: the seam between the hub (watchers,
/// queries, change sets) and a mode. `PostgresLivePolling` (read-only, the default) compares
/// `pg_current_snapshot()`; a push source streams commits (logical replication).
///
/// The hub calls `start` after each (re)connection and before it re-runs every watcher's query
/// to resynchronise, so a commit is either in that re-run or reported by `changes` afterwards
/// (reporting one twice is harmless: the hub re-reads current rows). `changes` may wait up to
/// `timeout` seconds for something to report and must not wait longer. A source that loses
/// track (a dropped stream, a slot it had to drop) reports `.unknown`, never nothing.
///
/// ```swift
/// final class EveryTime: PostgresLiveChangeSource {
///   let mode = "always"
///   func start(database: PostgresDatabase, conninfo: String) throws(SiftError) {}
///   func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange] { [.unknown] }
///   func stop() {}
/// }
/// ```
public protocol PostgresLiveChangeSource: AnyObject {
  /// The mode's name in messages (`poll`, `push`).
  var mode: String { get }
  /// Called once the hub is connected (and after each reconnection), before it resynchronises.
  /// `database` is the hub's own connection; a source needing its own (replication) connection
  /// opens it from `conninfo`.
  /// - Throws: `SiftError` when the mode cannot run (missing setup or privilege): the hub reports it.
  func start(database: PostgresDatabase, conninfo: String) throws(SiftError)
  /// What committed since the previous call (empty: nothing), waiting at most `timeout` seconds
  /// for something to report.
  /// - Throws: `SiftError`; a connection error (id `postgres-connection`) makes the hub reconnect.
  func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange]
  /// The hub lost its connection or closes: release what `start` opened.
  func stop()
}
