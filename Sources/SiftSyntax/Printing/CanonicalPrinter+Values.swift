import Foundation

extension CanonicalPrinter {
  /// Writes a constant: `nil`, `YES`/`NO`, numbers, `"strings"`, `CAST(…, "NSDate")`, `{…}`.
  /// A date prints as `CAST("2024-03-01T09:30:00Z", "NSDate")` when that text parses back to
  /// the very same date, else as Apple does, `CAST(<seconds since 2001>, "NSDate")`.
  func writeValue(_ v: SiftValue, into out: inout String) {
    switch v {
    case .null: out += "nil"
    case .bool(let b): out += b ? "YES" : "NO"
    case .int(let i): out += String(i)
    case .double(let d): out += CanonicalPrinter.formatDouble(d)
    case .string(let s): writeString(s, into: &out)
    case .date(let date):
      if let text = SiftDateText.exactText(date) {
        out += "CAST("
        writeString(text, into: &out)
        out += ", \"NSDate\")"
      } else {
        out += "CAST(" + CanonicalPrinter.formatDouble(date.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
      }
    case .data(let data):
      out += "<" + data.map { String(format: "%02x", $0) }.joined() + ">"
    case .array(let items):
      out += "{"
      for (i, x) in items.enumerated() {
        if i > 0 { out += ", " }
        writeValue(x, into: &out)
      }
      out += "}"
    case .dictionary(let d):
      out += "{"
      for (i, key) in d.keys.sorted().enumerated() {
        if i > 0 { out += ", " }
        writeString(key, into: &out)
        out += " = "
        writeValue(d[key] ?? .null, into: &out)
      }
      out += "}"
    }
  }

  /// A double that re-lexes to the same bits: always with a fraction or exponent; infinities
  /// as `1e999`, NaN as `CAST("nan", "NSNumber")`.
  static func formatDouble(_ d: Double) -> String {
    if d.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
    if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
    return d.description
  }

  /// A double-quoted string with `\\`, `\"` and control characters escaped.
  func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u" + String(format: "%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

extension SiftValue {
  /// True for integers and doubles.
  var isNumber: Bool {
    switch self {
    case .int, .double: return true
    default: return false
    }
  }
}
