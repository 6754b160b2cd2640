import SiftSyntax

/// One edit of a live-results transaction.
///
/// ```swift
/// try live.apply([.insert(12, ["name": "Kiosk"]), .update(7, venue), .delete(3)])
/// ```
public enum SiftLiveEdit<ID: Hashable, Record> {
  /// Adds a record under a new id.
  case insert(ID, Record)
  /// Replaces the record stored under an existing id.
  case update(ID, Record)
  /// Removes the record stored under an existing id.
  case delete(ID)
}

/// The edits of one transaction, collected before any of them is applied: reads see the
/// transaction's own earlier edits; a thrown error discards all of them.
///
/// ```swift
/// let changes = try live.perform { tx in
///   try tx.insert(["id": 12, "name": "Kiosk"], id: 12)
///   try tx.update(7) { $0["rating"] = 5 }
///   try tx.delete(3)
/// }
/// ```
public struct SiftLiveTransaction<ID: Hashable, Record> {
  /// An id's state at the end of the transaction: its record (nil when deleted) and its place
  /// among equal sort keys (a sequence number; a (re)insert goes last).
  struct Pending {
    var record: Record?
    var seq: Int
  }

  let current: (ID) -> (record: Record, seq: Int)?
  var pending: [ID: Pending] = [:]
  /// Touched ids in first-touch order.
  var touched: [ID] = []
  var nextSeq: Int
  /// Describes an id in error messages.
  let describe: (ID) -> String

  init(current: @escaping (ID) -> (record: Record, seq: Int)?, nextSeq: Int, describe: @escaping (ID) -> String) {
    self.current = current
    self.nextSeq = nextSeq
    self.describe = describe
  }

  /// The record under `id` as the transaction sees it so far; nil when there is none.
  ///
  /// ```swift
  /// let venue = tx.record(for: 7)
  /// ```
  public func record(for id: ID) -> Record? {
    if let p = pending[id] { return p.record }
    return current(id)?.record
  }

  /// Adds `record` under `id`.
  ///
  /// - Throws: `SiftError` (stage `.live`) when `id` already holds a record.
  public mutating func insert(_ record: Record, id: ID) throws(SiftError) {
    guard self.record(for: id) == nil else { throw SiftError.live("an object with id \(describe(id)) already exists") }
    set(id, Pending(record: record, seq: nextSeq))
    nextSeq += 1
  }

  /// Replaces the record under `id`.
  ///
  /// - Throws: `SiftError` (stage `.live`) when `id` holds no record.
  public mutating func update(_ id: ID, to record: Record) throws(SiftError) {
    guard let seq = seq(of: id) else { throw SiftError.live("no object with id \(describe(id))") }
    set(id, Pending(record: record, seq: seq))
  }

  /// Changes the record under `id` in place.
  ///
  /// ```swift
  /// try tx.update(7) { $0["rating"] = 5 }
  /// ```
  /// - Throws: `SiftError` (stage `.live`) when `id` holds no record, or what `change` throws
  ///   (another error than a `SiftError` as stage `.live`, id `live-refused`, kept as `underlying`).
  public mutating func update(_ id: ID, _ change: (inout Record) throws -> Void) throws(SiftError) {
    guard var record = record(for: id) else { throw SiftError.live("no object with id \(describe(id))") }
    do { try change(&record) } catch { throw SiftError.live(caught: error) }
    try update(id, to: record)
  }

  /// Removes the record under `id`.
  ///
  /// - Throws: `SiftError` (stage `.live`) when `id` holds no record.
  public mutating func delete(_ id: ID) throws(SiftError) {
    guard let seq = seq(of: id) else { throw SiftError.live("no object with id \(describe(id))") }
    set(id, Pending(record: nil, seq: seq))
  }

  /// Applies one edit.
  public mutating func apply(_ edit: SiftLiveEdit<ID, Record>) throws(SiftError) {
    switch edit {
    case .insert(let id, let r): try insert(r, id: id)
    case .update(let id, let r): try update(id, to: r)
    case .delete(let id): try delete(id)
    }
  }

  func seq(of id: ID) -> Int? {
    if let p = pending[id] { return p.record == nil ? nil : p.seq }
    return current(id)?.seq
  }

  mutating func set(_ id: ID, _ p: Pending) {
    if pending.updateValue(p, forKey: id) == nil { touched.append(id) }
  }
}
