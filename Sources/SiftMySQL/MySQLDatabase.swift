import Foundation
import SiftSQL
import SiftSyntax

/// A connection to a MySQL or MariaDB server (through the MariaDB Connector/C) that runs
/// Sift's compiled SQL.
///
/// Every statement is prepared and every value bound (`?`); cells come back by their column's
/// real type (`execute(_:)` lists the mapping). The session is set up the same way on every
/// server: utf8mb4, time zone `+00:00` (so `TIMESTAMP`s read as UTC, and a `DATETIME` is read
/// as UTC too), a fixed `sql_mode` (`STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION`:
/// identifiers are quoted with backticks, `"` delimits strings, `||` is OR), and the limits of
/// `MySQLTimeouts`. Read-only by default (`SET SESSION TRANSACTION READ ONLY`: the server
/// refuses any write or DDL); `readOnly: false` for a database Sift writes.
///
/// Failures are `SiftError`s (stage `.sql`) whose `underlying` `MySQLError` carries the
/// server's message, error code and `host:port`. When the connection is lost (the server
/// restarted, the session was killed, a read timed out) the statement fails with
/// `mysql-connection` and the next one connects again; if a transaction was open, statements
/// are refused until `executeScript("ROLLBACK")` acknowledges that the server undid it.
///
/// Thread safety: one instance may be shared between threads; a lock serializes every call.
///
/// ```swift
/// let db = try MySQLDatabase(url: "mysql://sift:sift@127.0.0.1:3306/shop")
/// let rows = try db.execute(SQLStatement(sql: "SELECT ? + 1", bindings: [.integer(41)]))   // [[.integer(42)]]
/// ```
public final class MySQLDatabase: @unchecked Sendable {
  private let lock = NSLock()
  private var connection: MySQLConnection?
  private var closed = false
  private var lostInTransaction = false
  private let url: MySQLURL

  /// The limits the connection was opened with.
  public let timeouts: MySQLTimeouts
  /// True for a connection opened with `readOnly: true` (the default).
  public let isReadOnly: Bool
  /// The server's `VERSION()`, e.g. `10.11.6-MariaDB-0+deb12u1` or `8.0.36`.
  public private(set) var serverVersion: String = ""
  /// True when the server is MariaDB (from `VERSION()`), false for MySQL.
  public private(set) var isMariaDB = false
  /// The database (schema) the connection uses, from the URL or the server's default; nil when none.
  public private(set) var databaseName: String?

  /// Connects to `url` (`mysql://USER:PASSWORD@HOST:PORT/DATABASE`, see `MySQLURL`) and sets
  /// the session up (see the type's description).
  ///
  /// ```swift
  /// let db = try MySQLDatabase(url: "mysql://reader:pw@db.internal/shop")   // read-only
  /// let limits = MySQLTimeouts(connect: 3, lock: 2, statement: 60)
  /// let writer = try MySQLDatabase(url: url, readOnly: false, timeouts: limits)
  /// ```
  /// - Throws: `SiftError` `mysql-connection` for a URL that cannot be read, a server that does
  ///   not answer within the connect timeout, or a refused login; the message names the server
  ///   (`host:port`) and never the password.
  public init(url: String, readOnly: Bool = true, timeouts: MySQLTimeouts = .standard) throws(SiftError) {
    self.url = try MySQLURL(url)
    self.timeouts = timeouts
    isReadOnly = readOnly
    do throws(MySQLError) {
      connection = try connect()
    } catch {
      throw error.siftError
    }
  }

  deinit { close() }

  /// Closes the connection. Safe to call twice; later statements throw `mysql-connection`.
  ///
  /// ```swift
  /// db.close()
  /// ```
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    connection?.close()
    connection = nil
    closed = true
  }

  /// The server's id for this session (`CONNECTION_ID()`, what `KILL` takes); 0 when not connected.
  ///
  /// ```swift
  /// let id = db.connectionID
  /// ```
  public var connectionID: UInt {
    lock.lock()
    defer { lock.unlock() }
    return connection?.threadID ?? 0
  }

  /// `` `name` `` with embedded backticks doubled, safe to splice into SQL as an identifier.
  ///
  /// ```swift
  /// MySQLDatabase.quoteIdentifier("a`b")   // `a``b`
  /// ```
  public static func quoteIdentifier(_ name: String) -> String {
    "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
  }

  /// A new connection with the session set up.
  private func connect() throws(MySQLError) -> MySQLConnection {
    let c = try MySQLConnection(url: url, timeouts: timeouts)
    do {
      let statement = try c.prepare("SELECT VERSION(), DATABASE()")
      try statement.execute([])
      let row = try statement.fetch().first ?? []
      if case .text(let version)? = row.first { serverVersion = version }
      isMariaDB = serverVersion.lowercased().contains("mariadb")
      databaseName = row.count > 1 ? { if case .text(let d) = row[1] { return d } else { return nil } }() : nil
      var settings = [
        "time_zone = '+00:00'",
        "sql_mode = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
      ]
      settings += timeouts.sessionSettings(isMariaDB: isMariaDB)
      var script = "SET NAMES utf8mb4 COLLATE utf8mb4_bin; SET SESSION " + settings.joined(separator: ", ")
      script += isReadOnly ? "; SET SESSION TRANSACTION READ ONLY" : "; SET SESSION TRANSACTION READ WRITE"
      try c.executeScript(script)
    } catch {
      c.close()
      throw error
    }
    return c
  }

  /// Runs `body` on the connection under the lock, connecting again first if the last one was
  /// lost; a loss during `body` drops the connection (and remembers an open transaction).
  func withConnection<T>(
    _ body: (MySQLConnection) throws(MySQLError) -> T
  ) throws(MySQLError) -> T {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else {
      throw MySQLError(kind: .connection, message: "the connection to \(url.server) is closed", server: url.server)
    }
    if lostInTransaction {
      throw MySQLError(
        kind: .connection,
        message: "the connection to \(url.server) was lost inside a transaction, which the server undid; "
          + "run ROLLBACK to go on", server: url.server)
    }
    let c: MySQLConnection
    if let connection {
      c = connection
    } else {
      c = try connect()
      connection = c
    }
    do {
      return try body(c)
    } catch {
      if error.losesConnection {
        lostInTransaction = c.inTransaction
        c.close()
        connection = nil
      }
      throw error
    }
  }

  /// Acknowledges a transaction lost with its connection (see `withConnection`).
  func acknowledgeLostTransaction() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let was = lostInTransaction
    lostInTransaction = false
    return was
  }
}
