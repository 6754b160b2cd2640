import CMariaDB
import Foundation
import SiftSQL

/// One MariaDB Connector/C connection (`MYSQL *`): connecting with timeouts and utf8mb4,
/// scripts through the text protocol, statements through prepared statements
/// (`MySQLPreparedStatement`). Not thread-safe: `MySQLDatabase` serializes every call.
final class MySQLConnection {
  private var handle: UnsafeMutablePointer<MYSQL>?
  /// `host:port`, for messages.
  let server: String

  /// The client library's one-time set-up (`mysql_library_init`), which `mysql_init` would
  /// otherwise run unsynchronized on whichever thread connects first.
  private static let libraryReady: Bool = mysql_server_init(0, nil, nil) == 0

  init(url: MySQLURL, timeouts: MySQLTimeouts) throws(MySQLError) {
    server = url.server
    guard Self.libraryReady else {
      throw MySQLError(kind: .connection, message: "the MariaDB client library could not be initialized")
    }
    guard let h = mysql_init(nil) else {
      throw MySQLError(kind: .connection, message: "could not allocate a connection to \(url.server)")
    }
    func set(_ option: mysql_option, _ seconds: Int) {
      var value = UInt32(clamping: seconds)
      _ = mysql_options(h, option, &value)
    }
    if timeouts.connect > 0 { set(MYSQL_OPT_CONNECT_TIMEOUT, timeouts.connect) }
    if timeouts.read > 0 { set(MYSQL_OPT_READ_TIMEOUT, timeouts.read) }
    if timeouts.write > 0 { set(MYSQL_OPT_WRITE_TIMEOUT, timeouts.write) }
    // No LOAD DATA LOCAL: a server must never read this machine's files.
    var noLocalFiles: UInt32 = 0
    _ = mysql_options(h, MYSQL_OPT_LOCAL_INFILE, &noLocalFiles)
    _ = mysql_options(h, MYSQL_SET_CHARSET_NAME, "utf8mb4")
    // Affected rows count the rows a WHERE matched (as PostgreSQL and SQLite count them), not
    // only those whose values changed; scripts may hold several statements.
    let flags = UInt(CLIENT_MULTI_STATEMENTS) | UInt(CLIENT_FOUND_ROWS)
    let connected = mysql_real_connect(
      h, url.host, url.user, url.password, url.database, UInt32(url.port), nil, flags)
    if connected == nil {
      let error = MySQLError(
        kind: .connection, message: "cannot connect to MySQL at \(url.server): " + String(cString: mysql_error(h)),
        code: Int(mysql_errno(h)), sqlState: String(cString: mysql_sqlstate(h)), server: url.server)
      mysql_close(h)
      throw error
    }
    handle = h
  }

  deinit { close() }

  var isOpen: Bool { handle != nil }

  func close() {
    if let handle { mysql_close(handle) }
    handle = nil
  }

  /// The server's id for this session (`CONNECTION_ID()`).
  var threadID: UInt { handle.map { mysql_thread_id($0) } ?? 0 }

  /// True while the server reports an open transaction.
  var inTransaction: Bool {
    guard let handle else { return false }
    return handle.pointee.server_status & UInt32(SERVER_STATUS_IN_TRANS) != 0
  }

  func open() throws(MySQLError) -> UnsafeMutablePointer<MYSQL> {
    guard let handle else {
      throw MySQLError(kind: .connection, message: "the connection to \(server) is closed", server: server)
    }
    return handle
  }

  /// The connection's last error.
  func error(_ kind: MySQLError.Kind, statement: String?) -> MySQLError {
    guard let handle else {
      return MySQLError(kind: .connection, message: "the connection is closed", server: server, statement: statement)
    }
    return MySQLError(
      kind: kind, message: String(cString: mysql_error(handle)), code: Int(mysql_errno(handle)),
      sqlState: String(cString: mysql_sqlstate(handle)), server: server, statement: statement)
  }

  /// Runs `;`-separated statements through the text protocol, discarding any rows, and stops
  /// at the first error (the statements before it stay done unless a transaction holds them).
  func executeScript(_ sql: String) throws(MySQLError) {
    let h = try open()
    let length = UInt(sql.utf8.count)
    let rc = sql.withCString { mysql_real_query(h, $0, length) }
    if rc != 0 { throw error(.query, statement: sql) }
    while true {
      if let result = mysql_store_result(h) {
        mysql_free_result(result)
      } else if mysql_field_count(h) != 0 {
        throw error(.query, statement: sql)
      }
      let next = mysql_next_result(h)
      if next == -1 { return }
      if next > 0 { throw error(.query, statement: sql) }
    }
  }

  /// Prepares `sql` (with `?` placeholders) on this connection.
  func prepare(_ sql: String) throws(MySQLError) -> MySQLPreparedStatement {
    try MySQLPreparedStatement(connection: self, handle: try open(), sql: sql)
  }
}
