import Foundation
import SiftSyntax

/// Reads JSON records straight into columns: a top-level array of objects, one object, or
/// JSON Lines (one object per line). It reads the common shapes itself — plain strings,
/// integers, short decimals, literals, nested arrays and objects — and hands escaped
/// strings and long numbers to `JSONReader` (the parser behind `SiftJSON.parse`), so both read
/// the same values. Anything else — invalid JSON, a record that is no object, a duplicate
/// key, `{"$date": …}`, deep nesting — stops it (`Unsupported`): the caller then reads the
/// file the general way, which also reports errors with their line and column.
///
/// Why a reader of its own beside `JSONObjectReader` (the row loader's): it fills columns
/// straight from the text, 219 MB/s (568 MB/s of CPU time) against 33 for `JSONObjectReader`
/// and 15 for the general path (`sift-bench --suite columnar`, 1,000,000 venues, loaded machine).
struct ColumnarJSONParser {
  typealias Unsupported = Column.Unsupported

  let p: UnsafeBufferPointer<UInt8>
  var i = 0
  /// The general reader over the same bytes, for escaped strings and long numbers.
  var reader: JSONReader
  static let maxDepth = 48
  /// The top-level keys to store; nil for all. The values of the others are checked and
  /// stepped over (`skipValue`), and their keys get no column.
  let keep: Set<String>?
  /// Stands, in the root's key slots, for a key whose values are stepped over.
  let skipped = Column()
  /// Top-level keys not kept whose values are dates (`--dates KEY=FORMAT`): each value is
  /// checked as a date in its format while it is stepped over (`skipDate`).
  let dateKeys: [String: SiftJSONDates.Format]
  /// Stand, in the root's key slots, for a date key stepped over, one per format.
  let skippedISO = Column()
  let skippedSeconds = Column()
  let skippedMilliseconds = Column()
  /// `ColumnarJSONParser.stops`, held here: reading the static table costs a `swift_once`
  /// call per string (1.8% of counting 267 MB of JSON Lines, perf).
  let stops = ColumnarJSONParser.stops

  init(
    _ p: UnsafeBufferPointer<UInt8>, bytes: [UInt8], keep: Set<String>? = nil,
    dateKeys: [String: SiftJSONDates.Format] = [:]
  ) {
    self.p = p
    reader = JSONReader(bytes: bytes)
    self.keep = keep
    self.dateKeys = dateKeys
  }

  /// Parses every record into `root` (an object column, one row per record); the count.
  mutating func records(into root: Column) throws(Unsupported) -> Int {
    if p.count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
    skipSpace()
    guard i < p.count else { throw Unsupported() }
    var row = 0
    if p[i] == UInt8(ascii: "[") {
      i += 1
      skipSpace()
      if i < p.count, p[i] == UInt8(ascii: "]") {
        i += 1
      } else {
        while true {
          try object(into: root, row: row, depth: 1)
          row += 1
          skipSpace()
          guard i < p.count else { throw Unsupported() }
          if p[i] == UInt8(ascii: ",") {
            i += 1
            skipSpace()
            continue
          }
          guard p[i] == UInt8(ascii: "]") else { throw Unsupported() }
          i += 1
          break
        }
      }
      skipSpace()
      guard i == p.count else { throw Unsupported() }
      return row
    }
    // One object, or JSON Lines: each record on a line of its own.
    while true {
      let start = i
      try object(into: root, row: row, depth: 1)
      row += 1
      if row > 1 || hasMoreRecords() {
        // In JSON Lines a record may not span lines.
        if ColumnarJSONParser.hasLineFeed(p, start, i) { throw Unsupported() }
      }
      while i < p.count, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0D { i += 1 }
      if i == p.count { return row }
      guard p[i] == 0x0A else { throw Unsupported() }
      skipSpace()
      if i == p.count { return row }
    }
  }

  /// Whether another record follows the current position (JSON Lines).
  private func hasMoreRecords() -> Bool {
    var j = i
    while j < p.count, p[j] == 0x20 || p[j] == 0x0A || p[j] == 0x0D || p[j] == 0x09 { j += 1 }
    return j < p.count
  }

  /// (A local index and one test for the usual byte past 0x20: 6.5% of loading was here with
  /// `i` itself stepped and four comparisons first, callgrind.)
  @inline(__always)
  mutating func skipSpace() {
    var j = i
    let end = p.count
    while j < end {
      let b = p[j]
      if b > 0x20 || !(b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09) { break }
      j += 1
    }
    i = j
  }

