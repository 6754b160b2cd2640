import Foundation
import SiftSyntax

/// The exact spelling a text date column's values share — `T` or a space between date and
/// time, seconds or not, how many fraction digits, which zone suffix — so a date written into
/// the column reads like its neighbours and a hand-written query (`WHERE at =
/// '2024-01-01 00:00:30.000'`) still finds it. `SQLDateEncoding` alone says only which of a few
/// shapes the text has, and writes the fraction only when it is not zero.
///
/// ```swift
/// let form = SQLDateTextForm.common([.text("2024-01-01 00:00:30.000")])
/// form?.text(Date(timeIntervalSince1970: 30))   // "1970-01-01 00:00:30.000"
/// ```
package struct SQLDateTextForm: Sendable, Hashable {
  /// `T` or a space.
  var separator: String
  /// False for `HH:mm` without seconds.
  var seconds: Bool
  /// The fraction digits every value has (0: none; a date with milliseconds still gets them).
  var fractionDigits: Int
  /// What follows the time as written: "", "Z", or an offset (`+00:00`, `+0530`, `-08`).
  var zone: String
  /// The offset's seconds east of UTC (the written time is shifted into it).
  var offsetSeconds: Int

  /// The form of one value, or nil for text that is not a date and time (a date alone keeps
  /// `SQLDateEncoding.isoDate`).
  package init?(of text: String) {
    let b = Array(text.utf8)
    func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
    func digits(_ r: Range<Int>) -> Bool { r.allSatisfy(digit) }
    guard b.count >= 16, digits(0..<4), b[4] == 0x2D, digits(5..<7), b[7] == 0x2D, digits(8..<10),
      b[10] == 0x20 || b[10] == 0x54, digits(11..<13), b[13] == 0x3A, digits(14..<16)
    else { return nil }
    separator = b[10] == 0x20 ? " " : "T"
    var i = 16
    seconds = i < b.count && b[i] == 0x3A
    fractionDigits = 0
    if seconds {
      guard digits(i + 1..<i + 3) else { return nil }
      i += 3
      if i < b.count, b[i] == 0x2E {
        i += 1
        while digit(i) { i += 1; fractionDigits += 1 }
        guard fractionDigits > 0, fractionDigits <= 9 else { return nil }
      }
    }
    zone = String(decoding: b[i...], as: UTF8.self)
    guard let offset = Self.offset(zone) else { return nil }
    offsetSeconds = offset
  }

  /// The seconds east of UTC a zone suffix spells ("" and "Z": 0), or nil when it is none.
  static func offset(_ zone: String) -> Int? {
    if zone.isEmpty || zone == "Z" { return 0 }
    let b = Array(zone.utf8)
    guard b.first == 0x2B || b.first == 0x2D else { return nil }
    let rest = b.dropFirst().filter { $0 != 0x3A }
    guard rest.count == 2 || rest.count == 4, rest.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      b.count == 3 || b.count == 5 || (b.count == 6 && b[3] == 0x3A)
    else { return nil }
    let n = rest.map { Int($0 - 0x30) }
    let minutes = (n[0] * 10 + n[1]) * 60 + (n.count == 4 ? n[2] * 10 + n[3] : 0)
    guard minutes < 24 * 60 else { return nil }
    return (b.first == 0x2D ? -1 : 1) * minutes * 60
  }

  /// The one form every text value of `sample` shares (NULLs left out), or nil when there is
  /// none: no text value, a value of another kind, or two spellings (then the column's
  /// `SQLDateEncoding` decides, as before).
  package static func common(_ sample: [SQLValue]) -> SQLDateTextForm? {
    var form: SQLDateTextForm?
    for v in sample {
      switch v {
      case .null: continue
      case .text(let s):
        guard let f = SQLDateTextForm(of: s), form == nil || form == f else { return nil }
        form = f
      default: return nil
      }
    }
    return form
  }

  /// `date` spelled in this form, or nil outside the years 0000–9999. The fraction has the
  /// form's digits, more when the date's milliseconds (microseconds past three digits) need them.
  package func text(_ date: Date) -> String? {
    let shifted = date.addingTimeInterval(TimeInterval(offsetSeconds))
    guard
      let full = SQLDateEncoding.text(shifted, separator: separator, zone: "", microseconds: fractionDigits > 3)
    else { return nil }
    var whole = Substring(full)
    var fraction = ""
    if let dot = full.firstIndex(of: ".") {
      whole = full[..<dot]
      fraction = String(full[full.index(after: dot)...])
    }
    // Trailing zeros go down to the form's digits (a form without a fraction: milliseconds,
    // as `SQLDateEncoding` writes them).
    let kept = fractionDigits == 0 ? 3 : fractionDigits
    while fraction.count > kept, fraction.hasSuffix("0") { fraction.removeLast() }
    if fraction.count < fractionDigits { fraction += String(repeating: "0", count: fractionDigits - fraction.count) }
    if !seconds, fraction.isEmpty, whole.hasSuffix(":00") { whole = whole.dropLast(3) }
    return String(whole) + (fraction.isEmpty ? "" : "." + fraction) + zone
  }
}
