import SiftSyntax

extension SiftMatcher {
  /// The matching values of your own `Encodable` type, in order: each is encoded once as
  /// `SiftRecordEncoder` does (a `Date` compares as a date, a nil optional as nil), no
  /// conformance to write.
  ///
  /// ```swift
  /// struct Note: Encodable { var title: String; var pinned: Bool }
  /// let pinned = try SiftPredicate(format: "pinned == YES").compile().filter(notes)   // [Note]
  /// ```
  /// - Throws: `SiftError`: stage `.data` for a value that does not encode as a keyed record,
  ///   stage `.evaluate` as `filter(_:variables:)` on records.
  @_disfavoredOverload
  public func filter<T: Encodable>(_ values: [T], variables: [String: SiftValue] = [:]) throws(SiftError) -> [T] {
    let records: [SiftObject]
    do { records = try SiftRecordBatchEncoder.records(values) } catch {
      throw SiftRecordEncoder.failure(error, encoding: T.self)
    }
    return try matchingIndices(records, variables: variables).map { values[$0] }
  }
}
