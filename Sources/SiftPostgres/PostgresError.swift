import Foundation
import SiftSyntax

/// What went wrong in the PostgreSQL runner, as the `underlying` cause of the `SiftError` the
/// public API throws: a failed connection, a statement the server rejected, a value PostgreSQL
/// cannot hold (text with NUL), or a result cell that could not be decoded.
///
/// `message` carries the server's own text when there is one; `sqlState` the five-character
/// SQLSTATE code (for example `42P01` undefined table, `22021` bad encoding).
///
/// ```swift
/// do { _ = try db.execute(SQLStatement(sql: "SELECT * FROM nope", bindings: [])) }
/// catch {
///   let cause = error.underlying as? PostgresError
///   print(error.id, cause?.sqlState ?? "-", error.message)   // postgres-query 42P01 relation "nope" …
/// }
/// ```
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed.
  public enum Kind: String, Sendable, Hashable {
    /// Connecting (or reconnecting) to the server failed, or the connection is closed.
    case connection
    /// The server rejected a statement (syntax, type, constraint, permission, …).
    case query
    /// A bound value cannot be sent to PostgreSQL (for example text containing NUL).
    case unsupportedValue
    /// A result cell could not be converted to a Swift value.
    case result
    /// The task running `PostgresDatabase.executeAsync` was cancelled (the server cancelled
    /// the statement, or its rows were abandoned); the connection stays usable.
    case cancelled
    /// The statement calls Sift's SQL functions (`sift_fold`, …) the database does not have:
    /// it was not run (see `PostgresDatabase.checkSiftFunctions(_:)`).
    case missingSetup
    /// The connecting role may not use Sift's SQL functions (no `USAGE` on their schema or no
    /// `EXECUTE` on a function), or may not create or grant them (`sift setup-sql`): nothing ran.
    case missingPrivilege
  }

  /// What failed.
  public var kind: Kind
  /// The server's (or the runner's) message, trimmed; never empty.
  public var message: String
  /// The SQLSTATE code reported by the server, if any.
  public var sqlState: String?
  /// The statement text that failed, if the error belongs to one.
  public var statement: String?

  /// Creates an error.
  ///
  /// ```swift
  /// let e = PostgresError(kind: .connection, message: "connection is closed")
  /// ```
  public init(kind: Kind, message: String, sqlState: String? = nil, statement: String? = nil) {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    self.kind = kind
    self.message = trimmed.isEmpty ? "unknown PostgreSQL error" : trimmed
    self.sqlState = sqlState
    self.statement = statement
  }

  /// The kind, SQLSTATE, message and statement on one or two lines.
  ///
  /// ```swift
  /// print(error)   // postgres query error [42P01]: relation "nope" does not exist
  ///                //   in: SELECT * FROM nope
  /// ```
  public var description: String {
    var text = "postgres \(kind.rawValue) error"
    if let sqlState { text += " [\(sqlState)]" }
    text += ": \(message)"
    if let statement { text += "\n  in: \(statement)" }
    return text
  }
}

extension PostgresError {
  /// This error as Sift's one error type (stage `.sql`, the message in PostgreSQL's or Sift's
  /// words; kind, SQLSTATE and statement in the `PostgresError` kept as `underlying`): ids
  /// `postgres-connection`, `postgres-query` (with the SQLSTATE in the cause; `foreign-key-violation`
  /// for SQLSTATE 23503, a declared foreign key refusing the statement),
  /// `postgres-unsupported-value`, `postgres-result`, `cancelled`, `missing-sift-functions`,
  /// `sift-functions-privilege`.
  package var siftError: SiftError {
    let id: DiagnosticID
    switch kind {
    case .connection: id = .postgresConnection
    case .query: id = sqlState == "23503" ? .foreignKeyViolation : .postgresQuery  // foreign_key_violation
    case .unsupportedValue: id = .postgresUnsupportedValue
    case .result: id = .postgresResult
    case .cancelled: id = .cancelled
    case .missingSetup: id = .missingSiftFunctions
    case .missingPrivilege: id = .siftFunctionsPrivilege
    }
    return SiftError(stage: .sql, id: id, message: message, underlying: self)
  }
}

extension SiftError {
  /// `error` as a `SiftError`: a `PostgresError` converted, a `SiftError` as it is.
  package static func postgres(_ error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    if let e = error as? PostgresError { return e.siftError }
    return SiftError(stage: .sql, id: .postgresError, message: "\(error)", underlying: error)
  }
}
