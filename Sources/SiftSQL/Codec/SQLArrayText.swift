import Foundation
import SiftSyntax

/// Reads an array stored in one column as text: a JSON array (`["a", "b"]`, SQLite TEXT or
/// PostgreSQL `jsonb`) or PostgreSQL's native array output (`{a,"b c",NULL}`), each element
/// as the `SQLValue` its element type reads as.
enum SQLArrayText {
  /// The elements, or nil when `text` is not an array of that storage (or is nested).
  static func parse(_ text: String, elementType: SQLAttributeType) -> [SQLValue]? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("{") { return native(trimmed, elementType) }
    guard let parsed = try? SiftJSON.parse(trimmed), case .array(let items) = parsed else { return nil }
    var out: [SQLValue] = []
    out.reserveCapacity(items.count)
    for item in items {
      switch item {
      case .null: out.append(.null)
      case .int(let i): out.append(elementType == .double ? .double(Double(i)) : .integer(i))
      case .double(let d): out.append(.double(d))
      case .string(let s): out.append(.text(s))
      case .bool(let b): out.append(.bool(b))
      default: return nil
      }
    }
    return out
  }

  /// PostgreSQL's text form of a one-dimensional array: `{1,2}`, `{"a b","c\"d",NULL}`.
  static func native(_ text: String, _ elementType: SQLAttributeType) -> [SQLValue]? {
    let chars = Array(text.unicodeScalars)
    guard chars.count >= 2, chars.first == "{", chars.last == "}" else { return nil }
    var out: [SQLValue] = []
    var i = 1
    let end = chars.count - 1
    if i == end { return [] }
    while i <= end {
      var item = String.UnicodeScalarView()
      var quoted = false
      if chars[i] == "\"" {
        quoted = true
        i += 1
        while i < end, chars[i] != "\"" {
          if chars[i] == "\\", i + 1 < end { i += 1 }
          item.append(chars[i])
          i += 1
        }
        guard i < end else { return nil }
        i += 1
      } else {
        while i < end, chars[i] != "," {
          if chars[i] == "{" || chars[i] == "\"" { return nil }
          item.append(chars[i])
          i += 1
        }
      }
      let s = String(item)
      if !quoted, s == "NULL" {
        out.append(.null)
      } else {
        switch elementType {
        case .integer:
          guard let n = Int64(s) else { return nil }
          out.append(.integer(n))
        case .double:
          guard let d = Double(s) else { return nil }
          out.append(.double(d))
        default: out.append(.text(s))
        }
      }
      guard i == end || chars[i] == "," else { return nil }
      i += 1
    }
    return out
  }
}
