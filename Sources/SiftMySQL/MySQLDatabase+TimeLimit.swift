import Foundation
import SiftSQL
import SiftSyntax

extension MySQLDatabase {
  /// `execute(_:)` with a wall-clock limit: the session's statement limit is set to
  /// `milliseconds` for this statement (`max_statement_time` on MariaDB; `max_execution_time`
  /// on MySQL, which bounds `SELECT`s only) and put back afterwards, so the server stops it
  /// once the time has passed. A stopped statement is the error `time-limit` (stage `.policy`);
  /// other failures are as `execute(_:)` reports them.
  ///
  /// ```swift
  /// let rows = try db.execute(statement, timeLimit: 2000)
  /// ```
  public func execute(_ statement: SQLStatement, timeLimit milliseconds: Int) throws(SiftError) -> [[SQLValue]] {
    try checkSchema(of: statement)
    let ms = max(1, min(milliseconds, 31_536_000_000))
    let variable = isMariaDB ? "max_statement_time" : "max_execution_time"
    let limit = isMariaDB ? String(format: "%.3f", Double(ms) / 1000) : String(ms)
    let restored: String
    if timeouts.statement > 0 {
      restored =
        timeouts.sessionSettings(isMariaDB: isMariaDB).first { $0.hasPrefix(variable) } ?? "\(variable) = DEFAULT"
    } else {
      restored = "\(variable) = DEFAULT"
    }
    do throws(MySQLError) {
      return try withConnection { c throws(MySQLError) in
        try c.executeScript("SET SESSION \(variable) = \(limit)")
        defer { try? c.executeScript("SET SESSION " + restored) }
        let prepared = try c.prepare(statement.sql)
        try prepared.execute(statement.bindings)
        return try prepared.fetch()
      }
    } catch {
      throw MySQLDatabase.siftError(error, milliseconds: ms)
    }
  }

  /// Runs a client's request under a policy: checked and made safe
  /// (`SiftQueryPolicy.applying(to:variables:)`), compiled by `compiler` (a MySQL dialect's),
  /// and run with the policy's time limit.
  ///
  /// ```swift
  /// let rows = try db.execute(request, policy: policy, variables: ["USER": 42], compiler: compiler)
  /// ```
  public func execute(
    _ request: SiftFetchRequest, policy: SiftQueryPolicy, variables: [String: SiftValue] = [:], compiler: SQLCompiler
  ) throws(SiftError) -> [[SQLValue]] {
    let statement = try compiler.compile(try policy.applying(to: request, variables: variables))
    if let ms = policy.limits.milliseconds { return try execute(statement, timeLimit: ms) }
    return try execute(statement)
  }

  /// A statement stopped by its time limit (1969 on MariaDB, 3024 on MySQL) as `time-limit`.
  static func siftError(_ error: MySQLError, milliseconds: Int) -> SiftError {
    if error.code == 1969 || error.code == 3024 {
      return .queryTimeLimit(milliseconds: milliseconds, underlying: error)
    }
    return error.siftError
  }
}
