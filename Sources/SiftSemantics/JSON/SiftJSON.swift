import Foundation

/// Sift's JSON reader and writer, with the typing rules of the batch contract:
/// a number without fraction or exponent is an integer (64-bit; larger ones become doubles),
/// `{"$date": "2024-03-01T00:00:00Z"}` is a date (ISO 8601, optional fractional seconds;
/// a number means seconds since 1970), `{"$data": "<base64>"}` is data, other objects are
/// dictionaries.
///
/// ```swift
/// let v = try SiftJSON.parse(#"{"n": 1, "d": 1.5, "when": {"$date": "2024-03-01T00:00:00Z"}}"#)
/// print(SiftJSON.serialize(v))
/// ```
package enum SiftJSON {
  /// A JSON syntax error with its position.
  package struct SyntaxError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// UTF-8 offset of the problem.
    package var offset: Int
    /// 1-based line.
    package var line: Int
    /// 1-based column (bytes).
    package var column: Int
    /// "line:column: message".
    package var description: String { "\(line):\(column): \(message)" }
  }

  /// Maximum nesting of arrays and objects.
  package static let maxDepth = 512

  /// Parses one JSON value (surrounding whitespace allowed).
  package static func parse(_ text: String) throws(SyntaxError) -> SiftValue {
    try parse(bytes: Array(text.utf8))
  }

  /// Parses one JSON value from UTF-8 bytes.
  package static func parse(bytes: [UInt8]) throws(SyntaxError) -> SiftValue {
    var reader = JSONReader(bytes: bytes)
    return try reader.parseDocument()
  }

  /// Writes compact JSON; dictionary keys are sorted so output is deterministic. An infinite
  /// double is written `1e999` / `-1e999`, a JSON number too large for a double, which this
  /// reader (like most) reads back as the same infinity; NaN, which JSON cannot write, and a
  /// date of no finite time become `null` (Grammar/README.md, "JSON output").
  package static func serialize(_ value: SiftValue) -> String {
    var out = ""
    write(value, into: &out)
    return out
  }

  static func write(_ value: SiftValue, into out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d):
      if d.isNaN {
        out += "null"
      } else if d.isInfinite {
        out += d < 0 ? "-1e999" : "1e999"  // as the canonical printer: reads back as the same value
      } else if d == d.rounded(), abs(d) < 1e15 {
        out += String(format: "%.1f", d)
      } else {
        out += "\(d)"
      }
    case .string(let s): writeString(s, into: &out)
    case .date(let date):
      // Outside the ISO years: the number of seconds, which the reader also accepts.
      let seconds = date.timeIntervalSince1970
      if !seconds.isFinite { out += "null"; return }
      out += "{\"$date\": "
      if isoSeconds.contains(seconds) { writeString(formatDate(date), into: &out) } else { out += "\(seconds)" }
      out += "}"
    case .data(let data):
      out += "{\"$data\": "
      writeString(data.base64EncodedString(), into: &out)
      out += "}"
    case .array(let items):
      out += "["
      for (i, x) in items.enumerated() {
        if i > 0 { out += ", " }
        write(x, into: &out)
      }
      out += "]"
    case .dictionary(let d):
      out += "{"
      for (i, key) in d.keys.sorted().enumerated() {
        if i > 0 { out += ", " }
        writeString(key, into: &out)
        out += ": "
        write(d[key] ?? .null, into: &out)
      }
      out += "}"
    }
  }

  /// Appends a JSON string literal.
  package static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  /// Seconds since 1970 of 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the dates with a
  /// four-digit ISO 8601 year.
  static let isoSeconds: Range<Double> = -62_167_219_200..<253_402_300_800

  /// ISO 8601 in UTC with milliseconds when needed: `2024-03-01T00:00:00Z`. A date outside
  /// the years 0000–9999 (arithmetic and CAST reach them: `CAST(1e300, "NSDate")`) has no
  /// such form and is written as its seconds since 1970 (`1e+300`, `inf`, `nan`). A NaN is
  /// `nan` whatever its sign bit (`sqrt(-1)` has it set, and Swift writes that `-nan`), as
  /// `SiftNumberText` writes it and SQL, which stores no NaN, can give it.
  package static func formatDate(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    if seconds.isNaN { return "nan" }
    guard isoSeconds.contains(seconds) else { return "\(seconds)" }
    // Rounded to the millisecond first, so a fraction that rounds up carries into the second
    // (0.9996 s is 00:00:01, not 00:00:00 with the fraction dropped: nearly a second lost).
    // The last millisecond of 9999 does not carry into the year 10000.
    let totalMillis = min((seconds * 1000).rounded(), isoSeconds.upperBound * 1000 - 1)
    let whole = (totalMillis / 1000).rounded(.down)
    let millis = Int(totalMillis - whole * 1000)
    var t = time_t(whole)
    var parts = tm()
    gmtime_r(&t, &parts)
    // Digits written by hand: `String(format:)` cost 39,000 instructions a date (callgrind,
    // `sift-bench --suite scale` writing its JSON). Every part is in range (the year 0–9999).
    var text: [UInt8] = []
    text.reserveCapacity(24)
    func put(_ n: Int, _ width: Int, after separator: UInt8? = nil) {
      if let separator { text.append(separator) }
      var unit = 1
      for _ in 1..<width { unit *= 10 }
      while unit > 0 {
        text.append(UInt8(ascii: "0") + UInt8(n / unit % 10))
        unit /= 10
      }
    }
    put(Int(parts.tm_year) + 1900, 4)
    put(Int(parts.tm_mon) + 1, 2, after: UInt8(ascii: "-"))
    put(Int(parts.tm_mday), 2, after: UInt8(ascii: "-"))
    put(Int(parts.tm_hour), 2, after: UInt8(ascii: "T"))
    put(Int(parts.tm_min), 2, after: UInt8(ascii: ":"))
    put(Int(parts.tm_sec), 2, after: UInt8(ascii: ":"))
    if millis > 0 && millis < 1000 { put(millis, 3, after: UInt8(ascii: ".")) }
    text.append(UInt8(ascii: "Z"))
    return String(decoding: text, as: UTF8.self)
  }

  /// The date ISO-8601 `text` spells, or nil (`SiftDateParser`: the one rule).
  package static func parseDate(_ text: String) -> Date? { SiftDateParser.parse(text) }

  /// The value of the digits after a decimal point, correctly rounded (`.370` is the double
  /// nearest 0.37, as `370 / 1000`; adding digit × 0.1ⁿ one by one drifts, and then a stored
  /// `…01.370Z` and the date `…01.37` were different instants). Digits past the 18th add
  /// nothing a `Date` can hold.
  package static func fractionValue<C: Collection<UInt8>>(_ digits: C) -> Double {
    var n: UInt64 = 0
    var scale = 1.0
    for d in digits.prefix(18) {
      n = n * 10 + UInt64(d - 0x30)
      scale *= 10
    }
    return Double(n) / scale
  }

  /// The number of days of `month` (1–12) in the proleptic Gregorian `year`: `2023-02-29` and
  /// `2024-04-31` are not dates (they are refused, not rolled into the next month).
  package static func daysIn(month: Int, year: Int) -> Int {
    // A switch, not an array literal: the literal was built on the heap at every call (every
    // date `--dates` reads, perf over `sift eval --count`).
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
  package static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }
}
