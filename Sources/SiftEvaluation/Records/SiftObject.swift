import SiftSyntax

/// A record in Sift's fast layout: keys interned to small integers and values in slots, with
/// nested dictionaries stored the same way. Compiled key paths read it with array lookups, no
/// hashing. `JSONRecords` and `SiftRecordEncoder` produce it; build one from any dictionary.
///
/// ```swift
/// let venue = SiftObject(["name": "Red bar", "location": ["city": "Tokyo"]])
/// let m = try SiftPredicate(format: "location.city == 'Tokyo'").compile()
/// try m.matches(venue)   // true
/// ```
///
/// Immutable and `Sendable`.
public final class SiftObject: SiftRecord, @unchecked Sendable, CustomStringConvertible {
  let shape: Shape
  /// The values by slot, as raw memory (immutable after init): slot reads retain no buffer,
  /// and a record holds its values once. (An array of the same values beside them cost 256
  /// bytes a record at 9 keys: `sift-bench --suite scale`, 1,000,000 generated venues,
  /// `bytes_per_record` 630 -> 374, and scans 1.5-4x faster with fewer cache lines per record.)
  let slots: UnsafeMutablePointer<EvalValue>
  /// The number of slots (the shape's key count).
  let count: Int

  init(shape: Shape, values: [EvalValue]) {
    self.shape = shape
    count = values.count
    slots = UnsafeMutablePointer<EvalValue>.allocate(capacity: max(values.count, 1))
    slots.initialize(from: values, count: values.count)
  }

  /// A record of `shape` holding a copy of the `count` values at `values`.
  init(shape: Shape, copying values: UnsafePointer<EvalValue>, count: Int) {
    self.shape = shape
    self.count = count
    slots = UnsafeMutablePointer<EvalValue>.allocate(capacity: max(count, 1))
    slots.initialize(from: values, count: count)
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  /// The values by slot, copied out (for comparisons and conversions, not per-record reads).
  var values: [EvalValue] { Array(UnsafeBufferPointer(start: slots, count: count)) }

  /// The value in slot `i` (`0..<count`).
  @inline(__always)
  func slotValue(_ i: Int) -> EvalValue { slots[i] }

  /// Converts a dictionary (and every dictionary nested in it, through arrays too).
  ///
  /// ```swift
  /// let o = SiftObject(["a": 1, "b": ["c": true]])
  /// ```
  public convenience init(_ dictionary: [String: SiftValue]) {
    var cache = ShapeCache()
    let (shape, values) = SiftObject.convertParts(dictionary, cache: &cache, depth: EvalLimits.maxDataDepth)
    self.init(shape: shape, values: values)
  }

  /// Converts `value` when it is a dictionary; nil otherwise.
  ///
  /// ```swift
  /// SiftObject(value: ["a": 1])?.value(forKey: "a")   // .int(1)
  /// ```
  public convenience init?(value: SiftValue) {
    guard case .dictionary(let d) = value else { return nil }
    self.init(d)
  }

  /// The keys, in stored order.
  ///
  /// ```swift
  /// SiftObject(["a": 1]).keys   // ["a"]
  /// ```
  public var keys: [String] { shape.keys }

  /// The value under `key`, converted back to a `SiftValue`.
  ///
  /// ```swift
  /// SiftObject(["a": 1]).value(forKey: "a")   // .int(1)
  /// ```
  public func value(forKey key: String) -> SiftValue? {
    guard let i = shape.keys.firstIndex(of: key) else { return nil }
    return slots[i].siftValue()
  }

  /// The record itself: the evaluator reads slots directly.
  public var siftRecordRoot: SiftRecordRoot { SiftRecordRoot(.object(self)) }

  /// The whole record as a `SiftValue` dictionary.
  ///
  /// ```swift
  /// SiftObject(["a": 1]).siftValue   // ["a": 1]
  /// ```
  public var siftValue: SiftValue { siftValue(depth: EvalLimits.maxDataDepth) }

  /// The record as compact JSON.
  public var description: String { SiftJSON.serialize(siftValue) }

  func siftValue(depth: Int) -> SiftValue {
    guard depth > 0 else { return .null }
    var d: [String: SiftValue] = [:]
    d.reserveCapacity(count)
    for (i, k) in shape.keys.enumerated() { d[k] = slots[i].siftValue(depth: depth - 1) }
    return .dictionary(d)
  }

  /// The slot value for an interned key id (`.null` when absent).
  @inline(__always)
  func value(id: Int) -> EvalValue {
    let s = shape.slot(id)
    return s >= 0 ? slots[s] : .null
  }

  /// The element count of the array in slot `id`, read in place (nil when the slot holds
  /// anything else).
  @inline(__always)
  func arrayCount(id: Int) -> Int? {
    let s = shape.slot(id)
    guard s >= 0 else { return nil }
    switch slots[s] {
    case .array(let items): return items.count
    case .values(let items): return items.count
    default: return nil
    }
  }

  /// Deep conversion with shared shapes. Past `depth`, nested collections stay as lazily read
  /// `SiftValue`s, so conversion recursion is bounded.
  static func convert(_ d: [String: SiftValue], cache: inout ShapeCache, depth: Int) -> SiftObject {
    let (shape, values) = convertParts(d, cache: &cache, depth: depth)
    return SiftObject(shape: shape, values: values)
  }

  static func convertParts(_ d: [String: SiftValue], cache: inout ShapeCache, depth: Int) -> (Shape, [EvalValue]) {
    let keys = d.keys.sorted()
    var values: [EvalValue] = []
    values.reserveCapacity(keys.count)
    for k in keys { values.append(convert(d[k] ?? .null, cache: &cache, depth: depth - 1)) }
    return (cache.shape(for: keys), values)
  }

  static func convert(_ v: SiftValue, cache: inout ShapeCache, depth: Int) -> EvalValue {
    switch v {
    case .dictionary(let d):
      return depth > 0 ? .object(convert(d, cache: &cache, depth: depth)) : .dict(d)
    case .array(let a):
      guard depth > 0 else { return .values(a) }
      return .array(a.map { convert($0, cache: &cache, depth: depth - 1) })
    default:
      return EvalValue(v)
    }
  }
}
