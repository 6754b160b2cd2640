import Foundation
import SiftEvaluation
import SiftSyntax

extension SiftLiveResults where Record: SiftRecord {
  /// Fetches `records` (stored under `ids`, same order; that order breaks ties between equal
  /// sort keys).
  ///
  /// ```swift
  /// let live = try SiftLiveResults(records: rows, ids: rows.indices.map { $0 }, predicate: nil,
  ///                                sortDescriptors: [SiftSortDescriptor("name")])
  /// ```
  /// - Throws: `SiftError` (stage `.live`) for a duplicate id, counts that differ, or a predicate or sort
  ///   key that fails to compile or to evaluate on a record.
  public convenience init(
    records: [Record], ids: [ID], predicate: SiftPredicate?, sortDescriptors: [SiftSortDescriptor],
    sectionKeyPath: String? = nil, variables: [String: SiftValue] = [:],
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) {
    try self.init(
      records: records, ids: ids, predicate: predicate, sortDescriptors: sortDescriptors,
      sectionKeyPath: sectionKeyPath, variables: variables, options: options,
      view: { (r) throws(SiftError) in r }, views: { (r) throws(SiftError) in r })
  }
}

extension SiftLiveResults where Record: Encodable {
  /// Live results over your own `Encodable` values (`[Note]`), each stored under its `id`
  /// key path: `record(for:)` gives a `Note` back, edits take `Note`s. The predicate and sort
  /// keys see each value as `SiftRecordEncoder` encodes it (a `Date` as a date, a nil optional
  /// as nil), with Swift's property names.
  ///
  /// ```swift
  /// struct Note: Codable { var id: Int; var title: String; var pinned: Bool }
  /// let live = try SiftLiveResults(
  ///   values: notes, id: \.id, predicate: try SiftPredicate(format: "pinned == YES"),
  ///   sortDescriptors: [SiftSortDescriptor("title")])
  /// let changes = try live.apply([.update(3, Note(id: 3, title: "Milk", pinned: true))])
  /// ```
  /// - Throws: `SiftError`: stage `.data` (id `not-encodable`) for a value that does not
  ///   encode as a keyed record, stage `.live` as `init(records:ids:…)`.
  @_disfavoredOverload
  public convenience init(
    values: [Record], id: KeyPath<Record, ID>, predicate: SiftPredicate?, sortDescriptors: [SiftSortDescriptor],
    sectionKeyPath: String? = nil, variables: [String: SiftValue] = [:],
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) {
    try self.init(
      records: values, ids: values.map { $0[keyPath: id] }, predicate: predicate, sortDescriptors: sortDescriptors,
      sectionKeyPath: sectionKeyPath, variables: variables, options: options,
      view: { (v) throws(SiftError) in try SiftRecordEncoder.record(v) },
      views: { (v) throws(SiftError) in try SiftRecordEncoder.batchRecords(v) })
  }

  /// Live results over your own values with Swift's own `#Predicate` and `SortDescriptor`s,
  /// converted as `SiftPredicate(_:)` and `SiftSortDescriptor(_:)` do (Swift's property names).
  ///
  /// ```swift
  /// let live = try SiftLiveResults(
  ///   values: notes, id: \.id, predicate: #Predicate<Note> { $0.pinned }, sortDescriptors: [SortDescriptor(\.title)])
  /// live.record(for: 3)?.title   // a Note's title
  /// ```
  /// - Throws: `SiftError`: stage `.convert` for a predicate or descriptor that does not
  ///   convert, otherwise as `init(values:id:predicate:sortDescriptors:…)` with Sift's own.
  public convenience init(
    values: [Record], id: KeyPath<Record, ID>, predicate: Predicate<Record>?,
    sortDescriptors: [SortDescriptor<Record>] = [], sectionKeyPath: String? = nil,
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) {
    var sorts: [SiftSortDescriptor] = []
    for d in sortDescriptors { sorts.append(try SiftSortDescriptor(d)) }
    let converted = try predicate.map { (p) throws(SiftError) in try SiftPredicate(p) }
    try self.init(
      values: values, id: id, predicate: converted, sortDescriptors: sorts, sectionKeyPath: sectionKeyPath,
      options: options)
  }
}
