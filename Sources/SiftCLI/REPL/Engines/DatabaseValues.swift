import Foundation
import SiftSQL
import SiftSyntax

/// A stored value read back as its attribute's type, for the REPL's tables and for `.compare`
/// on a database: dates decoded from their column's encoding (seconds, milliseconds, ISO text,
/// PostgreSQL's own types), booleans from 0/1, doubles from integers, JSON and PostgreSQL
/// arrays parsed. A value that does not decode stays as stored (so a disagreement shows it).
///
/// ```swift
/// DatabaseValues.value(.text("2024-01-05T10:30:00Z"), createdAt, schema)   // .date(…)
/// ```
enum DatabaseValues {
  static func value(_ v: SQLValue, _ a: SQLAttribute, _ schema: SQLSchema) -> SiftValue {
    if v == .null { return .null }
    switch a.type {
    case .date: return date(v, a.dateEncoding(in: schema)) ?? v.siftValue
    case .boolean:
      switch v {
      case .bool(let b): return .bool(b)
      case .integer(let i) where i == 0 || i == 1: return .bool(i == 1)
      default: return v.siftValue
      }
    case .double:
      if case .integer(let i) = v { return .double(Double(i)) }
      return v.siftValue
    case .stringArray, .integerArray, .doubleArray: return array(v, a)
    case .string, .integer, .data: return v.siftValue
    }
  }

  /// A date in `encoding`, or nil when `v` is not one.
  static func date(_ v: SQLValue, _ encoding: SQLDateEncoding) -> SiftValue? {
    let number: Double?
    switch v {
    case .integer(let i): number = Double(i)
    case .double(let d): number = d
    case .text(let s):
      if encoding.isNumeric { number = Double(s) } else { return textDate(s).map(SiftValue.date) }
    default: return nil
    }
    guard let n = number, n.isFinite else { return nil }
    switch encoding {
    case .referenceDateSeconds: return .date(Date(timeIntervalSinceReferenceDate: n))
    case .unixMilliseconds: return .date(Date(timeIntervalSince1970: n / 1000))
    default: return .date(Date(timeIntervalSince1970: n))
    }
  }

  /// ISO-8601 or SQL text (`2024-01-05 10:30:00+00` as PostgreSQL writes `timestamptz`: a
  /// zone of hours only gets its minutes).
  static func textDate(_ s: String) -> Date? {
    if let d = SiftJSON.parseDate(s) { return d }
    let b = Array(s.utf8)
    guard b.count > 3, b[b.count - 3] == UInt8(ascii: "+") || b[b.count - 3] == UInt8(ascii: "-") else { return nil }
    return SiftJSON.parseDate(s + ":00")
  }

  /// A JSON array column (`["a","b"]`) or PostgreSQL's array text (`{a,b}`) as an array.
  static func array(_ v: SQLValue, _ a: SQLAttribute) -> SiftValue {
    guard case .text(let s) = v else { return v.siftValue }
    if s.hasPrefix("["), let parsed = try? SiftJSON.parse(s), case .array = parsed { return parsed }
    guard s.hasPrefix("{"), s.hasSuffix("}") else { return v.siftValue }
    let items = postgresArrayItems(String(s.dropFirst().dropLast()))
    return .array(items.map { item in
      guard let item else { return .null }
      switch a.type.elementType {
      case .integer: return Int64(item).map(SiftValue.int) ?? .string(item)
      case .double: return Double(item).map(SiftValue.double) ?? .string(item)
      default: return .string(item)
      }
    })
  }

  /// `a,"b c",NULL` → `["a", "b c", nil]` (one dimension).
  static func postgresArrayItems(_ body: String) -> [String?] {
    guard !body.isEmpty else { return [] }
    var items: [String?] = []
    var current = ""
    var quoted = false, wasQuoted = false, escaped = false
    for ch in body {
      if escaped {
        current.append(ch)
        escaped = false
      } else if ch == "\\" {
        escaped = true
      } else if ch == "\"" {
        quoted.toggle()
        wasQuoted = true
      } else if ch == "," && !quoted {
        items.append(!wasQuoted && current == "NULL" ? nil : current)
        current = ""
        wasQuoted = false
      } else {
        current.append(ch)
      }
    }
    items.append(!wasQuoted && current == "NULL" ? nil : current)
    return items
  }

  /// A key as PostgreSQL's text form of it (`42`, `7d3f…`, `t`).
  static func keyText(_ v: SiftValue) -> String {
    switch v {
    case .string(let s): return s
    case .int(let i): return String(i)
    case .bool(let b): return b ? "true" : "false"
    default: return SiftJSON.serialize(v)
    }
  }

  /// A key read back, bound again (integers, text, …).
  static func binding(_ v: SiftValue) -> SQLValue {
    switch v {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .integer(i)
    case .double(let d): return .double(d)
    case .string(let s): return .text(s)
    case .data(let d): return .blob(d)
    case .date(let d): return .text(SiftJSON.formatDate(d))
    case .array, .dictionary: return .text(SiftJSON.serialize(v))
    }
  }
}
