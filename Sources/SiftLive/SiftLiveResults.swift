import SiftEvaluation
import SiftSyntax

/// Fetched results that stay current (`NSFetchedResultsController`): a predicate, sort
/// descriptors and an optional section key path over an in-memory store of records keyed by
/// id. Each transaction (`apply`, `perform`) updates the sorted results in place — binary
/// search, no re-fetch — and returns one `SiftChangeSet` saying what a table view must do.
///
/// The order is `SiftFetchRequest`'s in memory (`SiftSortKeyReader`; equal keys keep the
/// order the records were inserted in). With a section key path, sections are ordered by
/// the section key (ascending unless the first sort descriptor names the same key path and
/// says otherwise), objects within a section by the sort descriptors (Grammar/notes/live.md).
///
/// ```swift
/// let live = try SiftLiveResults(
///   records: venues, ids: venues.map { $0["id"] ?? .null },
///   predicate: try SiftPredicate(format: "rating >= 3"),
///   sortDescriptors: try SiftSortDescriptor.parseList("name asc"), sectionKeyPath: "city")
/// let changes = try live.apply([.update(.int(7), changedVenue)])
/// print(changes.moved, live.sections.map(\.name))
/// ```
public final class SiftLiveResults<ID: Hashable, Record> {
  struct Stored {
    var record: Record
    var seq: Int
    /// The sort keys when the record matches the predicate; nil when it does not.
    var keys: SiftSortKeys?
  }

  struct Entry {
    var keys: SiftSortKeys
    var seq: Int
    var id: ID
  }

  /// The filter (nil: every record).
  public let predicate: SiftPredicate?
  /// The sort descriptors as given.
  public let sortDescriptors: [SiftSortDescriptor]
  /// The section key path (nil: one section).
  public let sectionKeyPath: String?
  let variables: [String: SiftValue]
  let matcher: SiftMatcher?
  /// The effective order: the section key first (when there is one), then `sortDescriptors`.
  let order: SiftSortKeyReader
  var store: [ID: Stored] = [:]
  /// The fetched objects, sorted by (keys, seq).
  var entries = ChunkedArray<Entry>()
  /// Offsets in `entries` where sections start; `[0]` without a section key path.
  var sectionStarts: [Int] = [0]
  var nextSeq = 0
  let describe: (ID) -> String

  /// How one record is evaluated (matches, then its sort keys): the records themselves when
  /// they are `SiftRecord`s, their encoded form when they are `Encodable` values.
  let keysOfRecord: (Record) throws(SiftError) -> SiftSortKeys?
  /// A fresh fetch of `records`: the matching offsets in order and their sort keys.
  let fetchRecords: ([Record]) throws(SiftError) -> (ordered: [Int], keys: [SiftSortKeys])

  /// The one initializer the public ones call: `view` turns a record into what the predicate
  /// and the sort keys are evaluated on, `views` does so for many at once.
  init<View: SiftRecord>(
    records: [Record], ids: [ID], predicate: SiftPredicate?, sortDescriptors: [SiftSortDescriptor],
    sectionKeyPath: String?, variables: [String: SiftValue], options: EvaluationOptions,
    view: @escaping (Record) throws(SiftError) -> View, views: @escaping ([Record]) throws(SiftError) -> [View]
  ) throws(SiftError) {
    self.predicate = predicate
    self.sortDescriptors = sortDescriptors
    self.sectionKeyPath = sectionKeyPath
    self.variables = variables
    let describe: (ID) -> String = { id in (id as? SiftValue).map { SiftJSON.serialize($0) } ?? "\(id)" }
    self.describe = describe
    guard records.count == ids.count else {
      throw SiftError.live("\(records.count) records but \(ids.count) ids")
    }
    do throws(SiftError) {
      let matcher = try predicate?.compile(options)
      let order = try SiftSortKeyReader(
        Self.effectiveDescriptors(sortDescriptors, section: sectionKeyPath), options: options)
      self.matcher = matcher
      self.order = order
      keysOfRecord = { (record) throws(SiftError) in
        let v = try view(record)
        if let matcher, try !matcher.matches(v, variables: variables) { return nil }
        return try order.keys(of: v, variables: variables)
      }
      fetchRecords = { (records) throws(SiftError) in
        let rows = try views(records)
        let selected = try matcher?.matchingIndices(rows, variables: variables) ?? Array(rows.indices)
        // The fetch's own sort (ties keep the given, ascending order), then each key read once.
        let effective = SiftFetchRequest(entity: "", sortDescriptors: order.descriptors)
        let ordered = try effective.sort(selected, of: rows, variables: variables, options: options)
        return (ordered, try order.keys(of: rows, at: ordered, variables: variables))
      }
      let (ordered, keys) = try fetchRecords(records)
      var keysAt = [SiftSortKeys?](repeating: nil, count: records.count)
      var sorted: [Entry] = []
      sorted.reserveCapacity(ordered.count)
      for (p, k) in zip(ordered, keys) {
        keysAt[p] = k
        sorted.append(Entry(keys: k, seq: p, id: ids[p]))
      }
      store.reserveCapacity(records.count)
      for (i, (id, record)) in zip(ids, records).enumerated() {
        guard store.updateValue(Stored(record: record, seq: i, keys: keysAt[i]), forKey: id) == nil else {
          throw SiftError.live("duplicate id \(describe(id)) (record \(i))")
        }
      }
      entries = ChunkedArray(sorted)
    } catch let e where e.stage == .live {
      throw e
    } catch {
      throw SiftError.live(error.diagnostic.message, underlying: error)
    }
    nextSeq = records.count
    sectionStarts = computeSectionStarts()
  }

