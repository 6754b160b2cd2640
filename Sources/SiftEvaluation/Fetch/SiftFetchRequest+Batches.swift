import SiftSyntax

extension SiftFetchRequest {
  /// `execute(on:)` handing the result on in batches of `fetchBatchSize` rows (memory's
  /// `fetchBatchSize`): the records are sorted and paged once (positions only), then each
  /// batch's rows are shaped — the `.properties` and `.expressions` values of one batch at a
  /// time — and given to `body`, never empty. The batches joined are `execute(on:)`'s answer.
  /// Results of one row per group or value (`.count`, `.distinct`, `.aggregates`, distinct
  /// properties) come as one batch; so does everything without a batch size (nil or 0).
  ///
  /// ```swift
  /// var request = SiftFetchRequest(entity: "Venue", resultType: .properties(["name"]))
  /// request.fetchBatchSize = 100
  /// try request.execute(on: venues) { batch in print(batch.dictionaries.count) }
  /// ```
  /// - Throws: as `execute(on:)` (a negative batch size is `invalid-fetch-request`); `body`'s error.
  public func execute<R: SiftRecord>(
    on records: [R], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions(),
    batches body: (SiftFetchResult) throws -> Void
  ) throws {
    if let size = fetchBatchSize, size < 0 {
      throw SiftError(stage: .evaluate, id: .invalidFetchRequest, message: "fetchBatchSize must not be negative")
    }
    let perRecord: Bool
    switch resultType {
    case .records, .indices, .expressions: perRecord = true
    case .properties: perRecord = !returnsDistinctResults
    case .count, .distinct, .aggregates: perRecord = false
    }
    guard let size = fetchBatchSize, size > 0, perRecord else {
      let result = try execute(on: records, variables: variables, options: options)
      if !Self.isEmpty(result) { try body(result) }
      return
    }
    try validateShape(stage: .evaluate)
    let page = try matchingIndices(in: records, variables: variables, options: options)
    var start = 0
    while start < page.count {
      let end = min(page.count, start + size)
      try body(try shaped(Array(page[start..<end]), of: records, variables: variables, options: options))
      start = end
    }
  }

  static func isEmpty(_ result: SiftFetchResult) -> Bool {
    switch result {
    case .indices(let p): return p.isEmpty
    case .count: return false
    case .values(let v): return v.isEmpty
    case .rows(_, let r): return r.isEmpty
    }
  }
}