  mutating func object(into column: Column, row: Int, depth: Int) throws(Unsupported) {
    guard i < p.count, p[i] == UInt8(ascii: "{"), depth <= ColumnarJSONParser.maxDepth else { throw Unsupported() }
    guard try column.beginObject(row) else { throw Unsupported() }
    i += 1
    if try closesAtOnce(UInt8(ascii: "}")) {
      column.endObject()
      return
    }
    var position = 0
    repeat {
      guard i < p.count, p[i] == UInt8(ascii: "\"") else { throw Unsupported() }
      let child = try key(of: column, position: position, record: depth == 1)
      position += 1
      skipSpace()
      guard i < p.count, p[i] == UInt8(ascii: ":") else { throw Unsupported() }
      i += 1
      skipSpace()
      if child === skipped {
        try skipValue(depth: depth)
      } else if depth == 1, let format = skippedDateFormat(child) {
        try skipDate(format, depth: depth)
      } else {
        try value(into: child, row: row, depth: depth)
      }
    } while try !closesAfterMember(UInt8(ascii: "}"))
    column.endObject()
  }

  /// After `{` or `[`: skips space; true, with `close` consumed, when the container is empty.
  @inline(__always)
  mutating func closesAtOnce(_ close: UInt8) throws(Unsupported) -> Bool {
    skipSpace()
    guard i < p.count else { throw Unsupported() }
    guard p[i] == close else { return false }
    i += 1
    return true
  }

  /// After a member: `,` and space consumed (false: another member follows), or `close`
  /// consumed (true); anything else is not JSON this parser reads.
  @inline(__always)
  mutating func closesAfterMember(_ close: UInt8) throws(Unsupported) -> Bool {
    skipSpace()
    guard i < p.count else { throw Unsupported() }
    if p[i] == UInt8(ascii: ",") {
      i += 1
      skipSpace()
      return false
    }
    guard p[i] == close else { throw Unsupported() }
    i += 1
    return true
  }

  /// Reads a key and finds its column: the key at the same position in the previous record
  /// of this object column, compared byte for byte with the text, else by name. A key of a
  /// `record` (top level) not in `keep` gets `skipped`.
  @inline(__always) mutating func key(of column: Column, position: Int, record: Bool) throws(Unsupported)
    -> Column
  {
    let start = i + 1
    if let (known, end) = column.keySlot(position, p, start) {
      i = end + 1
      return known
    }
    var j = start
    while j < p.count, p[j] != UInt8(ascii: "\""), p[j] != UInt8(ascii: "\\"), p[j] >= 0x20 { j += 1 }
    guard j < p.count, p[j] == UInt8(ascii: "\"") else { throw Unsupported() }  // escapes: general way
    let keyBytes = UnsafeBufferPointer(rebasing: p[start..<j])
    i = j + 1
    if keyBytes.first == UInt8(ascii: "$") { throw Unsupported() }  // `$date`, `$data`: general way
    let name = String(decoding: keyBytes, as: UTF8.self)
    let child = record && keep.map({ !$0.contains(name) }) == true ? stepOverColumn(name) : column.field(name)
    column.rememberKey(position, keyBytes, child)
    return child
  }

  /// The column standing for a top-level key whose values are stepped over: `skipped`, or the
  /// marker of a date key's format (its values are checked as dates, `skipDate`).
  func stepOverColumn(_ name: String) -> Column {
    switch dateKeys[name] {
    case nil: return skipped
    case .iso8601?: return skippedISO
    case .seconds?: return skippedSeconds
    case .milliseconds?: return skippedMilliseconds
    }
  }

  mutating func value(into column: Column, row: Int, depth: Int) throws(Unsupported) {
    guard i < p.count else { throw Unsupported() }
    switch p[i] {
    case UInt8(ascii: "\""): try string(into: column, row: row)
    case UInt8(ascii: "{"): try object(into: column, row: row, depth: depth + 1)
    case UInt8(ascii: "["): try array(into: column, row: row, depth: depth + 1)
    case UInt8(ascii: "t"):
      try literal("true")
      try column.appendBool(true, row)
    case UInt8(ascii: "f"):
      try literal("false")
      try column.appendBool(false, row)
    case UInt8(ascii: "n"):
      try literal("null")
      try column.appendNull(row)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(into: column, row: row)
    default: throw Unsupported()
    }
  }

  mutating func array(into column: Column, row: Int, depth: Int) throws(Unsupported) {
    guard depth <= ColumnarJSONParser.maxDepth, let elements = try column.beginArray(row) else { throw Unsupported() }
    i += 1
    if try closesAtOnce(UInt8(ascii: "]")) {
      column.endArray()
      return
    }
    repeat {
      try value(into: elements, row: elements.count, depth: depth)
    } while try !closesAfterMember(UInt8(ascii: "]"))
    column.endArray()
  }

