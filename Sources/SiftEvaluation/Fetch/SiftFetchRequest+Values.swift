import SiftSyntax

extension SiftFetchRequest {
  /// The values of `values` the request selects, in its order and page: your own `Encodable`
  /// values, no conformance to write. Each is encoded once (as `SiftRecordEncoder` does: a `Date`
  /// compares as a date, an optional that is nil as nil), the request is evaluated as
  /// `execute(on:)` does, and the original values come back. A request made from Swift's own
  /// `#Predicate` and `SortDescriptor`s over `T` encodes nothing: it reads the properties it
  /// uses through their key paths (`note[keyPath: \.title]`).
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
  @inlinable
  public func fetch<T: Encodable>(
    from values: [T], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> [T] {
    // Inlined so that copying the selected values out is specialized for `T` in the caller's
    // module. Unspecialized, each copy went through `T`'s value witness: `perf`, `--suite
    // typed`, 313 samples in `Note`'s copy witness under the two fetches, against 289 in the
    // converted #Predicate's whole scan and sort.
    try fetchPositions(values, variables: variables, options: options).map { values[$0] }
  }

  /// The positions `fetch(from:)` returns the values of.
  @usableFromInline
  func fetchPositions<T: Encodable>(
    _ values: [T], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [Int] {
    // A converted #Predicate reads its attributes through key paths; anything else is encoded.
    if let positions = try keyPathFilterIndices(values, options: options) { return positions }
    if let records = try keyPathRecords(values) {
      return try matchingIndices(in: records, variables: variables, options: options)
    }
    // Otherwise each value is encoded, only what the request reads, and tested at once.
    if let positions = try encodedMatchingIndices(values, variables: variables, options: options) {
      return positions
    }
    let records = try SiftRecordEncoder.batchRecords(values)
    return try matchingIndices(in: records, variables: variables, options: options)
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
    if resultType == .records, let positions = try keyPathFilterIndices(values, options: options, counting: true) {
      return positions.count
    }
    var request = self
    request.resultType = .count
    let records = try records(of: values)
    guard case .count(let n) = try request.execute(on: records, variables: variables, options: options)
    else { return 0 }
    return n
  }

  /// `values` as records: through key paths when the request allows (`keyPathRecords`),
  /// otherwise encoded.
  func records<T: Encodable>(of values: [T]) throws(SiftError) -> [SiftObject] {
    if let direct = try keyPathRecords(values) { return direct }
    return try SiftRecordEncoder.batchRecords(values)
  }
}
