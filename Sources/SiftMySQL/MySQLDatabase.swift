import Foundation
import SiftSQL
import SiftSyntax

/// A connection to a MySQL or MariaDB server (through the MariaDB Connector/C) that runs
/// Sift's compiled SQL.
///
/// Every statement is prepared and every value bound (`?`); cells come back by their column's
/// real type (`execute(_:)` lists the mapping). The session is set up the same way on every
/// server: utf8mb4 with a code-point, no-pad connection collation, time zone `+00:00` (so
/// `TIMESTAMP`s read as UTC, and a `DATETIME` is read as UTC too), a fixed strict `sql_mode`
/// (identifiers quoted with backticks, backslashes plain, `||` concatenates), and the limits of
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
  public let serverVersion: String
  /// True when the server is MariaDB (from `VERSION()`), false for MySQL.
  public let isMariaDB: Bool
  /// The database (schema) the connection uses, from the URL or the server's default; nil when none.
  public let databaseName: String?

  /// Schemas given to `fetch`/`fetchCount` or carried by compiled statements, already checked
  /// against the database (on first use).
  let schemaChecks = SQLSchemaCheckCache()

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
      let (c, version, database) = try Self.connect(url: self.url, timeouts: timeouts, readOnly: readOnly)
      connection = c
      serverVersion = version
      isMariaDB = version.lowercased().contains("mariadb")
      databaseName = database
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

  /// The name in backticks, embedded backticks doubled: safe to splice into SQL as an identifier.
  ///
  /// ```swift
  /// MySQLDatabase.quoteIdentifier("a`b")   // `a``b`
  /// ```
  public static func quoteIdentifier(_ name: String) -> String {
    "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
  }

  /// A new connection with the session set up, the server's `VERSION()` and the database in use.
  private static func connect(
    url: MySQLURL, timeouts: MySQLTimeouts, readOnly: Bool
  ) throws(MySQLError) -> (MySQLConnection, version: String, database: String?) {
    let c = try MySQLConnection(url: url, timeouts: timeouts)
    do {
      let statement = try c.prepare("SELECT VERSION(), DATABASE()")
      try statement.execute([])
      let row = try statement.fetch().first ?? []
      var version = "", database: String?
      if row.count == 2, case .text(let v) = row[0] { version = v }
      if row.count == 2, case .text(let d) = row[1] { database = d }
      let isMariaDB = version.lowercased().contains("mariadb")
      try c.executeScript(MySQLDatabase.sessionScript(isMariaDB: isMariaDB, readOnly: readOnly, timeouts: timeouts))
      return (c, version, database)
    } catch {
      c.close()
      throw error
    }
  }

  /// The session every connection starts with (the same on every server, so compiled SQL means
  /// one thing): utf8mb4 text whose bound values compare by code point without padding
  /// (`utf8mb4_nopad_bin` on MariaDB, `utf8mb4_0900_bin` on MySQL); `sql_mode` strict, with
  /// backslashes as plain characters and `||` as concatenation (identifiers in backticks, as
  /// `ANSI_QUOTES` is off); time zone `+00:00`; the limits of `timeouts`; read-only or
  /// read-write transactions.
  static func sessionScript(isMariaDB: Bool, readOnly: Bool, timeouts: MySQLTimeouts) -> String {
    let collation = isMariaDB ? "utf8mb4_nopad_bin" : "utf8mb4_0900_bin"
    var settings = [
      "time_zone = '+00:00'",
      "sql_mode = 'STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT,NO_ENGINE_SUBSTITUTION,NO_ZERO_DATE,"
        + "NO_ZERO_IN_DATE,ERROR_FOR_DIVISION_BY_ZERO'",
    ]
    settings += timeouts.sessionSettings(isMariaDB: isMariaDB)
    return "SET NAMES utf8mb4 COLLATE \(collation); SET SESSION " + settings.joined(separator: ", ")
      + "; SET SESSION TRANSACTION " + (readOnly ? "READ ONLY" : "READ WRITE")
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
      c = try Self.connect(url: url, timeouts: timeouts, readOnly: isReadOnly).0
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

  /// Runs `body` under the lock, connected or not (closing a statement: the library then talks
  /// to the server, which must not interleave with another thread's statement).
  func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
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
