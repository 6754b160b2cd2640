import SiftSQL
import SiftSyntax

extension PostgresDatabase {
  /// Reads the statement through a cursor, `size` rows at a time, inside one read-only
  /// transaction (`DECLARE … CURSOR`, `FETCH FORWARD size`): the server keeps the result, this
  /// side holds one batch (`SQLDatabase.fetch(_:compiler:batches:)`). The statement's values
  /// stay bound; the count is an integer written into the `FETCH` (PostgreSQL takes no
  /// parameter there), never text from input.
  ///
  /// ```swift
  /// try db.forEachBatch(try compiler.compile(request), size: 100) { rows in print(rows.count) }
  /// ```
  /// - Throws: `SiftError` as `execute(_:)` does; `body`'s error (the transaction is rolled back).
  public func forEachBatch(
    _ statement: SQLStatement, size: Int, _ body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError) {
    let size = max(1, size)
    try executeScript("BEGIN READ ONLY")
    do {
      var declare = statement
      declare.sql = "DECLARE sift_batches NO SCROLL CURSOR FOR " + statement.sql
      _ = try execute(declare)
      let fetch = SQLStatement(sql: "FETCH FORWARD \(size) FROM sift_batches")
      while true {
        let rows = try execute(fetch)
        if rows.isEmpty { break }
        try body(rows)
        if rows.count < size { break }
      }
      try executeScript("CLOSE sift_batches; COMMIT")
    } catch {
      try? executeScript("ROLLBACK")
      throw error
    }
  }
}
