import Foundation

/// The one reader of ISO-8601 date text: `{"$date": …}`, `--dates`, `CAST("…", "NSDate")`
/// (`SiftDateText`) and every text date a database stores or prints (the value codec). It takes
/// every precision, `T` or a space between day and time, `Z`, an offset (`+05:30`, `+0530`,
/// `+05`) or no zone (UTC), and a bare calendar date (midnight UTC) — what PostgreSQL prints for
/// `timestamptz` (`2024-01-05 10:30:00.25+00`), `timestamp` and `date`, what SQLite's
/// `datetime()` writes, and what Sift writes. A day its month does not have is no date.
///
/// ```swift
/// SiftDateParser.parse("2024-01-05 10:30:00.25+00")   // 2024-01-05T10:30:00.250Z
/// ```
package enum SiftDateParser {
  /// The instant `text` spells, or nil (not a date, a month 13, `infinity`, a `BC` suffix).
  package static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(bytes: $0) }
  }

  package static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
    // Inlined: as a call, reading the fields was half of the 385 instructions a date took
    // (callgrind, `sift eval --count --dates opened=iso8601` over 100,000 venues).
    @inline(__always) func num(_ from: Int, _ count: Int) -> Int? {
      guard from >= 0, count > 0, from + count <= b.count else { return nil }
      var v = 0
      for i in from..<(from + count) {
        guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
        v = v * 10 + Int(b[i] - 0x30)
      }
      return v
    }
    guard b.count >= 10, let year = num(0, 4), b[4] == 0x2D, let month = num(5, 2), b[7] == 0x2D,
      let day = num(8, 2), (1...12).contains(month), day >= 1, day <= SiftJSON.daysIn(month: month, year: year)
    else { return nil }
    var seconds = 0
    var fraction = 0.0
    var offset = 0
    var i = 10
    if i < b.count {
      guard b[i] == 0x54 || b[i] == 0x20, let h = num(11, 2), b.count > 13, b[13] == 0x3A, let m = num(14, 2),
        h < 24, m < 60
      else { return nil }
      seconds = h * 3600 + m * 60
      i = 16
      if i < b.count, b[i] == 0x3A {
        guard let s = num(17, 2), s < 61 else { return nil }
        seconds += s
        i = 19
        if i < b.count, b[i] == 0x2E {
          i += 1
          let start = i
          while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
          if i == start { return nil }
          fraction = SiftJSON.fractionValue(b[start..<i])
        }
      }
      if i < b.count {
        if b[i] == 0x5A {
          i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
          let sign = b[i] == 0x2D ? -1 : 1
          guard let oh = num(i + 1, 2), oh < 24 else { return nil }
          var om = 0
          i += 3
          if i < b.count, b[i] == 0x3A { i += 1 }
          if i < b.count {
            guard let m = num(i, 2), m < 60 else { return nil }
            om = m
            i += 2
          }
          offset = sign * (oh * 3600 + om * 60)
        }
      }
      guard i == b.count else { return nil }
    }
    let days = SiftJSON.daysFromCivil(year, month, day)
    return Date(timeIntervalSince1970: Double(days * 86_400 + seconds - offset) + fraction)
  }
}
