import Foundation
import SiftSyntax

/// Encodes many values of one `Encodable` type straight into `SiftObject`s sharing one key
/// layout: each value's fields go into slots of a reused buffer (no dictionary per value, no
/// tree of boxes), which is what `SiftFetchRequest.fetch(from:)` needs over 100,000 structs.
/// Scalars, dates, data and strings go in directly; other fields (arrays, nested structs) go
/// through `SiftRecordEncoder`. A value whose keys differ from the first one's (or that is not
/// a keyed record) is encoded the general way, so the results are those of
/// `SiftRecordEncoder.records`: a nil optional is a missing key, which compares like nil.
struct SiftRecordBatchEncoder {
  static func records<T: Encodable>(_ values: [T]) throws -> [SiftObject] {
    guard let first = values.first else { return [] }
    guard case .dictionary(let d) = try SiftRecordEncoder.encode(first) else {
      throw SiftRecordEncoder.EncodingFailure(message: "\(T.self) does not encode as keyed records")
    }
    let slots = BatchSlots(keys: d.keys.sorted())
    defer { slots.releaseContainer() }
    var out: [SiftObject] = []
    out.reserveCapacity(values.count)
    for v in values {
      if let o = try slots.encode(v) {
        out.append(o)
      } else {
        guard let o = SiftObject(value: try SiftRecordEncoder.encode(v)) else {
          throw SiftRecordEncoder.EncodingFailure(message: "\(T.self) does not encode as keyed records")
        }
        out.append(o)
      }
    }
    return out
  }
}

/// The reused slot buffer of one batch, and its key layout. Slots live in raw memory (no
/// exclusivity check per field); the order fields arrive in is learned from the first value.
final class BatchSlots {
  let shape: Shape
  let keys: [String]
  let index: [String: Int]
  let count: Int
  /// The slots: a buffer of its own, or `record`'s.
  let values: UnsafeMutablePointer<EvalValue>
  /// With `init(first:reading:)`, a record whose slots are `values`: the value just filled is
  /// this record, read by the evaluator as it is (no copy into a record per value).
  let record: SiftObject?
  let filled: UnsafeMutablePointer<Bool>
  /// The slot of the n-th field encoded, as the values so far gave them.
  let order: UnsafeMutablePointer<Int>
  var learned = 0
  /// Per slot: false for an attribute nothing reads (`init(first:reading:)`), whose value is
  /// checked for its key but not stored (a nested value is not even encoded).
  let stores: [Bool]
  /// The keyed container handed to every value's `encode(to:)`, made once (`BatchEncoder`):
  /// making one per value cost an allocation per struct (`perf`, `--suite typed`). It holds
  /// these slots: whoever makes the slots calls `releaseContainer()` when done (no cycle left).
  var container: AnyObject?
  var containerKey: ObjectIdentifier?
  /// Fields encoded so far in the current value.
  var calls = 0
  /// Set when the value did something the flat layout cannot hold.
  var unsupported = false
  var cache = ShapeCache()

  init(keys: [String], reading read: Set<String>? = nil, asRecord: Bool = false) {
    self.keys = keys
    stores = keys.map { read?.contains($0) ?? true }
    var cache = ShapeCache()
    shape = cache.shape(for: keys)
    var index: [String: Int] = [:]
    for (i, k) in keys.enumerated() { index[k] = i }
    self.index = index
    count = keys.count
    if asRecord {
      let made = SiftObject(shape: shape, values: [EvalValue](repeating: .null, count: count))
      record = made
      values = made.slots
    } else {
      record = nil
      values = .allocate(capacity: max(count, 1))
      values.initialize(repeating: .null, count: count)
    }
    filled = .allocate(capacity: max(count, 1))
    filled.initialize(repeating: false, count: count)
    order = .allocate(capacity: max(count, 1))
    order.initialize(repeating: -1, count: count)
  }

  deinit {
    if record == nil {
      values.deinitialize(count: count)
      values.deallocate()
    }
    filled.deallocate()
    order.deallocate()
  }

  /// A layout learned from `first` (its keys as `SiftRecordEncoder` encodes it) that stores
  /// only the attributes in `read`, into `record`; nil when `first` does not encode as a keyed
  /// record.
  convenience init?<T: Encodable>(first: T, reading read: Set<String>) throws(SiftError) {
    let encoded: SiftValue
    do { encoded = try SiftRecordEncoder.encode(first) } catch {
      throw SiftRecordEncoder.failure(error, encoding: T.self)
    }
    guard case .dictionary(let d) = encoded else { return nil }
    self.init(keys: d.keys.sorted(), reading: read, asRecord: true)
  }

