import Foundation
import SiftSQL
import SiftSyntax

extension MySQLDatabase: SQLDatabase {
  /// Runs one statement (`?` placeholders, prepared, every value bound) and returns every
  /// result row; a statement without a result set returns `[]`.
  ///
  /// Bindings: `.null` → `NULL`, `.integer` → `BIGINT`, `.double` → `DOUBLE`, `.bool` →
  /// `TINYINT` 0/1, `.text` → a utf8mb4 string, `.blob` → `BLOB`. Cells: integers, `YEAR` and
  /// `BIT` → `.integer` (an unsigned value above `Int64.max` → `.text` with its digits);
  /// `FLOAT`/`DOUBLE` → `.double`; `DECIMAL` → `.integer` when whole and in range, else
  /// `.double`; `DATE` → `.text` `2024-05-01`; `DATETIME`/`TIMESTAMP` → `.text`
  /// `2024-05-01 12:00:00.250000` (the column's fractional digits; UTC); `TIME` → `.text`;
  /// binary strings and blobs → `.blob`; other strings, `ENUM`, `SET`, `JSON` → `.text`.
  ///
  /// ```swift
  /// let rows = try db.execute(SQLStatement(sql: "SELECT ? * 2", bindings: [.integer(21)]))   // [[.integer(42)]]
  /// ```
  /// - Throws: `SiftError`: `mysql-query` for a statement the server refuses (its message, error
  ///   code and server in the message; a lock wait or statement timeout says which limit to
  ///   raise), `mysql-connection` when the connection is lost or closed, `mysql-result` for a
  ///   cell that cannot be read, `foreign-key-violation` for a declared key refusing a write.
  public func execute(_ statement: SQLStatement) throws(SiftError) -> [[SQLValue]] {
    try checkSchema(of: statement)
    do throws(MySQLError) {
      return try withConnection { c throws(MySQLError) in
        let prepared = try c.prepare(statement.sql)
        try prepared.execute(statement.bindings)
        return try prepared.fetch()
      }
    } catch {
      throw error.siftError
    }
  }

  /// Runs one statement that changes rows and returns how many rows it matched (`UPDATE`
  /// counts matched rows, changed or not, as PostgreSQL and SQLite do; `DELETE` and `INSERT`
  /// the rows removed or added).
  ///
  /// ```swift
  /// let n = try db.executeUpdate(SQLStatement(sql: "DELETE FROM `note` WHERE `id` = ?", bindings: [.integer(3)]))
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does.
  public func executeUpdate(_ statement: SQLStatement) throws(SiftError) -> Int {
    try checkSchema(of: statement)
    do throws(MySQLError) {
      return try withConnection { c throws(MySQLError) in
        let prepared = try c.prepare(statement.sql)
        try prepared.execute(statement.bindings)
        _ = try prepared.fetch()
        return prepared.affectedRows
      }
    } catch {
      throw error.siftError
    }
  }

  /// Runs `;`-separated statements without bindings (DDL, `BEGIN`/`COMMIT`/`ROLLBACK`,
  /// setup), stopping at the first error. `ROLLBACK` after a connection lost inside a
  /// transaction acknowledges the loss (the server already undid the transaction).
  ///
  /// ```swift
  /// try db.executeScript("CREATE TABLE t (a BIGINT); INSERT INTO t VALUES (1)")
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does.
  public func executeScript(_ sql: String) throws(SiftError) {
    let trimmed = sql.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
    if trimmed.uppercased() == "ROLLBACK", acknowledgeLostTransaction() { return }
    do throws(MySQLError) {
      try withConnection { c throws(MySQLError) in try c.executeScript(sql) }
    } catch {
      throw error.siftError
    }
  }

  /// Runs the statement with a read-only server-side cursor and hands its rows to `body`
  /// `size` at a time: the server keeps the result, this side holds one batch, and other
  /// statements may run on the connection from inside `body`.
  ///
  /// ```swift
  /// try db.forEachBatch(statement, size: 500) { rows in print(rows.count) }
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does; `body`'s error.
  public func forEachBatch(
    _ statement: SQLStatement, size: Int, _ body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError) {
    let size = max(1, size)
    try checkSchema(of: statement)
    let prepared: MySQLPreparedStatement
    do throws(MySQLError) {
      prepared = try withConnection { c throws(MySQLError) in
        let prepared = try c.prepare(statement.sql)
        try prepared.execute(statement.bindings, cursorBatch: size)
        return prepared
      }
    } catch {
      throw error.siftError
    }
    // Closed under the lock, whichever way this ends: closing talks to the server.
    defer { locked { prepared.close() } }
    while true {
      let rows: [[SQLValue]]
      do throws(MySQLError) {
        rows = try withConnection { _ throws(MySQLError) in try prepared.fetch(limit: size) }
      } catch {
        throw error.siftError
      }
      if rows.isEmpty { break }
      try body(rows)
      if rows.count < size { break }
    }
  }
}
