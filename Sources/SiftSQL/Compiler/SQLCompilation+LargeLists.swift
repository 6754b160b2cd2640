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
  /// `x IN (SELECT unnest(CAST($1 AS type[])))` (an array literal, hashed once), its type the
  /// one each value would be bound with (`int8`, `float8`, `text`), so the comparison is the
  /// classic list's. `unfolded`: the strings before `[c]`/`[d]` folding, which PostgreSQL folds
  /// itself (`x IN (SELECT sift_fold(v, code) FROM unnest(…) v)`; SQLite's constants are folded
  /// in Swift, so plain). Nil when a value is not a plain integer, finite double or text (dates
  /// in their column's form, booleans, converted values keep the classic list).
  func largeList(_ x: SQLExpr, _ kept: [SQLExpr], unfolded: [SQLExpr]? = nil, fold: TextFoldCode? = nil) -> SQLExpr? {
    guard kept.count > SQLCompilation.largeListThreshold else { return nil }
    let folding = dialect.foldsConstantsInSwift ? nil : unfolded
    guard let values = SQLCompilation.plainValues(folding ?? kept) else { return nil }
    switch dialect.nativeTypes {
    case .postgres:
      let type: String
      if values.allSatisfy({ if case .integer = $0 { true } else { false } }) {
        type = "BIGINT[]"
      } else if values.allSatisfy({ if case .double = $0 { true } else { false } }) {
        type = "DOUBLE PRECISION[]"
      } else if values.allSatisfy({ if case .text = $0 { true } else { false } }) {
        type = "TEXT[]"
      } else {
        return nil
      }
      let array = SQLFragment("CAST(\(bind: .text(SQLCompilation.arrayLiteral(values))) AS \(sql: type))")
      if folding != nil, let fold {
        return condition(
          SQLFragment("\(x) IN (SELECT \(sql: dialect.foldFunction)(v, \(sql: fold.sql)) FROM unnest(\(array)) AS v)"))
      }
      // A hashed subplan (`= ANY(array)` scans the array for every row).
      return condition(SQLFragment("\(x) IN (SELECT unnest(\(array)))"))
    default:
      guard dialect.name == "sqlite" else { return nil }
      return condition(
        SQLFragment("\(x) IN (SELECT value FROM json_each(\(bind: .text(SQLCompilation.jsonArray(values)))))"))
    }
  }

  /// The bound values of `list`, each a plain integer, finite double or text; nil otherwise.
  static func plainValues(_ list: [SQLExpr]) -> [SQLValue]? {
    var values: [SQLValue] = []
    values.reserveCapacity(list.count)
    for e in list {
      guard e.sql.byteCount == 0, e.sql.values.count == 1 else { return nil }
      switch e.sql.values[0] {
      case .integer, .text: values.append(e.sql.values[0])
      case .double(let d) where d.isFinite: values.append(e.sql.values[0])
      default: return nil
      }
    }
    return values
  }

  /// `list` without repeats (the same SQL with the same values): an IN list is a set, and a
  /// long list of booleans or repeated dates binds each once.
  static func distinct(_ list: [SQLExpr]) -> [SQLExpr] {
    var seen: Set<SQLFragmentKey> = []
    return list.filter { seen.insert(SQLFragmentKey(text: $0.sql.text, values: $0.sql.values)).inserted }
  }

  struct SQLFragmentKey: Hashable {
    let text: String
    let values: [SQLValue]
  }

  /// The most parameters one statement may bind: SQLite's `SQLITE_MAX_VARIABLE_NUMBER` (32,766
  /// by default) and PostgreSQL's protocol limit (65,535).
  var maxParameters: Int { dialect.nativeTypes == .postgres ? 65_535 : 32_766 }

  /// Refuses an IN list that binds more values than a statement may (`too-large-for-sql`),
  /// before the database refuses it with its own words.
  func checkedParameters(_ kept: [SQLExpr], _ range: SiftSourceRange) throws(SiftError) {
    let n = kept.reduce(0) { $0 + $1.sql.bindingCount }
    guard n > maxParameters else { return }
    throw fail(.tooManyParameters(n, dialect: dialect.name, limit: maxParameters), range)
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
