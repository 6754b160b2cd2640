import Foundation
import SiftSyntax

/// What went wrong in the MySQL/MariaDB runner, as the `underlying` cause of the `SiftError`
/// the public API throws: a failed or lost connection, a statement the server rejected, a value
/// that cannot be bound, or a result cell that could not be read.
///
/// `message` carries the server's own text (never the password), `code` MySQL's error number
/// (for example 1146 no such table, 1205 lock wait timeout, 2013 connection lost), `sqlState`
/// its five-character SQLSTATE, and `server` the `host:port` it came from.
///
/// ```swift
/// do { _ = try db.execute(SQLStatement(sql: "SELECT * FROM nope")) }
/// catch {
///   let cause = error.underlying as? MySQLError
///   print(error.id, cause?.code ?? 0, error.message)   // mysql-query 1146 Table 'sift.nope' doesn't exist …
/// }
/// ```
public struct MySQLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed.
  public enum Kind: String, Sendable, Hashable {
    /// Connecting failed, the connection was lost (the statement's outcome is then unknown), or
    /// it is closed.
    case connection
    /// The server rejected a statement (syntax, type, constraint, permission, timeout, …).
    case query
    /// A bound value cannot be sent.
    case unsupportedValue
    /// A result cell could not be converted to a Swift value.
    case result
  }

  /// What failed.
  public var kind: Kind
  /// The server's (or the runner's) message, trimmed; never empty.
  public var message: String
  /// MySQL's error number, if any (`mysql_errno`).
  public var code: Int?
  /// The SQLSTATE reported, if any.
  public var sqlState: String?
  /// The server as `host:port` (or the socket path).
  public var server: String?
  /// The statement text that failed, if the error belongs to one.
  public var statement: String?

  /// Creates an error.
  ///
  /// ```swift
  /// let e = MySQLError(kind: .connection, message: "connection is closed")
  /// ```
  public init(
    kind: Kind, message: String, code: Int? = nil, sqlState: String? = nil, server: String? = nil,
    statement: String? = nil
  ) {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    self.kind = kind
    self.message = trimmed.isEmpty ? "unknown MySQL error" : trimmed
    self.code = code
    self.sqlState = sqlState
    self.server = server
    self.statement = statement
  }

  /// The kind, code, SQLSTATE, server and message on one or two lines.
  ///
  /// ```swift
  /// print(error)   // mysql query error 1146 [42S02] at 127.0.0.1:3306: Table 'sift.nope' doesn't exist
  /// ```
  public var description: String {
    var text = "mysql \(kind.rawValue) error"
    if let code { text += " \(code)" }
    if let sqlState { text += " [\(sqlState)]" }
    if let server { text += " at \(server)" }
    text += ": \(message)"
    if let statement { text += "\n  in: \(statement)" }
    return text
  }

  /// True when a function Sift's compiled SQL calls (`sift_…`) does not exist (1305).
  var isMissingSiftFunction: Bool { code == 1305 && message.contains(".sift_") }

  /// True for the errors after which the connection cannot go on (lost, gone away, closed).
  var losesConnection: Bool {
    if kind == .connection { return true }
    // CR_SERVER_GONE_ERROR, CR_SERVER_LOST, CR_SERVER_LOST_EXTENDED; ER_CONNECTION_KILLED.
    return [2006, 2013, 2055, 1927].contains(code ?? 0)
  }
}

extension MySQLError {
  /// This error as Sift's one error type (stage `.sql`): ids `mysql-connection`, `mysql-query`
  /// (`foreign-key-violation` for codes 1451/1452, a declared foreign key refusing the statement;
  /// `missing-sift-functions` for a `sift_…` function that does not exist),
  /// `mysql-unsupported-value`, `mysql-result`. The message names the server and adds a hint for
  /// a lock wait or statement timeout.
  package var siftError: SiftError {
    let id: DiagnosticID
    switch kind {
    case .connection: id = .mysqlConnection
    case .query:
      if code == 1451 || code == 1452 {
        id = .foreignKeyViolation
      } else if losesConnection {
        id = .mysqlConnection
      } else if isMissingSiftFunction {
        id = .missingSiftFunctions
      } else {
        id = .mysqlQuery
      }
    case .unsupportedValue: id = .mysqlUnsupportedValue
    case .result: id = .mysqlResult
    }
    var text = message
    if let code {
      text += " (MySQL error \(code)" + (server.map { ", server \($0)" } ?? "") + ")"
    } else if let server, !message.contains(server) {
      text += " (server \(server))"
    }
    if let hint = MySQLTimeouts.hint(code: code) { text += "; " + hint }
    if isMissingSiftFunction {
      text +=
        "; create Sift's SQL functions once, as a user who may: sift setup-sql --dialect mysql "
        + "(MySQLDatabase.prepareSiftFunctions(database:))"
    }
    return SiftError(stage: .sql, id: id, message: text, underlying: self)
  }
}

extension SiftError {
  /// `error` as a `SiftError`: a `MySQLError` converted, a `SiftError` as it is.
  package static func mysql(_ error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    if let e = error as? MySQLError { return e.siftError }
    return SiftError(stage: .sql, id: .databaseError, message: "\(error)", underlying: error)
  }
}
