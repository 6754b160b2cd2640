import SiftSyntax

extension SQLDatabase {
  /// Reads every row, then hands them on in batches (a database without a streaming reader).
  ///
  /// ```swift
  /// try db.forEachBatch(statement, size: 100) { rows in print(rows.count) }
  /// ```
  public func forEachBatch(
    _ statement: SQLStatement, size: Int, _ body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError) {
    let rows = try execute(statement)
    var start = 0
    while start < rows.count {
      let end = min(rows.count, start + max(1, size))
      try body(Array(rows[start..<end]))
      start = end
    }
  }

  /// Runs a fetch request and hands its rows on in batches of `request.fetchBatchSize`
  /// (`NSFetchRequest.fetchBatchSize`): one statement, so one committed state and the rows
  /// `execute(compiler.compile(request))` gives, in the same order, with at most one batch held
  /// at a time. Without a batch size (nil or 0) the rows come as one batch. `body` is never
  /// given an empty batch; an error it throws stops the reading.
  ///
  /// ```swift
  /// var request = SiftFetchRequest(entity: "Venue")
  /// request.fetchBatchSize = 500
  /// try db.fetch(request, compiler: compiler) { rows in for row in rows { print(row) } }
  /// ```
  /// - Throws: `SiftError` from compiling (a negative batch size is `invalid-fetch-request`);
  ///   the database's error; `body`'s.
  public func fetch(
    _ request: SiftFetchRequest, compiler: SQLCompiler, batches body: ([[SQLValue]]) throws(SiftError) -> Void
  ) throws(SiftError) {
    let statement = try compiler.compile(request)
    guard let size = request.fetchBatchSize, size != 0 else {
      let rows = try execute(statement)
      if !rows.isEmpty { try body(rows) }
      return
    }
    guard size > 0 else {
      throw SiftError(stage: .sql, id: .invalidFetchRequest, message: "fetchBatchSize must not be negative")
    }
    try forEachBatch(statement, size: size, body)
  }
}