  /// The descriptors the results are sorted by: the section key (binary, its direction and nil
  /// placement taken from the first descriptor when that names the same key path), then
  /// `sorts`.
  static func effectiveDescriptors(_ sorts: [SiftSortDescriptor], section: String?) -> [SiftSortDescriptor] {
    guard let section else { return sorts }
    var lead = SiftSortDescriptor(section)
    if let first = sorts.first, first.keyPath == section {
      lead.ascending = first.ascending
      lead.nulls = first.nulls
    }
    return [lead] + sorts
  }

  // MARK: Reading

  /// The sections and their objects' ids (`NSFetchedResultsController.sections`); exactly one
  /// section without a section key path, only non-empty sections with one.
  public var sections: [SiftLiveSection<ID>] {
    sectionStarts.indices.map { s in
      let end = s + 1 < sectionStarts.count ? sectionStarts[s + 1] : entries.count
      let value = sectionValue(s)
      return SiftLiveSection(name: Self.name(of: value), value: value, ids: entries[sectionStarts[s]..<end].map(\.id))
    }
  }

  /// Every fetched id in order (the sections concatenated).
  public var ids: [ID] {
    var out: [ID] = []
    out.reserveCapacity(entries.count)
    entries.forEachElement { out.append($0.id) }
    return out
  }

  /// How many objects are fetched (match the predicate).
  public var count: Int { entries.count }

  /// Every stored id, fetched or not, in no particular order.
  package var storedIDs: [ID] { Array(store.keys) }

  /// The record stored under `id` (matching or not); nil when there is none.
  public func record(for id: ID) -> Record? { store[id]?.record }

  /// Where the object `id` is in the results; nil when it is not fetched. O(log n).
  ///
  /// ```swift
  /// live.indexPath(for: .int(7))   // [0, 3]
  /// ```
  public func indexPath(for id: ID) -> SiftIndexPath? {
    guard let s = store[id], let keys = s.keys else { return nil }
    return indexPath(ofFlat: lowerBound(keys, s.seq), starts: sectionStarts)
  }

  /// The id at an index path; nil when out of range.
  public func id(at path: SiftIndexPath) -> ID? {
    guard sectionStarts.indices.contains(path.section), path.item >= 0 else { return nil }
    let end = path.section + 1 < sectionStarts.count ? sectionStarts[path.section + 1] : entries.count
    let p = sectionStarts[path.section] + path.item
    return p < end ? entries[p].id : nil
  }

  func sectionValue(_ s: Int) -> SiftValue {
    guard sectionKeyPath != nil, sectionStarts[s] < entries.count else { return .null }
    return entries[sectionStarts[s]].keys.value(at: 0) ?? .null
  }

  /// `NSFetchedResultsSectionInfo.name` for a section key value.
  static func name(of value: SiftValue) -> String {
    switch value {
    case .null: return ""
    case .string(let s): return s
    case .int(let i): return String(i)
    case .bool(let b): return b ? "1" : "0"
    case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    default: return SiftJSON.serialize(value)
    }
  }

  // MARK: Transactions

  /// Applies `edits` as one transaction: all of them or, on an error, none.
  ///
  /// ```swift
  /// let changes = try live.apply([.insert(.int(12), kiosk), .delete(.int(3))])
  /// ```
  /// - Throws: `SiftError` (stage `.live`) (an unknown or duplicate id, a predicate that fails on a record).
  public func apply(_ edits: [SiftLiveEdit<ID, Record>]) throws(SiftError) -> SiftChangeSet<ID> {
    var tx = makeTransaction()
    for e in edits { try tx.apply(e) }
    return try commit(tx)
  }

  /// Runs `body` as one transaction; when it throws nothing changes.
  ///
  /// ```swift
  /// let changes = try live.perform { tx in try tx.update(.int(7)) { $0["rating"] = 5 } }
  /// ```
  /// - Throws: `SiftError`: what `body` throws when it is one, any other error of `body` as
  ///   stage `.live` (id `live-refused`, kept as `underlying`), or as `apply(_:)`.
  public func perform(
    _ body: (inout SiftLiveTransaction<ID, Record>) throws -> Void
  ) throws(SiftError) -> SiftChangeSet<ID> {
    var tx = makeTransaction()
    do { try body(&tx) } catch { throw SiftError.live(caught: error) }
    return try commit(tx)
  }

  /// Where `id` stands among equal sort keys (its sequence number), or nil when it holds no record.
  package func sequence(of id: ID) -> Int? { store[id]?.seq }

  /// Puts ids back as they were before changes a caller undoes (a live table whose SQL
  /// transaction rolled back): each id's record, or none, at its old place among equal sort
  /// keys, as one transaction. Returns the change set, which the caller does not report.
  package func restore(_ states: [(id: ID, record: Record?, sequence: Int?)]) throws(SiftError) -> SiftChangeSet<ID> {
    var tx = makeTransaction()
    for s in states {
      if let record = s.record {
        tx.set(s.id, SiftLiveTransaction<ID, Record>.Pending(record: record, seq: s.sequence ?? tx.nextSeq))
        if s.sequence == nil { tx.nextSeq += 1 }
      } else if tx.record(for: s.id) != nil {
        try tx.delete(s.id)
      }
    }
    return try commit(tx)
  }

  func makeTransaction() -> SiftLiveTransaction<ID, Record> {
    SiftLiveTransaction(
      current: { [weak self] id in self?.store[id].map { ($0.record, $0.seq) } }, nextSeq: nextSeq, describe: describe)
  }
}
