import Foundation

/// Process-wide interning of record keys to small integers. Records in the fast layout
/// (`SiftObject`) and compiled key paths both use these ids, so a key lookup is an array read.
///
/// Only loading records and compiling predicates intern keys (under a lock); evaluation never
/// touches the table. The table only grows: it holds each distinct key once.
final class KeyTable: @unchecked Sendable {
  static let shared = KeyTable()

  private let lock = NSLock()
  private var ids: [String: Int] = [:]

  /// The id of `key`, assigning the next one if it is new.
  func id(for key: String) -> Int {
    lock.lock()
    defer { lock.unlock() }
    if let id = ids[key] { return id }
    let id = ids.count
    ids[key] = id
    return id
  }
}

/// The key layout shared by records with the same keys: key names by slot, and a table from key
/// id to slot. Dense (an array indexed by key id) while ids are small, a dictionary otherwise.
final class Shape: @unchecked Sendable {
  /// Key names in slot order.
  let keys: [String]
  let ids: [Int]
  /// The dense table as raw memory (immutable after init), so a lookup retains nothing.
  private let dense: UnsafeMutablePointer<Int32>
  private let denseCount: Int
  private let sparse: [Int: Int]

  /// Largest key id kept in the dense table.
  static let denseLimit = 4096

  init(keys: [String]) {
    self.keys = keys
    let ids = keys.map { KeyTable.shared.id(for: $0) }
    self.ids = ids
    let maxID = ids.max() ?? -1
    if maxID < Shape.denseLimit {
      let dense = UnsafeMutablePointer<Int32>.allocate(capacity: maxID + 1)
      dense.initialize(repeating: -1, count: maxID + 1)
      for (slot, id) in ids.enumerated() { dense[id] = Int32(slot) }
      self.dense = dense
      self.denseCount = maxID + 1
      self.sparse = [:]
    } else {
      var sparse: [Int: Int] = [:]
      for (slot, id) in ids.enumerated() { sparse[id] = slot }
      self.dense = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
      self.denseCount = 0
      self.sparse = sparse
    }
  }

  deinit { dense.deallocate() }

  /// The slot holding key `id`, or -1.
  @inline(__always)
  func slot(_ id: Int) -> Int {
    if id >= 0 && id < denseCount { return Int(dense[id]) }
    if sparse.isEmpty { return -1 }
    return sparse[id] ?? -1
  }
}

/// Reuses one `Shape` per distinct key list while converting many records.
struct ShapeCache {
  private var shapes: [[String]: Shape] = [:]

  mutating func shape(for keys: [String]) -> Shape {
    if let s = shapes[keys] { return s }
    let s = Shape(keys: keys)
    shapes[keys] = s
    return s
  }
}
