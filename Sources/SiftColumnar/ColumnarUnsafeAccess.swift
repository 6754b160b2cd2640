import Foundation
import SiftSyntax

// SiftColumnar's unsafe constructs, in one file behind the small API the loader, the kernels
// and the scans use:
//
// - `ColumnStorageCell.s`: a column's storage without run-time exclusivity checks
//   (`@exclusivity(unchecked)`); every write to it is a method in this file.
// - The key-slot lookup (`ColumnStorage.keySlot`): keys compared as unaligned words.
// - The loader's input: the file's bytes lent as one `UnsafeBufferPointer` for the whole
//   parse (`ColumnarJSONParser.reading`), read without bounds checks in release builds (every
//   read is behind an `i < p.count` test of the parser's own), and the plain-string scan.
// - Kernel rows: a column's arrays lent as pointers at a row (`ColumnBuffers.lend`), and the
//   scratch masks kernels write into (`ColumnBuffers.scratch`).
// - `ByteStringSet`: byte strings hashed and compared from raw memory.
//
// Everything else in the module only reads through the pointers these lend, and only within
// the closure they are lent to. `@unchecked Sendable` on `Column`, `SiftColumnarRecords`,
// `ColumnarPlan` and `ColumnarScan.PartQueue` says the same as the ownership rule below (built
// once, then read only) or is a lock's (`PartQueue`).
//
// Why they exist, measured: `sift-bench --suite columnar`, release, 1,000,000 venues, each
// construct against its plain form within the hour (a shared 2-core machine at load 10-13, so
// the CPU-time figures): the unchecked storage loads at 554 MB/s of CPU time, checked at 415
// (`load_cpu_mb_per_s`; `load_vs_rows` 12.4 against 10.1): kept. Re-measured and removed:
// child columns lent unretained from the key slots (`Unmanaged`, `_withUnsafeGuaranteedRef`;
// 8.4% of counting JSON Lines once, perf): 554 MB/s against 568 with plain references, no
// gain, so the loader now holds plain references. The kernels' lent rows and the parser's
// lent input were not measured against a plain form this time (their reasons are beside them).
//
// The rule that keeps them sound: a column is built by one thread (the loader) and only read
// after it is finished; a parent column owns its children (a key slot's column is always also
// in `fields`, or is one of the parser's own stand-in columns), and whoever lends (the parser
// over `bytes`, a kernel over a column, a scan over its masks) owns what it lends for as long
// as the closure runs.

// MARK: - A column's storage, without exclusivity checks

/// Where a `Column` keeps its values (`ColumnStorage`).
///
/// Unchecked: the one remaining check per append, key lookup and value read was still 23% of
/// the instructions of loading 20,000 venues (callgrind over `sift eval --count --data`, 5 MB:
/// `swift_beginAccess`, `AccessSet::insert`, `swift_endAccess` and their thread-local lookups;
/// 286 M instructions checked, 209 M unchecked). No access can overlap: a column is built by one
/// thread (the loader) and only read after, and a `ColumnStorage` method only ever reaches other
/// columns (its children, always new objects, never itself or a parent). Every write is in this
/// file.
class ColumnStorageCell {
  @exclusivity(unchecked) final fileprivate(set) var s = ColumnStorage()
}

