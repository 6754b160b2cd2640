import Foundation
import SiftSyntax

/// Short, single-line text for a value in a table cell: strings unquoted, numbers as
/// written, dates as `2024-03-01 12:00:00Z`, collections as `[a, b]` / `{k: v}` (nesting
/// beyond three levels shows as `…`), `NULL` for nil.
///
/// ```swift
/// CellFormatter.text(["wifi", "vegan"])   // "[wifi, vegan]"
/// CellFormatter.text(.null)               // "NULL"
/// ```
enum CellFormatter {
  /// Nesting depth shown before collections collapse to `…`.
  static let maxDepth = 3

  /// The cell text of `value`.
  static func text(_ value: SiftValue) -> String {
    var out = ""
    write(value, depth: 0, into: &out)
    return out
  }

  /// True when the value is right-aligned in a table (numbers).
  static func isNumeric(_ value: SiftValue) -> Bool {
    switch value {
    case .int, .double: return true
    default: return false
    }
  }

  static func write(_ value: SiftValue, depth: Int, into out: inout String) {
    switch value {
    case .null: out += depth == 0 ? "NULL" : "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += formatDouble(d)
    case .string(let s): out += depth == 0 ? singleLine(s) : "\"" + singleLine(s) + "\""
    case .date(let d): out += formatDate(d)
    case .data(let d): out += "<\(d.count) bytes>"
    case .array(let items):
      guard depth < maxDepth else { out += "[…]"; return }
      out += "["
      for (i, x) in items.enumerated() {
        if i > 0 { out += ", " }
        if out.utf8.count > 200 { out += "…"; break }
        write(x, depth: depth + 1, into: &out)
      }
      out += "]"
    case .dictionary(let d):
      guard depth < maxDepth else { out += "{…}"; return }
      out += "{"
      for (i, key) in d.keys.sorted().enumerated() {
        if i > 0 { out += ", " }
        if out.utf8.count > 200 { out += "…"; break }
        out += TerminalText.escaped(singleLine(key)) + ": "
        write(d[key] ?? .null, depth: depth + 1, into: &out)
      }
      out += "}"
    }
  }

  /// A double in its shortest round-trip form, without a trailing `.0` noise for huge values.
  static func formatDouble(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d < 0 ? "-inf" : "inf" }
    return d.description
  }

  /// `2024-03-01 12:00:00Z` (UTC), with milliseconds only when present.
  static func formatDate(_ d: Date) -> String {
    SiftJSON.formatDate(d).replacingOccurrences(of: "T", with: " ")
  }

  /// Newlines and tabs shown as spaces so a cell stays on one line; other control characters
  /// (an escape sequence in a database's text) shown escaped (`TerminalText`).
  static func singleLine(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: TerminalText.isControl) else { return s }
    let spaced = String(String.UnicodeScalarView(s.unicodeScalars.map { ["\n", "\r", "\t"].contains($0) ? " " : $0 }))
    return TerminalText.escaped(spaced)
  }
}

/// Reads a dotted key path (`location.city`) out of a record for display; a path through an
/// array collects the values of each element, like KVC does.
///
/// ```swift
/// RecordPath.value(of: "location.city", in: record)   // .string("Tokyo")
/// ```
enum RecordPath {
  static func value(of path: String, in record: SiftValue) -> SiftValue {
    var current = record
    for part in path.split(separator: ".", omittingEmptySubsequences: false) {
      current = step(current, String(part), depth: 0)
    }
    return current
  }

  private static func step(_ v: SiftValue, _ key: String, depth: Int) -> SiftValue {
    switch v {
    case .dictionary(let d): return d[key] ?? .null
    case .array(let items):
      guard depth < 8 else { return .null }
      if key == "@count" { return .int(Int64(items.count)) }
      return .array(items.map { step($0, key, depth: depth + 1) })
    default: return .null
    }
  }
}
