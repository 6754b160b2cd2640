import CMariaDB
import Foundation
import SiftSQL

/// One prepared statement (`MYSQL_STMT *`): binds `?` values, runs, and reads rows through
/// `MySQLResultColumns`. Closed with the object. With `cursor: true` the server keeps the
/// result (`CURSOR_TYPE_READ_ONLY`) and rows are fetched a batch at a time, so other
/// statements may run on the connection between batches.
final class MySQLPreparedStatement {
  private var stmt: UnsafeMutablePointer<MYSQL_STMT>?
  let sql: String
  let server: String
  private let connection: MySQLConnection
  private var columns: MySQLResultColumns?

  init(connection: MySQLConnection, handle: UnsafeMutablePointer<MYSQL>, sql: String) throws(MySQLError) {
    self.sql = sql
    server = connection.server
    self.connection = connection
    guard let stmt = mysql_stmt_init(handle) else { throw connection.error(.connection, statement: sql) }
    self.stmt = stmt
    let length = UInt(sql.utf8.count)
    // On failure `deinit` closes the statement.
    if sql.withCString({ mysql_stmt_prepare(stmt, $0, length) }) != 0 { throw error(.query) }
  }

  deinit { close() }

  /// Closes the statement (and its cursor) on the server; later calls report it closed.
  func close() {
    if let stmt { mysql_stmt_close(stmt) }
    stmt = nil
  }

  /// The open statement.
  private func open() throws(MySQLError) -> UnsafeMutablePointer<MYSQL_STMT> {
    guard let stmt else {
      throw MySQLError(kind: .connection, message: "the statement is closed", server: server, statement: sql)
    }
    return stmt
  }

  /// The statement's last error, or the connection's when the statement has none (an error
  /// while rows stream in is reported on the connection).
  func error(_ kind: MySQLError.Kind) -> MySQLError {
    guard let stmt else {
      return MySQLError(kind: .connection, message: "the statement is closed", server: server, statement: sql)
    }
    if mysql_stmt_errno(stmt) == 0 { return connection.error(kind, statement: sql) }
    return MySQLError(
      kind: kind, message: String(cString: mysql_stmt_error(stmt)), code: Int(mysql_stmt_errno(stmt)),
      sqlState: String(cString: mysql_stmt_sqlstate(stmt)), server: server, statement: sql)
  }

  /// Binds `values` (one per `?`) and runs the statement.
  func execute(_ values: [SQLValue], cursorBatch: Int? = nil) throws(MySQLError) {
    let stmt = try open()
    let expected = Int(mysql_stmt_param_count(stmt))
    guard expected == values.count else {
      throw MySQLError(
        kind: .query, message: "the statement has \(expected) placeholder(s) but \(values.count) value(s) were bound",
        server: server, statement: sql)
    }
    if let size = cursorBatch {
      var type = UInt(CURSOR_TYPE_READ_ONLY.rawValue)
      var rows = UInt(max(1, min(size, 1 << 20)))
      if mysql_stmt_attr_set(stmt, STMT_ATTR_CURSOR_TYPE, &type) != 0
        || mysql_stmt_attr_set(stmt, STMT_ATTR_PREFETCH_ROWS, &rows) != 0
      {
        throw error(.query)
      }
    }
    let parameters = MySQLParameters(values)
    if expected > 0, mysql_stmt_bind_param(stmt, parameters.binds) != 0 { throw error(.unsupportedValue) }
    if mysql_stmt_execute(stmt) != 0 { throw error(.query) }
    withExtendedLifetime(parameters) {}
    let fieldCount = Int(mysql_stmt_field_count(stmt))
    guard fieldCount > 0 else { return }
    guard let meta = mysql_stmt_result_metadata(stmt) else { throw error(.result) }
    defer { mysql_free_result(meta) }
    guard let fields = mysql_fetch_fields(meta) else { throw error(.result) }
    let columns = MySQLResultColumns(fields: fields, count: fieldCount)
    if mysql_stmt_bind_result(stmt, columns.binds) != 0 { throw error(.result) }
    self.columns = columns
  }

  /// Rows changed (matched, with `CLIENT_FOUND_ROWS`) by the statement; 0 for a query.
  var affectedRows: Int {
    guard let stmt else { return 0 }
    let n = mysql_stmt_affected_rows(stmt)
    return n == UInt64.max ? 0 : Int(clamping: n)
  }

  /// Up to `limit` more rows (fewer only at the end; empty when none are left).
  func fetch(limit: Int = .max) throws(MySQLError) -> [[SQLValue]] {
    guard let columns else { return [] }
    let stmt = try open()
    var rows: [[SQLValue]] = []
    while rows.count < limit {
      let rc = mysql_stmt_fetch(stmt)
      if rc == MYSQL_NO_DATA { break }
      if rc != 0 && rc != MYSQL_DATA_TRUNCATED { throw error(.query) }
      do {
        rows.append(try columns.row(stmt))
      } catch {
        var e = error
        e.server = server
        e.statement = sql
        throw e
      }
    }
    return rows
  }
}
