import SiftSyntax

extension SiftFetchRequest {
  /// The values of `values` the request selects, in its order and page: your own `Encodable`
  /// values, no conformance to write. Each is encoded once (as `SiftRecordEncoder` does: a `Date`
  /// compares as a date, an optional that is nil as nil), the request is evaluated as
  /// `execute(on:)` does, and the original values come back.
  ///
  /// ```swift
  /// struct Note: Codable { var title: String; var createdAt: Date; var pinned: Bool }
  /// let request = SiftFetchRequest(
  ///   entity: "Note", predicate: try SiftPredicate(format: "pinned == YES AND createdAt > %@", lastWeek),
  ///   sortDescriptors: [SiftSortDescriptor("createdAt", ascending: false)], limit: 20)
  /// let recent: [Note] = try request.fetch(from: notes)
  /// ```
  /// - Throws: `SiftError`: stage `.data` (id `not-encodable`) for a value that does not
  ///   encode as a keyed record, stage `.evaluate` as `execute(on:)`.
  public func fetch<T: Encodable>(
    from values: [T], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> [T] {
    let records: [SiftObject]
    do { records = try SiftRecordBatchEncoder.records(values) } catch {
      throw SiftRecordEncoder.failure(error, encoding: T.self)
    }
    return try matchingIndices(in: records, variables: variables, options: options).map { values[$0] }
  }

  /// The number of values of `values` the request selects (its limit and offset applied).
  ///
  /// ```swift
  /// let pinned = try SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "pinned == YES")).fetchCount(from: notes)
  /// ```
  /// - Throws: as `fetch(from:)`.
  public func fetchCount<T: Encodable>(
    from values: [T], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> Int {
    var request = self
    request.resultType = .count
    let records: [SiftObject]
    do { records = try SiftRecordBatchEncoder.records(values) } catch {
      throw SiftRecordEncoder.failure(error, encoding: T.self)
    }
    guard case .count(let n) = try request.execute(on: records, variables: variables, options: options)
    else { return 0 }
    return n
  }
}
