/// The text of a number and the number a text spells, as `CAST` defines them: the one rule
/// in-memory evaluation and the SQL functions SiftSQLite registers (`sift_number_text`,
/// `sift_text_number`) both call, and that PostgreSQL's `sift.sift_number_text` and
/// `sift.sift_text_number` (`PostgresCastSQL`) are written to reproduce.
///
/// ```swift
/// SiftNumberText.text(3.0)          // "3"
/// SiftNumberText.number(" 2.50 ")   // .double(2.5)
/// ```
package enum SiftNumberText {
  /// `CAST(d, "NSString")`: an integral double that fits in 64 bits in decimal without `.0`
  /// (`-0.0` is `0`); any other its shortest round-trip text, Swift's `description` (`0.1`,
  /// `1e-05`, `1e+20`, `inf`, `-inf`, `nan`).
  /// Every NaN is `nan`: Swift writes `-nan` for one whose sign bit is set, which `inf * 0`
  /// gives on x86 (a NaN's sign means nothing, and no database keeps it).
  package static func text(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d == d.rounded(), let i = Int64(exactly: d) { return String(i) }
    return "\(d)"
  }

  /// The spaces `number(_:)` strips from both ends: tab and every Unicode space separator
  /// (general category Zs), what Foundation's `CharacterSet.whitespaces` holds.
  package static let spaces: [Unicode.Scalar] = [
    "\u{09}", "\u{20}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}", "\u{2004}",
    "\u{2005}", "\u{2006}", "\u{2007}", "\u{2008}", "\u{2009}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}",
  ]

  /// `CAST(text, "NSNumber")`: `text` without surrounding `spaces`, when it is a decimal
  /// number — `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?` — an integer while it
  /// has neither point nor exponent and fits in 64 bits, else the nearest double (beyond the
  /// double range ±infinity, below it 0). Anything else (`""`, `"1,5"`, `"0x10"`, `"inf"`,
  /// `"nan"`) is nil.
  package static func number(_ text: String) -> SiftValue? {
    var scalars = Substring(text).unicodeScalars[...]
    while let f = scalars.first, spaces.contains(f) { scalars = scalars.dropFirst() }
    while let l = scalars.last, spaces.contains(l) { scalars = scalars.dropLast() }
    let s = String(String.UnicodeScalarView(scalars))
    guard let integral = shape(s) else { return nil }
    if integral, let i = Int64(s) { return .int(i) }
    return Double(s).map { .double($0) }
  }

  /// Whether `s` is a decimal number (nil if not), and whether it is written as an integer.
  static func shape(_ s: String) -> Bool? {
    let b = Array(s.utf8)
    var i = 0
    func digits() -> Int {
      let start = i
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
      return i - start
    }
    if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
    var count = digits()
    var integral = true
    if i < b.count, b[i] == 0x2E {
      i += 1
      integral = false
      count += digits()
    }
    guard count > 0 else { return nil }
    if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
      i += 1
      integral = false
      if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
      guard digits() > 0 else { return nil }
    }
    return i == b.count ? integral : nil
  }
}
