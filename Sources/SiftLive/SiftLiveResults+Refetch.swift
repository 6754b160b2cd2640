import SiftEvaluation
import SiftSyntax

extension SiftLiveResults {
  /// The sections a fresh fetch of the current records gives (`SiftFetchRequest` over every
  /// record in insertion order, then grouped by the section key): what the live `sections`
  /// must always equal. For checking and for measuring against; it costs a full fetch.
  ///
  /// ```swift
  /// assert(try live.refetchedSections() == live.sections)
  /// ```
  /// - Throws: `SiftError` (stage `.live`) when the predicate or a sort key fails on a record.
  public func refetchedSections() throws(SiftError) -> [SiftLiveSection<ID>] {
    let stored = store.sorted { $0.value.seq < $1.value.seq }
    let records = stored.map(\.value.record)
    do {
      let (ordered, keys) = try fetchRecords(records)
      guard sectionKeyPath != nil else {
        return [SiftLiveSection(name: "", value: .null, ids: ordered.map { stored[$0].key })]
      }
      var out: [SiftLiveSection<ID>] = []
      for (i, p) in ordered.enumerated() {
        if i == 0 || order.compare(keys[i - 1], keys[i], prefix: 1) != 0 {
          let value = keys[i].value(at: 0) ?? .null
          out.append(SiftLiveSection(name: Self.name(of: value), value: value, ids: []))
        }
        out[out.count - 1].ids.append(stored[p].key)
      }
      return out
    } catch {
      throw SiftError.live(error.diagnostic.message, underlying: error)
    }
  }
}
