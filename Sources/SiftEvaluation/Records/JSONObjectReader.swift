import Foundation
import SiftSyntax

/// Reads a JSON array of objects (or one object) straight into `SiftObject`s, with
/// `SiftJSON`'s typing rules, without building `SiftValue` dictionaries first: keys are
/// collected per object, sorted once per distinct key order (records in a file usually share
/// one), and values go directly into slots.
///
/// It answers nil — and `JSONRecords` then takes the general path, `SiftJSON.parse`, which
/// reports errors with their line and column — for anything it does not handle: a syntax
/// error, JSON Lines, a record that is not an object, duplicate keys, nesting deeper than
/// `maxNesting`. So the records it returns are the ones the general path would build.
/// Why a reader of its own beside SiftColumnar's `ColumnarJSONParser` (which this module cannot
/// import, and whose columns would still have to become `SiftObject`s, a dictionary each): the
/// row evaluator's records straight from the text, 33 MB/s against 15 for the general path
/// (which also converts two date keys;
/// `objects_load_mb_per_s`, `rows_load_mb_per_s`, `sift-bench --suite columnar`).
///
/// ```swift
/// JSONObjectReader.records(Array(#"[{"a": 1}]"#.utf8))?.count   // 1
/// ```
struct JSONObjectReader {
  let bytes: [UInt8]
  var i = 0
  /// The shared scanner over the same bytes, for strings and numbers.
  var reader: JSONReader
  var cache = ShapeCache()
  /// Per nesting depth, the last object key order seen there (as read) and its sorted
  /// layout: records, and the objects nested in them, usually repeat their parent's keys.
  var layouts = [Layout?](repeating: nil, count: JSONObjectReader.maxNesting + 1)

  /// An object key order as read, its shape, and per slot the position of its value as read.
  struct Layout {
    var keys: [String]
    var shape: Shape
    var order: [Int]
  }

  /// Deepest nesting handled here (deeper documents take the general path); well under
  /// `EvalLimits.maxDataDepth`, so every nested object here is converted there too.
  static let maxNesting = 16

  struct Unsupported: Error {}

  /// The records, or nil when the general path must decide.
  static func records(_ bytes: [UInt8]) -> [SiftObject]? {
    var r = JSONObjectReader(bytes: bytes)
    return try? r.document()
  }

  init(bytes: [UInt8]) {
    self.bytes = bytes
    reader = JSONReader(bytes: bytes)
  }

  mutating func document() throws(Unsupported) -> [SiftObject] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    skipSpace()
    var out: [SiftObject] = []
    guard i < bytes.count else { throw Unsupported() }
    if bytes[i] == UInt8(ascii: "{") {
      guard case .object(let o) = try object(depth: 1) else { throw Unsupported() }
      out.append(o)
    } else if bytes[i] == UInt8(ascii: "[") {
      i += 1
      skipSpace()
      if peek(UInt8(ascii: "]")) {
        i += 1
      } else {
        while true {
          skipSpace()
          guard peek(UInt8(ascii: "{")), case .object(let o) = try object(depth: 1) else { throw Unsupported() }
          out.append(o)
          skipSpace()
          if peek(UInt8(ascii: ",")) { i += 1; continue }
          if peek(UInt8(ascii: "]")) { i += 1; break }
          throw Unsupported()
        }
      }
    } else {
      throw Unsupported()
    }
    skipSpace()
    guard i == bytes.count else { throw Unsupported() }
    return out
  }

  @inline(__always)
  func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

  mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  mutating func value(depth: Int) throws(Unsupported) -> EvalValue {
    guard i < bytes.count, depth <= JSONObjectReader.maxNesting else { throw Unsupported() }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw Unsupported()
    }
  }

  mutating func literal(_ word: StaticString, _ v: EvalValue) throws(Unsupported) -> EvalValue {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count else { throw Unsupported() }
    let w = word.utf8Start
    for k in 0..<n where bytes[i + k] != w[k] { throw Unsupported() }
    i += n
    return v
  }

  mutating func array(depth: Int) throws(Unsupported) -> EvalValue {
    i += 1
    var items: [EvalValue] = []
    skipSpace()
    if peek(UInt8(ascii: "]")) { i += 1; return .array(items) }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      if peek(UInt8(ascii: ",")) { i += 1; continue }
      if peek(UInt8(ascii: "]")) { i += 1; return .array(items) }
      throw Unsupported()
    }
  }

  mutating func object(depth: Int) throws(Unsupported) -> EvalValue {
    i += 1
    var keys: [String] = []
    var values: [EvalValue] = []
    skipSpace()
    if peek(UInt8(ascii: "}")) {
      i += 1
    } else {
      while true {
        skipSpace()
        guard peek(UInt8(ascii: "\"")) else { throw Unsupported() }
        keys.append(try string())
        skipSpace()
        guard peek(UInt8(ascii: ":")) else { throw Unsupported() }
        i += 1
        skipSpace()
        values.append(try value(depth: depth + 1))
        skipSpace()
        if peek(UInt8(ascii: ",")) { i += 1; continue }
        if peek(UInt8(ascii: "}")) { i += 1; break }
        throw Unsupported()
      }
    }
    if keys.count == 1, let special = try special(keys[0], values[0]) { return special }
    // The sorted layout: reused while objects at this depth come with the same keys in the
    // same order. (depth ≤ maxNesting: `value` checked it.)
    let layout: Layout
    if let last = layouts[depth], last.keys == keys {
      layout = last
    } else {
      let order = keys.indices.sorted { keys[$0] < keys[$1] }
      // Duplicate keys: the general reader decides (the last one wins there).
      for k in order.indices.dropFirst() where keys[order[k]] == keys[order[k - 1]] { throw Unsupported() }
      layout = Layout(keys: keys, shape: cache.shape(for: order.map { keys[$0] }), order: order)
      layouts[depth] = layout
    }
    var slots: [EvalValue] = []
    slots.reserveCapacity(values.count)
    for k in layout.order { slots.append(values[k]) }
    return .object(SiftObject(shape: layout.shape, values: slots))
  }

  /// `{"$date": …}` and `{"$data": …}` as `SiftJSON` reads them (nil: an ordinary object).
  func special(_ key: String, _ v: EvalValue) throws(Unsupported) -> EvalValue? {
    switch (key, v) {
    case ("$date", .string(let s)):
      guard let d = SiftJSON.parseDate(s) else { throw Unsupported() }
      return .date(d)
    case ("$date", .int(let n)): return .date(Date(timeIntervalSince1970: Double(n)))
    case ("$date", .double(let n)): return .date(Date(timeIntervalSince1970: n))
    case ("$data", .string(let s)):
      guard let d = Data(base64Encoded: s) else { throw Unsupported() }
      return .data(d)
    default: return nil
    }
  }

  /// A string, read by `JSONReader` (the scanner behind `SiftJSON.parse` and the columnar
  /// loader), so all three decode strings alike.
  mutating func string() throws(Unsupported) -> String {
    reader.i = i
    let s: String
    do { s = try reader.parseString() } catch { throw Unsupported() }
    i = reader.i
    return s
  }

  /// A number, read by `JSONReader` (its typing: an integer that fits is `.int`).
  mutating func number() throws(Unsupported) -> EvalValue {
    reader.i = i
    let v: SiftValue
    do { v = try reader.parseNumber() } catch { throw Unsupported() }
    i = reader.i
    switch v {
    case .int(let n): return .int(n)
    case .double(let d): return .double(d)
    default: throw Unsupported()
    }
  }
}
