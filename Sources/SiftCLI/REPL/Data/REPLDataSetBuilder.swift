import Foundation
import SiftEvaluation
import SiftSyntax

/// Builds a data set record by record, converting every 4,096 records to SiftEvaluation's
/// `SiftObject` form, so that a large file or `.generate` never holds all records twice (as
/// values and as objects) at the same time. The first 5,000 records are kept as values for
/// attribute inference. If a record is not a dictionary the whole set is kept as values.
///
/// ```swift
/// var b = REPLDataSetBuilder()
/// b.append(["a": 1])
/// let set = b.build(name: "t", defaultColumns: nil, origin: "memory")
/// ```
struct REPLDataSetBuilder {
  private var objects: [SiftObject] = []
  private var sample: [SiftValue] = []
  private var pending: [SiftValue] = []
  /// All records as values, once one of them turned out not to be a dictionary.
  private var values: [SiftValue]?

  static let batch = 4096
  static let sampleSize = 5000

  mutating func append(_ record: SiftValue) {
    if values != nil {
      values?.append(record)
      return
    }
    if sample.count < REPLDataSetBuilder.sampleSize { sample.append(record) }
    pending.append(record)
    if pending.count >= REPLDataSetBuilder.batch { flush() }
  }

  private mutating func flush() {
    guard values == nil, !pending.isEmpty else { return }
    if let converted = try? JSONRecords.records(from: .array(pending)) {
      objects += converted
    } else {
      values = objects.map(\.siftValue) + pending
      objects = []
    }
    pending = []
  }

  mutating func build(name: String, defaultColumns: [String]?, origin: String) -> REPLDataSet {
    flush()
    if let values { return REPLDataSet(name: name, records: values, defaultColumns: defaultColumns, origin: origin) }
    return REPLDataSet(name: name, objects: objects, sample: sample, defaultColumns: defaultColumns, origin: origin)
  }
}

/// Finds the elements of a top-level JSON array without parsing them, so that each can be
/// parsed (and converted) on its own. Returns nil for anything else or anything malformed
/// (the caller then parses the whole text, which reports the error precisely).
///
/// ```swift
/// JSONArraySplitter.elements(Array(#"[{"a": 1}, 2]"#.utf8))   // [1..<9, 11..<12]
/// ```
enum JSONArraySplitter {
  static func elements(_ bytes: [UInt8]) -> [Range<Int>]? {
    var i = 0
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    while i < bytes.count && isSpace(bytes[i]) { i += 1 }
    guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
    i += 1
    var out: [Range<Int>] = []
    var depth = 0
    var inString = false
    var escaped = false
    var start: Int?
    var closed = false
    while i < bytes.count {
      let b = bytes[i]
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
        }
        i += 1
        continue
      }
      switch b {
      case UInt8(ascii: "\""):
        inString = true
        if start == nil { start = i }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if start == nil { start = i }
      case UInt8(ascii: "}"):
        guard depth > 0 else { return nil }
        depth -= 1
      case UInt8(ascii: ","), UInt8(ascii: "]"):
        if depth > 0 {
          if b == UInt8(ascii: "]") { depth -= 1 }
          break
        }
        guard let s = start else {
          // `[]` is fine; `[,` and `[1,]` are not.
          if b == UInt8(ascii: "]") && out.isEmpty { closed = true; break }
          return nil
        }
        var end = i
        while end > s && isSpace(bytes[end - 1]) { end -= 1 }
        out.append(s..<end)
        start = nil
        if b == UInt8(ascii: "]") { closed = true }
      default:
        if start == nil && !isSpace(b) { start = i }
      }
      i += 1
      if closed { break }
    }
    guard closed, !inString else { return nil }
    while i < bytes.count && isSpace(bytes[i]) { i += 1 }
    return i == bytes.count ? out : nil
  }
}
