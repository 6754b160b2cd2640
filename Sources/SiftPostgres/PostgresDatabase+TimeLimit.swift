import Foundation
import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// `execute(_:)` with a wall-clock limit: the statement runs in its own transaction with
  /// `SET LOCAL statement_timeout`, so the server cancels it once `milliseconds` have passed
  /// (the setting ends with the transaction). A cancelled statement is the error `time-limit`
  /// (stage `.policy`); other failures are `postgres-error` (stage `.sql`).
  ///
  /// ```swift
  /// let rows = try db.execute(statement, timeLimit: 2000)
  /// ```
  public func execute(_ statement: SQLStatement, timeLimit milliseconds: Int) throws(SiftError) -> [[SQLValue]] {
    // Before the transaction: the check's query of a table the database lacks fails, and a
    // failed statement would abort the transaction the limited statement runs in.
    try checkSchema(of: statement)
    do {
      try run("BEGIN; SET LOCAL statement_timeout = \(max(1, milliseconds))")
    } catch {
      throw PostgresDatabase.siftError(error, milliseconds: milliseconds)
    }
    do {
      let rows = try execute(statement)
      try run("COMMIT")
      return rows
    } catch {
      try? run("ROLLBACK")
      throw PostgresDatabase.siftError(error, milliseconds: milliseconds)
    }
  }

  /// Runs a client's request under a policy: checked and made safe
  /// (`SiftQueryPolicy.applying(to:variables:)`), compiled by `compiler` (a
  /// `PostgreSQLDialect` one), and run with the policy's time limit.
  ///
  /// ```swift
  /// let rows = try db.execute(request, policy: policy, variables: ["USER": 42], compiler: compiler)
  /// ```
  public func execute(
    _ request: SiftFetchRequest, policy: SiftQueryPolicy, variables: [String: SiftValue] = [:], compiler: SQLCompiler
  ) throws(SiftError) -> [[SQLValue]] {
    let statement = try compiler.compile(try policy.applying(to: request, variables: variables))
    if let ms = policy.limits.milliseconds { return try execute(statement, timeLimit: ms) }
    do {
      return try execute(statement)
    } catch {
      throw PostgresDatabase.siftError(error, milliseconds: 0)
    }
  }

  static func siftError(_ error: SiftError, milliseconds: Int) -> SiftError {
    if (error.underlying as? PostgresError)?.sqlState == "57014" {
      return .queryTimeLimit(milliseconds: milliseconds, underlying: error.underlying)
    }
    return error
  }
}
