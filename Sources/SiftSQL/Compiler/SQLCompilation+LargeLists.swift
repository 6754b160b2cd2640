import Foundation
import SiftSyntax

extension SQLCompilation {
  /// Lists longer than this bind as one parameter (`largeList`); shorter ones keep
  /// `x IN (?, ?, …)`, so the SQL of ordinary predicates is unchanged.
  static let largeListThreshold = 200
  /// Terms of an AND/OR above which `connective` groups them in parentheses, so a flat
  /// chain never nests deeper than SQLite's expression-depth limit (1,000).
  static let connectiveGroup = 64
  /// SUBQUERYs nested deeper than this are refused (`too-deep-for-sql`).
  static let maxSubqueryNesting = 8

  /// `x IN (list)` for a long list of plain bound values, with the list as one parameter:
  /// SQLite `x IN (SELECT value FROM json_each(?))` (a JSON array), PostgreSQL
  /// `x IN (SELECT unnest(CAST($1 AS type[])))` (an array literal, hashed once). Nil when a value is not a plain
  /// integer, finite double or text (dates, booleans, folded or converted values keep the
  /// classic list).
  func largeList(_ x: SQLExpr, _ kept: [SQLExpr]) -> SQLExpr? {
    guard kept.count > SQLCompilation.largeListThreshold else { return nil }
    var values: [SQLValue] = []
    values.reserveCapacity(kept.count)
    for e in kept {
      guard e.sql.byteCount == 0, e.sql.values.count == 1 else { return nil }
      switch e.sql.values[0] {
      case .integer, .text: values.append(e.sql.values[0])
      case .double(let d) where d.isFinite: values.append(e.sql.values[0])
      default: return nil
      }
    }
    switch dialect.nativeTypes {
    case .postgres:
      let type: String
      switch x.type {
      case .integer where values.allSatisfy({ if case .integer = $0 { true } else { false } }): type = "BIGINT[]"
      case .double where values.allSatisfy({ if case .double = $0 { true } else { false } }):
        type = "DOUBLE PRECISION[]"
      case .string where values.allSatisfy({ if case .text = $0 { true } else { false } }): type = "TEXT[]"
      default: return nil
      }
      // A hashed subplan (`= ANY(array)` scans the array for every row).
      return condition(
        SQLFragment(
          "\(x) IN (SELECT unnest(CAST(\(bind: .text(SQLCompilation.arrayLiteral(values))) AS \(sql: type))))"))
    default:
      guard dialect.name == "sqlite" else { return nil }
      return condition(
        SQLFragment("\(x) IN (SELECT value FROM json_each(\(bind: .text(SQLCompilation.jsonArray(values)))))"))
    }
  }

  /// A JSON array of integers, doubles (shortest round-trip form) and strings.
  static func jsonArray(_ values: [SQLValue]) -> String {
    var out = "["
    for (i, v) in values.enumerated() {
      if i > 0 { out += "," }
      switch v {
      case .integer(let n): out += String(n)
      case .double(let d): out += d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
      case .text(let s): SiftJSON.writeString(s, into: &out)
      default: out += "null"
      }
    }
    return out + "]"
  }

  /// A PostgreSQL array literal (`{1,2}`, `{"a","b\"c"}`).
  static func arrayLiteral(_ values: [SQLValue]) -> String {
    var out = "{"
    for (i, v) in values.enumerated() {
      if i > 0 { out += "," }
      switch v {
      case .integer(let n): out += String(n)
      case .double(let d): out += "\(d)"
      case .text(let s):
        out += "\""
        for ch in s.unicodeScalars {
          if ch == "\"" || ch == "\\" { out += "\\" }
          out.unicodeScalars.append(ch)
        }
        out += "\""
      default: out += "NULL"
      }
    }
    return out + "}"
  }
}