/// The loader's writes into a column (each forwarded to its storage).
extension Column {
  func appendNull(_ row: Int) throws(Unsupported) { try s.appendNull(row) }
  func appendInt(_ v: Int64, _ row: Int) throws(Unsupported) { try s.appendInt(v, row) }
  func appendDouble(_ v: Double, _ row: Int) throws(Unsupported) { try s.appendDouble(v, row) }
  func appendBool(_ v: Bool, _ row: Int) throws(Unsupported) { try s.appendBool(v, row) }
  func appendDate(_ v: Date, _ row: Int) throws(Unsupported) { try s.appendDate(v, row) }
  func appendString(_ p: UnsafeBufferPointer<UInt8>, ascii: Bool, _ row: Int) throws(Unsupported) {
    try s.appendString(p, ascii: ascii, row)
  }
  func appendString(_ text: String, _ row: Int) throws(Unsupported) { try s.appendString(text, row) }
  func beginArray(_ row: Int) throws(Unsupported) -> Column? { try s.beginArray(row) }
  func endArray() { s.endArray() }
  func beginObject(_ row: Int) throws(Unsupported) -> Bool { try s.beginObject(row) }
  func endObject() { s.endObject() }
  func field(_ key: String) -> Column { s.field(key) }
  func append(_ v: SiftValue, _ row: Int, depth: Int = 64) throws(Unsupported) { try s.append(v, row, depth: depth) }
  func finish(rows: Int) { s.finish(rows: rows) }
  func convertToDates(_ format: SiftJSONDates.Format) -> Bool { s.convertToDates(format) }

  /// `.object`, for the loader: the column of the key at `position` in the previous record,
  /// when the text at `start` is that key again and its closing quote; and where the key ends.
  /// (Inlined into the parser with `ColumnStorage.keySlot` and `ColumnarJSONParser.key`: 10.7%
  /// fewer instructions counting 100,000 venues of JSON Lines, 3.2% loading them whole;
  /// callgrind.)
  @inline(__always) func keySlot(_ position: Int, _ p: UnsafeBufferPointer<UInt8>, _ start: Int) -> (Column, Int)? {
    s.keySlot(position, p, start)
  }

  func rememberKey(_ position: Int, _ key: UnsafeBufferPointer<UInt8>, _ column: Column) {
    s.rememberKey(position, key, column)
  }
}

extension ColumnStorage {
  /// The column of the key at `position` of the previous record, when the text at `start` (just
  /// past a key's opening quote) is that key and its closing quote; and where the key ends.
  @inline(__always) func keySlot(_ position: Int, _ p: UnsafeBufferPointer<UInt8>, _ start: Int) -> (Column, Int)? {
    guard position < slotColumns.count, let text = p.baseAddress else { return nil }
    let a = position == 0 ? 0 : slotEnds[position - 1]
    let n = slotEnds[position] - a
    let end = start + n
    guard end < p.count, p[end] == UInt8(ascii: "\"") else { return nil }
    guard
      n == 0
        || slotBytes.withUnsafeBufferPointer({ $0.baseAddress.map { Self.same($0 + a, text + start, n) } })
          == true
    else { return nil }
    return (slotColumns[position], end)
  }

  /// Whether the `n` bytes (`n` > 0) at `a` and `b` are the same. Keys are short: up to 16
  /// bytes are compared as two overlapping words, loaded from inside both runs. A loop of byte
  /// comparisons cost twice `memcmp`'s instructions here, and calling `memcmp` was 5.7% of
  /// counting 267 MB of JSON Lines (perf).
  @inline(__always)
  static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let x = UnsafeRawPointer(a)
    let y = UnsafeRawPointer(b)
    switch n {
    case 8...16:
      return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
        && x.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
          == y.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    case 4..<8:
      return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
        && x.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
          == y.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
    case 1..<4:
      return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]
    default:
      return memcmp(a, b, n) == 0
    }
  }
}

// MARK: - The loader's input