  mutating func literal(_ word: StaticString) throws(Unsupported) {
    let n = word.utf8CodeUnitCount
    guard ColumnarJSONParser.holds(p, word, at: i) else { throw Unsupported() }
    i += n
  }

  mutating func string(into column: Column, row: Int) throws(Unsupported) {
    let start = i + 1
    let (j, high) = ColumnarJSONParser.plainRun(p, from: start, stops)
    if j < p.count, p[j] == UInt8(ascii: "\"") {
      i = j + 1
      let text = UnsafeBufferPointer(rebasing: p[start..<j])
      if high < 0x80 { return try column.appendString(text, ascii: true, row) }
      // Valid UTF-8 is stored as it is (a `String` of it has the same bytes: making one first
      // was 4% of loading the bench's venues, callgrind); else as `JSONReader` reads it
      // (invalid UTF-8 repaired the same way).
      if ColumnarJSONParser.isValidUTF8(text) { return try column.appendString(text, ascii: false, row) }
      return try column.appendString(String(decoding: text, as: UTF8.self), row)
    }
    reader.i = i
    do { try column.appendString(try reader.parseString(), row) } catch { throw Unsupported() }
    i = reader.i
  }

  /// Whether `b` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, surrogates,
  /// scalars past U+10FFFF or cut sequences), so `String(decoding:as:)` keeps every byte.
  static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    var k = 0
    while k < b.count {
      let c = b[k]
      if c < 0x80 {
        k += 1
        continue
      }
      let n: Int
      var lo: UInt8 = 0x80
      var hi: UInt8 = 0xBF
      switch c {
      case 0xC2...0xDF: n = 1
      case 0xE0: (n, lo) = (2, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: n = 2
      case 0xED: (n, hi) = (2, 0x9F)
      case 0xF0: (n, lo) = (3, 0x90)
      case 0xF1...0xF3: n = 3
      case 0xF4: (n, hi) = (3, 0x8F)
      default: return false
      }
      guard k + n < b.count, b[k + 1] >= lo, b[k + 1] <= hi else { return false }
      var x = 2
      while x <= n {
        guard b[k + x] & 0xC0 == 0x80 else { return false }
        x += 1
      }
      k += n + 1
    }
    return true
  }

  /// 1 for the bytes a plain string's scan stops at (`"`, `\`, control characters; see
  /// `plainRun`).
  static let stops: [UInt8] = (0..<256).map { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 ? 1 : 0 }

  static let exact: [Double] = (0...22).map { pow(10, Double($0)) }

  /// Integers of up to 18 digits and decimals of up to 15 significant digits with a small
  /// exponent read exactly here (one correctly rounded operation on exact operands); other
  /// numbers by `JSONReader` (Swift's `Double(_:)`).
  mutating func number(into column: Column, row: Int) throws(Unsupported) {
    let start = i
    var j = i
    let negative = p[j] == UInt8(ascii: "-")
    if negative { j += 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    while j < p.count, p[j] &- 0x30 < 10 {
      mantissa = mantissa &* 10 &+ UInt64(p[j] &- 0x30)
      digits += 1
      j += 1
    }
    guard digits > 0 else { throw Unsupported() }
    var scale = 0
    var isInteger = true
    if j < p.count, p[j] == UInt8(ascii: ".") {
      isInteger = false
      j += 1
      let f = j
      while j < p.count, p[j] &- 0x30 < 10 {
        mantissa = mantissa &* 10 &+ UInt64(p[j] &- 0x30)
        digits += 1
        j += 1
      }
      guard j > f else { throw Unsupported() }
      scale = f - j
    }
    var general = false
    if j < p.count, p[j] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      general = true
      j += 1
      if j < p.count, p[j] == UInt8(ascii: "+") || p[j] == UInt8(ascii: "-") { j += 1 }
      let e = j
      while j < p.count, p[j] &- 0x30 < 10 { j += 1 }
      guard j > e else { throw Unsupported() }
    }
    if isInteger, digits <= 18 {
      i = j
      return try column.appendInt(negative ? -Int64(mantissa) : Int64(mantissa), row)
    }
    if !general, digits <= 15, -scale <= 22 {
      i = j
      let d = Double(mantissa) / ColumnarJSONParser.exact[-scale]
      return try column.appendDouble(negative ? -d : d, row)
    }
    reader.i = start
    let v: SiftValue
    do { v = try reader.parseNumber() } catch { throw Unsupported() }
    i = reader.i
    try column.append(v, row)
  }
}
