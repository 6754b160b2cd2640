import Foundation

/// How long a MySQL/MariaDB connection may wait: to connect and log in
/// (`MYSQL_OPT_CONNECT_TIMEOUT`), for the server's answer to one read or write on the socket
/// (`MYSQL_OPT_READ_TIMEOUT`, `MYSQL_OPT_WRITE_TIMEOUT`), for a row lock another session holds
/// (`innodb_lock_wait_timeout`, and `lock_wait_timeout` for table metadata locks), and for one
/// statement (`max_statement_time` in seconds on MariaDB, `max_execution_time` in milliseconds
/// on MySQL, where it bounds `SELECT`s only). Nothing waits without a bound.
///
/// Zero means "leave it to the server" for the lock and statement limits and "no limit" for the
/// socket ones. The read timeout should exceed the statement limit, or a long statement is cut
/// off as a lost connection before the server stops it with a clear error: the default does.
///
/// ```swift
/// let db = try MySQLDatabase(url: url, timeouts: MySQLTimeouts(connect: 3, lock: 1, statement: 30))
/// ```
public struct MySQLTimeouts: Sendable, Hashable {
  /// Seconds to wait for the connection and login; 0 waits as long as the system does.
  public var connect: Int
  /// Seconds to wait for one read from the server; 0: no limit. Default: the statement limit
  /// plus 30 seconds.
  public var read: Int
  /// Seconds to wait for one write to the server; 0: no limit.
  public var write: Int
  /// Seconds a statement waits for a lock; 0: the server's setting.
  public var lock: Int
  /// Seconds one statement may run; 0: the server's setting.
  public var statement: Double

  /// Sift's defaults: connect 10 s, lock 10 s, statement 300 s, read 330 s, write 30 s.
  ///
  /// ```swift
  /// MySQLTimeouts.standard.lock   // 10
  /// ```
  public static let standard = MySQLTimeouts(connect: 10, lock: 10, statement: 300)

  /// Creates a set of timeouts in seconds (negative values count as 0). `read` defaults to the
  /// statement limit plus 30 seconds (0 when the statement has none), `write` to 30.
  ///
  /// ```swift
  /// MySQLTimeouts(connect: 5, lock: 2, statement: 60)   // read 90, write 30
  /// ```
  public init(connect: Int, lock: Int, statement: Double, read: Int? = nil, write: Int = 30) {
    self.connect = max(0, connect)
    self.lock = max(0, lock)
    let statement = statement.isFinite ? min(max(0, statement), 31_536_000) : 0
    self.statement = statement
    self.read = max(0, read ?? (statement > 0 ? Int(statement.rounded(.up)) + 30 : 0))
    self.write = max(0, write)
  }

  /// The session settings for a server (`SET SESSION …`), values written as numbers this
  /// struct holds, never text from input.
  func sessionSettings(isMariaDB: Bool) -> [String] {
    var settings: [String] = []
    if lock > 0 {
      let seconds = min(lock, 1_073_741_824)
      settings.append("innodb_lock_wait_timeout = \(seconds)")
      settings.append("lock_wait_timeout = \(min(seconds, 31_536_000))")
    }
    if statement > 0 {
      if isMariaDB {
        settings.append("max_statement_time = \(String(format: "%.6f", statement))")
      } else {
        settings.append("max_execution_time = \(Int((statement * 1000).rounded(.up)))")
      }
    }
    return settings
  }

  /// A hint for a timeout error's message (1205 lock wait timeout; 1969 MariaDB's and 3024
  /// MySQL's statement time limit; 2013 a lost connection), or nil.
  static func hint(code: Int?) -> String? {
    switch code {
    case 1205:
      return "another session holds a lock this statement needs; the wait is bounded by innodb_lock_wait_timeout "
        + "(MySQLTimeouts.lock); the statement was undone, the connection stays usable"
    case 1969, 3024:
      return "the statement ran longer than the time limit allows (max_statement_time on MariaDB, "
        + "max_execution_time on MySQL; MySQLTimeouts.statement); the connection stays usable"
    case 2006, 2013, 2055, 1927:
      return "the connection was lost (the server stopped, the session was killed or a read timed out); "
        + "an open transaction was undone, and the next statement connects again"
    default: return nil
    }
  }
}
