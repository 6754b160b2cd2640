import SiftSyntax

extension SiftFetchRequest {
  /// `execute(on:)` in the background (`NSAsynchronousFetchRequest`): the records are scanned
  /// in chunks of `progressInterval`; after each chunk `progress` is called, the task yields,
  /// and a cancelled task stops with the error `cancelled` (sorting and shaping check once
  /// more). Same answers as `execute(on:)`.
  ///
  /// ```swift
  /// let task = Task {
  ///   try await request.executeAsync(on: venues) { p in print(p.scanned, "of", p.total ?? 0) }
  /// }
  /// task.cancel()   // the fetch throws SiftError id "cancelled" at its next chunk
  /// ```
  /// - Throws: `SiftError` as `execute(on:)` does, or `cancelled` (stage `.evaluate`).
  public func executeAsync<R: SiftRecord>(
    on records: [R], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions(),
    progressInterval: Int = 4096, progress: (@Sendable (SiftFetchProgress) -> Void)? = nil
  ) async throws(SiftError) -> SiftFetchResult {
    try validate(stage: .evaluate)
    let step = max(1, progressInterval)
    let matcher = try predicate?.compile(options)
    let deadline = matcher?.program.deadlineFromNow()  // one time limit for every chunk
    var selected: [Int] = []
    var start = 0
    if Task.isCancelled { throw .cancelled(stage: .evaluate) }
    while start < records.count {
      let end = min(records.count, start + step)
      if let matcher {
        // In place: positions (and an error's "while evaluating record N") count from the first record.
        selected += try RangeScan.scan(matcher.program, records, start..<end, variables, deadline: deadline)
      } else {
        selected.append(contentsOf: start..<end)
      }
      start = end
      progress?(SiftFetchProgress(scanned: end, total: records.count, matched: selected.count))
      if Task.isCancelled { throw .cancelled(stage: .evaluate) }
      await Task.yield()
    }
    if Task.isCancelled { throw .cancelled(stage: .evaluate) }
    return try finish(selected, of: records, variables: variables, options: options)
  }
}
