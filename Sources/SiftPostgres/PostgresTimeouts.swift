import Foundation

/// How long a PostgreSQL connection may wait: for the server to accept and answer the login
/// (libpq's `connect_timeout`), for a lock another session holds (`lock_timeout`), and for one
/// statement (`statement_timeout`). Nothing waits without a bound.
///
/// These are Sift's defaults; the connection's own settings win: `connect_timeout` in the
/// conninfo (or `PGCONNECT_TIMEOUT`), `options='-c lock_timeout=2s -c statement_timeout=1min'`
/// in the conninfo (or `PGOPTIONS`), or `ALTER ROLE/DATABASE … SET` and `postgresql.conf` on the
/// server. Only a setting still at PostgreSQL's built-in default (no limit) gets Sift's value.
/// Zero means no limit. libpq treats a connect timeout below 2 seconds as 2.
///
/// ```swift
/// let db = try PostgresDatabase(conninfo: info, timeouts: PostgresTimeouts(connect: 3, lock: 1, statement: 30))
/// ```
public struct PostgresTimeouts: Sendable, Hashable {
  /// Seconds to wait for the connection and login (`connect_timeout`); 0 waits forever.
  public var connect: Int
  /// Seconds a statement waits for a lock (`lock_timeout`); 0 waits forever.
  public var lock: Double
  /// Seconds one statement may run (`statement_timeout`); 0 runs forever.
  public var statement: Double

  /// Sift's defaults: connect 10 s, lock 10 s, statement 300 s.
  ///
  /// ```swift
  /// PostgresTimeouts.standard.lock   // 10
  /// ```
  public static let standard = PostgresTimeouts(connect: 10, lock: 10, statement: 300)

  /// No limits (PostgreSQL's and libpq's own defaults).
  ///
  /// ```swift
  /// let db = try PostgresDatabase(conninfo: info, timeouts: .unbounded)
  /// ```
  public static let unbounded = PostgresTimeouts(connect: 0, lock: 0, statement: 0)

  /// Creates a set of timeouts in seconds (0: no limit).
  ///
  /// ```swift
  /// PostgresTimeouts(connect: 5, lock: 2, statement: 60)
  /// ```
  public init(connect: Int, lock: Double, statement: Double) {
    self.connect = max(0, connect)
    self.lock = lock.isFinite ? max(0, lock) : 0
    self.statement = statement.isFinite ? max(0, statement) : 0
  }

  /// Whole milliseconds for a `SET … = 'Nms'` (clamped to PostgreSQL's int range).
  static func milliseconds(_ seconds: Double) -> Int {
    Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
  }

  /// The `SET` statements for the settings still at PostgreSQL's default, given each setting's
  /// `pg_settings.source`.
  func settings(sources: [String: String]) -> String {
    var script = ""
    for (name, seconds) in [("lock_timeout", lock), ("statement_timeout", statement)] where seconds > 0 {
      guard sources[name] == "default" else { continue }
      script += " SET \(name) = '\(Self.milliseconds(seconds))ms';"
    }
    return script
  }

  /// A hint for a timeout error's message (SQLSTATE 55P03 lock timeout, 57014 statement
  /// timeout), or nil.
  static func hint(sqlState: String?, message: String) -> String? {
    if sqlState == "55P03", message.contains("lock timeout") {
      return "another session holds a lock this statement needs; lock_timeout bounds the wait: raise it with "
        + "options='-c lock_timeout=30s' in the conninfo or PostgresTimeouts.lock"
    }
    if sqlState == "57014", message.contains("statement timeout") {
      return "the statement ran longer than statement_timeout allows: raise it with "
        + "options='-c statement_timeout=10min' in the conninfo or PostgresTimeouts.statement"
    }
    return nil
  }
}
