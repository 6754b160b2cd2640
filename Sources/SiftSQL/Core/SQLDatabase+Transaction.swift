import SiftSyntax

extension SQLDatabase {
  /// Runs `statements` in order as one transaction (`BEGIN` … `COMMIT`): all of them, or — when
  /// one fails, or the commit does — none (`ROLLBACK`), and the error is thrown. This is how
  /// a write of several statements (`BatchDeleteRequest`'s delete and its clean-up) is run, so
  /// a later statement that fails cannot leave the earlier ones done. Call it outside any
  /// transaction of your own (SQLite refuses a nested `BEGIN`). Returns each statement's rows.
  ///
  /// ```swift
  /// try db.executeTransaction(try compiler.compile(BatchDeleteRequest(entity: "Venue", predicate: p)))
  /// ```
  /// - Throws: the database's error for the statement (or the `BEGIN`/`COMMIT`) that failed.
  @discardableResult
  public func executeTransaction(_ statements: [SQLStatement]) throws(SiftError) -> [[[SQLValue]]] {
    try executeScript("BEGIN")
    var results: [[[SQLValue]]] = []
    results.reserveCapacity(statements.count)
    do throws(SiftError) {
      for statement in statements { results.append(try execute(statement)) }
      try executeScript("COMMIT")
    } catch {
      try? executeScript("ROLLBACK")
      throw error
    }
    return results
  }
}
