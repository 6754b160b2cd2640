import Foundation

/// Byte-level JSON parser behind `SiftJSON.parse`. Iterative over arrays and objects'
/// members; nesting is bounded by `SiftJSON.maxDepth`. The columnar loader (`SiftColumnar`)
/// scans the common shapes itself and hands escaped strings and long numbers to this reader.
package struct JSONReader {
  package let bytes: [UInt8]
  package var i = 0
  var depth = 0

  package init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws(SiftJSON.SyntaxError) -> SiftValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    skipSpace()
    let v = try parseValue()
    skipSpace()
    if i < bytes.count { throw error("unexpected text after the JSON value") }
    return v
  }

  package func error(_ message: String) -> SiftJSON.SyntaxError {
    var line = 1
    var col = 1
    for b in bytes[0..<min(i, bytes.count)] {
      if b == 0x0A { line += 1; col = 1 } else { col += 1 }
    }
    return SiftJSON.SyntaxError(message: message, offset: i, line: line, column: col)
  }

  mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  package mutating func parseValue() throws(SiftJSON.SyntaxError) -> SiftValue {
    guard i < bytes.count else { throw error("unexpected end of JSON") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character in JSON")
    }
  }

  mutating func literal(_ word: String, _ value: SiftValue) throws(SiftJSON.SyntaxError) -> SiftValue {
    let w = Array(word.utf8)
    guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else {
      throw error("invalid literal, expected \(word)")
    }
    i += w.count
    return value
  }

  mutating func enter() throws(SiftJSON.SyntaxError) {
    depth += 1
    if depth > SiftJSON.maxDepth { throw error("JSON nests deeper than \(SiftJSON.maxDepth) levels") }
  }

  mutating func parseArray() throws(SiftJSON.SyntaxError) -> SiftValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [SiftValue] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
    while true {
      skipSpace()
      items.append(try parseValue())
      skipSpace()
      guard i < bytes.count else { throw error("unterminated array") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
      throw error("expected ',' or ']' in array")
    }
  }

  mutating func parseObject() throws(SiftJSON.SyntaxError) -> SiftValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var dict: [String: SiftValue] = [:]
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .dictionary(dict) }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key in object") }
      let key = try parseString()
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
      i += 1
      skipSpace()
      dict[key] = try parseValue()
      skipSpace()
      guard i < bytes.count else { throw error("unterminated object") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "}") { i += 1; break }
      throw error("expected ',' or '}' in object")
    }
    if dict.count == 1 {
      if case .string(let s)? = dict["$date"] {
        guard let date = SiftJSON.parseDate(s) else {
          throw error("invalid $date \"\(s)\"; expected ISO 8601 such as 2024-03-01T00:00:00Z")
        }
        return .date(date)
      }
      if case .int(let n)? = dict["$date"] { return .date(Date(timeIntervalSince1970: Double(n))) }
      if case .double(let n)? = dict["$date"] { return .date(Date(timeIntervalSince1970: n)) }
      if case .string(let s)? = dict["$data"] {
        guard let data = Data(base64Encoded: s) else { throw error("invalid base64 in $data") }
        return .data(data)
      }
    }
    return .dictionary(dict)
  }

  package mutating func parseString() throws(SiftJSON.SyntaxError) -> String {
    i += 1
    let start = i
    // Fast path: no escapes.
    while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
      let s = String(decoding: bytes[start..<i], as: UTF8.self)
      i += 1
      return s
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: String(decoding: bytes[start..<i], as: UTF8.self).unicodeScalars)
    var runStart = i
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        scalars.append(contentsOf: String(decoding: bytes[runStart..<i], as: UTF8.self).unicodeScalars)
        i += 1
        return String(scalars)
      }
      if b < 0x20 { throw error("control character in JSON string") }
      if b == UInt8(ascii: "\\") {
        scalars.append(contentsOf: String(decoding: bytes[runStart..<i], as: UTF8.self).unicodeScalars)
        i += 1
        guard i < bytes.count else { break }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          {
            i += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
          }
          scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default: throw error("invalid escape in JSON string")
        }
        runStart = i
        continue
      }
      i += 1
    }
    throw error("unterminated JSON string")
  }

  mutating func hex4() throws(SiftJSON.SyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[i]
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 0x61 + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 0x41 + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
      v = v * 16 + d
      i += 1
    }
    return v
  }

  package mutating func parseNumber() throws(SiftJSON.SyntaxError) -> SiftValue {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    let digitsStart = i
    // Integers that fit (Int64.min aside) are read without text.
    var n: Int64 = 0
    var overflow = false
    while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
      let (m, o1) = n.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(Int64(bytes[i] - 0x30))
      overflow = overflow || o1 || o2
      n = a
      i += 1
    }
    if i == digitsStart { throw error("invalid number") }
    var isInteger = true
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      isInteger = false
      i += 1
      let f = i
      while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
      if i == f { throw error("invalid number: digits expected after '.'") }
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      let e = i
      while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
      if i == e { throw error("invalid number: digits expected in exponent") }
    }
    if isInteger && !overflow { return .int(bytes[start] == UInt8(ascii: "-") ? -n : n) }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    if isInteger, let n = Int64(text) { return .int(n) }
    guard let d = Double(text) else { throw error("invalid number") }
    return .double(d)
  }
}
