import Foundation
import SiftSyntax

/// Reading past a value nobody asked for: `sift eval --count` keeps only the top-level keys its
/// predicate reads (`SiftMatcher.columnarKeys`), and the parser steps over the others' values
/// without storing them. Stepping over still checks the text the way `JSONReader` (the general
/// way) would, so a file the general way refuses is refused here too (`Unsupported`, and the
/// caller reads the file the general way, which reports the error): strings with escapes or
/// control characters go through `JSONReader.parseString`, numbers follow its grammar, and a
/// nested key that starts with `$` or holds an escape (`{"$date": …}`, which the general way
/// converts and may refuse) stops the skip.
///
/// Why: a count over 267 MB of JSON Lines spent most of its time storing values of keys the
/// predicate never reads (Benchmarks.md has the figures).
extension ColumnarJSONParser {
  mutating func skipValue(depth: Int) throws(Unsupported) {
    guard i < p.count else { throw Unsupported() }
    switch p[i] {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
    case UInt8(ascii: "["): try skipArray(depth: depth + 1)
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
    default: throw Unsupported()
    }
  }

  /// (Inlined, with `skipNumber`: 3% fewer instructions counting 100,000 venues, callgrind.)
  @inline(__always) mutating func skipString() throws(Unsupported) {
    let j = ColumnarJSONParser.plainRun(p, from: i + 1, stops).end
    if j < p.count, p[j] == UInt8(ascii: "\"") {
      i = j + 1
      return
    }
    reader.i = i
    do { _ = try reader.parseString() } catch { throw Unsupported() }
    i = reader.i
  }

  mutating func skipObject(depth: Int) throws(Unsupported) {
    guard depth <= ColumnarJSONParser.maxDepth else { throw Unsupported() }
    i += 1
    if try closesAtOnce(UInt8(ascii: "}")) { return }
    repeat {
      guard i + 1 < p.count, p[i] == UInt8(ascii: "\""), p[i + 1] != UInt8(ascii: "$") else { throw Unsupported() }
      let start = i
      try skipString()
      // An escaped key may spell `$date`: the general way decides.
      guard !UnsafeBufferPointer(rebasing: p[start..<i]).contains(0x5C) else { throw Unsupported() }
      skipSpace()
      guard i < p.count, p[i] == UInt8(ascii: ":") else { throw Unsupported() }
      i += 1
      skipSpace()
      try skipValue(depth: depth)
    } while try !closesAfterMember(UInt8(ascii: "}"))
  }

  mutating func skipArray(depth: Int) throws(Unsupported) {
    guard depth <= ColumnarJSONParser.maxDepth else { throw Unsupported() }
    i += 1
    if try closesAtOnce(UInt8(ascii: "]")) { return }
    repeat {
      try skipValue(depth: depth)
    } while try !closesAfterMember(UInt8(ascii: "]"))
  }

  /// JSON's number grammar, as `number()` and `JSONReader.parseNumber` read it:
  /// `-? digits (. digits)? ([eE] [+-]? digits)?`.
  @inline(__always) mutating func skipNumber() throws(Unsupported) {
    var j = i
    if p[j] == UInt8(ascii: "-") { j += 1 }
    func digits(_ j: inout Int) -> Bool {
      let from = j
      while j < p.count, p[j] &- 0x30 < 10 { j += 1 }
      return j > from
    }
    guard digits(&j) else { throw Unsupported() }
    if j < p.count, p[j] == UInt8(ascii: ".") {
      j += 1
      guard digits(&j) else { throw Unsupported() }
    }
    if j < p.count, p[j] | 0x20 == UInt8(ascii: "e") {
      j += 1
      if j < p.count, p[j] == UInt8(ascii: "+") || p[j] == UInt8(ascii: "-") { j += 1 }
      guard digits(&j) else { throw Unsupported() }
    }
    i = j
  }

  /// The format of the date key `child` stands for, when it is one stepped over.
  @inline(__always) func skippedDateFormat(_ child: Column) -> SiftJSONDates.Format? {
    guard !dateKeys.isEmpty else { return nil }
    if child === skippedISO { return .iso8601 }
    if child === skippedSeconds { return .seconds }
    if child === skippedMilliseconds { return .milliseconds }
    return nil
  }

  /// Steps over the value of a date key the predicate does not read, checking it as the
  /// date the general way would read: `null`, text `SiftDateParser` reads (`.iso8601`), a
  /// number without an exponent (`.seconds`, `.milliseconds`: always finite), or an array of
  /// those. Anything else — escaped text, an exponent, a number under an ISO key — is left to
  /// the general way (`Unsupported`), which reads it or says why not. Storing and converting
  /// these values was 17% of counting 100,000 venues with two `--dates` keys (callgrind).
  mutating func skipDate(_ format: SiftJSONDates.Format, depth: Int) throws(Unsupported) {
    guard i < p.count else { throw Unsupported() }
    switch p[i] {
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "["):
      guard depth < ColumnarJSONParser.maxDepth else { throw Unsupported() }
      i += 1
      if try closesAtOnce(UInt8(ascii: "]")) { return }
      repeat {
        try skipDate(format, depth: depth + 1)
      } while try !closesAfterMember(UInt8(ascii: "]"))
    case UInt8(ascii: "\""):
      guard format == .iso8601 else { throw Unsupported() }
      let start = i + 1
      let j = ColumnarJSONParser.plainRun(p, from: start, stops).end
      guard j < p.count, p[j] == UInt8(ascii: "\""),
        SiftDateParser.parse(bytes: UnsafeBufferPointer(rebasing: p[start..<j])) != nil
      else { throw Unsupported() }
      i = j + 1
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard format != .iso8601 else { throw Unsupported() }
      let start = i
      try skipNumber()
      // Under 300 characters and no exponent: the value is below 1e300, so finite.
      guard i - start < 300, !UnsafeBufferPointer(rebasing: p[start..<i]).contains(where: { $0 | 0x20 == 0x65 })
      else { throw Unsupported() }
    default: throw Unsupported()
    }
  }
}