  /// Encodes `v` into the slots (`values`); false when its keys differ from the layout's.
  func fill<T: Encodable>(_ v: T) throws(SiftError) -> Bool {
    for i in 0..<count {
      values[i] = .null
      filled[i] = false
    }
    calls = 0
    unsupported = false
    do { try v.encode(to: BatchEncoder(slots: self)) } catch {
      throw SiftRecordEncoder.failure(error, encoding: T.self)
    }
    guard !unsupported, calls == count else { return false }
    for i in 0..<count where !filled[i] { return false }
    return true
  }

  /// Drops the kept container (and with it the container's reference to these slots).
  func releaseContainer() {
    container = nil
    containerKey = nil
  }

  /// `v` as a record of this layout, or nil when its keys differ.
  func encode<T: Encodable>(_ v: T) throws -> SiftObject? {
    for i in 0..<count {
      values[i] = .null
      filled[i] = false
    }
    calls = 0
    unsupported = false
    try v.encode(to: BatchEncoder(slots: self))
    guard !unsupported, calls == count else { return nil }
    for i in 0..<count where !filled[i] { return nil }
    return SiftObject(shape: shape, copying: values, count: count)
  }

  @inline(__always)
  func put(_ value: @autoclosure () -> EvalValue, _ key: String) {
    guard let i = slot(key) else { return }
    if stores[i] { values[i] = value() }
  }

  /// The slot of the field `key` arriving now, marked filled; nil (and `unsupported` set)
  /// when the value's keys differ from the layout's.
  @inline(__always)
  func slot(_ key: String) -> Int? {
    let n = calls
    calls += 1
    guard n < count else {
      unsupported = true
      return nil
    }
    var i = order[n]
    if i < 0 || keys[i] != key {
      guard let j = index[key] else {
        unsupported = true
        return nil
      }
      i = j
      order[n] = j
    }
    filled[i] = true
    return i
  }

  func putEncodable<T: Encodable>(_ value: T, _ key: String) throws {
    guard let i = slot(key), stores[i] else { return }
    if T.self == Date.self {
      // T is Date (checked above); a dynamic `as? Date` on every field of every value cost
      // 45 → 52 ms per 100,000 structs (sift-bench --suite decode).
      values[i] = .date(unsafeBitCast(value, to: Date.self))
    } else {
      values[i] = SiftObject.convert(try SiftRecordEncoder.encode(value), cache: &cache, depth: EvalLimits.maxDataDepth)
    }
  }
}

struct BatchEncoder: Encoder {
  let slots: BatchSlots
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // The container of the last value, when it was made for this `Key` (checked, so the
    // downcast holds); it has no state of its own beyond `slots`.
    if slots.containerKey == ObjectIdentifier(Key.self), let made = slots.container {
      return unsafeDowncast(made, to: BatchContainerBox<Key>.self).container
    }
    let made = BatchContainerBox(KeyedEncodingContainer(BatchKeyedContainer<Key>(slots: slots)))
    slots.container = made
    slots.containerKey = ObjectIdentifier(Key.self)
    return made.container
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1).unkeyedContainer()
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1)
  }
}

/// A keyed container kept between values (`BatchSlots.container`).
final class BatchContainerBox<Key: CodingKey> {
  let container: KeyedEncodingContainer<Key>
  init(_ container: KeyedEncodingContainer<Key>) { self.container = container }
}

struct BatchKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let slots: BatchSlots
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws { slots.put(.null, key.stringValue) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { slots.put(.bool(value), key.stringValue) }
  mutating func encode(_ value: String, forKey key: Key) throws { slots.put(.string(value), key.stringValue) }
  mutating func encode(_ value: Double, forKey key: Key) throws { slots.put(.double(value), key.stringValue) }
  mutating func encode(_ value: Float, forKey key: Key) throws { slots.put(.double(Double(value)), key.stringValue) }
  mutating func encode(_ value: Int, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { slots.put(.int(value), key.stringValue) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    slots.put(EvalValue(SiftValueEncoder.unsigned(UInt64(value))), key.stringValue)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { slots.put(.int(Int64(value)), key.stringValue) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    slots.put(EvalValue(SiftValueEncoder.unsigned(value)), key.stringValue)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try slots.putEncodable(value, key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1)
  }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    slots.unsupported = true
    return SiftValueEncoder(ref: EncodingRef(), codingPath: [], depth: 1)
  }
}

extension SiftRecordEncoder {
  /// Many values of one type as records, the fast way `SiftFetchRequest.fetch(from:)` encodes
  /// them (`SiftRecordBatchEncoder`); the failure as Sift's error (stage `.data`, `not-encodable`).
  package static func batchRecords<T: Encodable>(_ values: [T]) throws(SiftError) -> [SiftObject] {
    do { return try SiftRecordBatchEncoder.records(values) } catch { throw failure(error, encoding: T.self) }
  }
}
