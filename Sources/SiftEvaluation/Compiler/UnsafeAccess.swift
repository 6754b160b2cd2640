import SiftSyntax

// The evaluator's unsafe constructs, behind the small API compiled closures and scans use.
// Each is here for a measured reason written beside it (`sift-bench --suite evaluate`: Sift's
// ns/record over the ~1,000 venues, as a ratio to the hand-written closure baseline timed in
// the same process). The one rule that keeps all of them sound: whoever lends (a `Run`,
// `FetchColumn.read`, `SiftExpressionEvaluator.value`, a running SUBQUERY) owns the record
// array, the element's collection and the `Frame` for as long as anything lent is used.
//
// Record storage has its own raw memory, with its reason beside it: `SiftObject.slots`,
// `KeyTable`'s dense table, `SiftRecordBatchEncoder`'s buffers.

// MARK: - Record arrays, read in place

/// `records` as the array it is when `S` is exactly `[S.Element]` (the cast is to the very
/// type just tested, so it is the identity), else nil.
@inlinable
func exactArray<S: Sequence>(_ records: S) -> [S.Element]? {
  guard S.self == [S.Element].self else { return nil }
  return unsafeBitCast(records, to: [S.Element].self)
}

/// An array of one of Sift's own record layouts, which evaluation reads in place. The one
/// place that decides a record array's layout: the matcher's scans and the fetch's columns
/// both lend records through it.
@usableFromInline
enum RecordArray {
  case objects([SiftObject])
  case dictionaries([[String: SiftValue]])
  case values([SiftValue])

  /// How many records.
  var count: Int {
    switch self {
    case .objects(let a): return a.count
    case .dictionaries(let a): return a.count
    case .values(let a): return a.count
    }
  }

  /// The layout of `rows`, or nil for other record types. The type tests fold away once
  /// specialized; each cast is to the very type just tested (an `as?` would check every
  /// element at run time).
  @inlinable
  init?<T: SiftRecord>(_ rows: [T]) {
    if T.self == SiftObject.self {
      self = .objects(unsafeBitCast(rows, to: [SiftObject].self))
    } else if T.self == [String: SiftValue].self {
      self = .dictionaries(unsafeBitCast(rows, to: [[String: SiftValue]].self))
    } else if T.self == SiftValue.self {
      self = .values(unsafeBitCast(rows, to: [SiftValue].self))
    } else {
      return nil
    }
  }

  /// Lends each record at `indices` (positions in the array; others are skipped) to `body`,
  /// in order, until `body` returns false. Nothing is retained or wrapped per record: a fast
  /// record is passed unretained, a dictionary by pointer to where the array stores it; only
  /// a `SiftValue` record is converted (into a value on the stack).
  @inline(__always)
  func lend<S: Sequence<Int>>(_ indices: S, _ body: (Int, RootRef) -> Bool) {
    switch self {
    case .objects(let items):
      items.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Unmanaged<SiftObject>>.stride
        for i in indices where UInt(bitPattern: i) < UInt(buf.count) {  // never past the buffer
          // A plain load of the reference, so the record is not retained.
          let u = raw.load(fromByteOffset: i &* stride, as: Unmanaged<SiftObject>.self)
          if !body(i, .object(u)) { return }
        }
      }
    case .dictionaries(let items):
      items.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return }
        for i in indices where UInt(bitPattern: i) < UInt(buf.count) {  // never past the buffer
          if !body(i, .dict(base + i)) { return }
        }
      }
    case .values(let items):
      for i in indices where UInt(bitPattern: i) < UInt(items.count) {
        if !lending(EvalValue(items[i]), { body(i, $0) }) { return }
      }
    }
  }
}

/// `body` with `value` lent as a record (`RootRef.value`), for records of any other type.
@inline(__always)
func lending<R, E: Error>(_ value: consuming EvalValue, _ body: (RootRef) throws(E) -> R) throws(E) -> R {
  var root = value
  return try withUnsafePointer(to: &root) { (p) throws(E) -> R in try body(.value(p)) }
}