extension ColumnarJSONParser {
  /// `body` with `bytes` lent as one buffer for the whole parse (the caller keeps `bytes`).
  static func reading<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    bytes.withUnsafeBufferPointer(body)
  }

  /// Where the plain run of string bytes from `j` stops (at `"`, `\`, a control character or
  /// the end), and every byte of the run or-ed together (below 0x80: ASCII). One table load
  /// and test a byte (`stops`), without a bounds check: three comparisons were about 6
  /// instructions a byte (callgrind, loading).
  @inline(__always)
  static func plainRun(_ p: UnsafeBufferPointer<UInt8>, from j: Int, _ stops: [UInt8]) -> (end: Int, high: UInt8) {
    var j = j
    var high: UInt8 = 0
    stops.withUnsafeBufferPointer { stops in
      while j < p.count {
        let b = p[j]
        if stops[Int(b)] != 0 { break }
        high |= b
        j += 1
      }
    }
    return (j, high)
  }

  /// Whether `p[start..<end]` holds a line feed (`memchr`).
  static func hasLineFeed(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    guard let base = p.baseAddress, start < end, end <= p.count else { return false }
    return memchr(base + start, 0x0A, end - start) != nil
  }

  /// Whether `p` holds `word` at `i`.
  static func holds(_ p: UnsafeBufferPointer<UInt8>, _ word: StaticString, at i: Int) -> Bool {
    let n = word.utf8CodeUnitCount
    guard let base = p.baseAddress, i + n <= p.count else { return false }
    return memcmp(base + i, word.utf8Start, n) == 0
  }
}

// MARK: - Kernel rows and scratch masks

/// A column's arrays lent to kernels as pointers, and the masks kernels write into.
///
/// The loops read through raw pointers: the row range is checked once against the column
/// (every column of a data set has a row for every record), and a bounds check per value kept
/// the numeric loops from vectorizing (`sift-bench --suite columnar`, `scan_vs_loop`).
enum ColumnBuffers {
  /// `body` with a pointer to `a[from]`, valid for `count` elements (checked once here); an
  /// empty array lends a pointer to nothing readable (kernels read no element of an empty run).
  @inline(__always)
  static func lend<T, R>(_ a: [T], from: Int, count: Int, _ body: (UnsafePointer<T>) -> R) -> R {
    precondition(from >= 0 && count >= 0 && from + count <= a.count, "a column has a row for every record")
    return a.withUnsafeBufferPointer { b in
      if let base = b.baseAddress { return body(base + from) }
      // A place to point at, never read (the run is empty); a capacity of 1 always has one.
      return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { z in
        body(UnsafePointer(z.baseAddress.unsafelyUnwrapped))
      }
    }
  }

  /// `body` with a scratch buffer of `count` elements (uninitialized; the kernels write each
  /// before they read it), freed after.
  @inline(__always)
  static func scratch<T, R>(_ type: T.Type, _ count: Int, _ body: (UnsafeMutablePointer<T>) throws -> R) rethrows -> R {
    let p = UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
    defer { p.deallocate() }
    return try body(p)
  }

  /// `bytes` with every ASCII capital lower-cased, in one pass over the buffer.
  static func lowerASCII(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBufferPointer { b in
      for k in b.indices where b[k] &- 0x41 < 26 { b[k] |= 0x20 }
    }
  }
}

// MARK: - Byte strings hashed for lookups from a column

/// Byte strings hashed for lookups straight from a column's bytes (no `String` or array made
/// per row). Hashed with the standard library's seeded `Hasher`, so a list chosen to collide
/// cannot turn lookups into scans.
struct ByteStringSet: Sendable {
  /// The elements by hash: the hash of their bytes, then the elements with that hash.
  private var buckets: [Int: [[UInt8]]] = [:]

  init(_ elements: [[UInt8]]) {
    for e in elements {
      let h = e.withUnsafeBytes(Self.hash)
      if buckets[h]?.contains(e) == true { continue }
      buckets[h, default: []].append(e)
    }
  }

  /// Whether the `n` bytes at `p` are an element.
  @inline(__always)
  func contains(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard let candidates = buckets[Self.hash(UnsafeRawBufferPointer(start: p, count: n))] else { return false }
    for c in candidates where c.count == n {
      if n == 0 { return true }
      if c.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, p, n) == 0 } ?? false }) { return true }
    }
    return false
  }

  static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var h = Hasher()
    h.combine(bytes: bytes)
    return h.finalize()
  }
}
