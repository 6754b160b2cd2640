import Foundation
import SiftSyntax

/// The static type of a compiled SQL expression, from the schema or a constant.
enum SQLType: Sendable, Hashable {
  case integer, double, boolean, string, date, data, null, unknown

  init(_ t: SQLAttributeType) {
    switch t.elementType {
    case .string: self = .string
    case .integer: self = .integer
    case .double: self = .double
    case .boolean: self = .boolean
    case .date: self = .date
    case .data: self = .data
    default: self = .unknown
    }
  }

  /// Numbers and booleans (booleans are the numbers 1 and 0).
  var isNumeric: Bool { self == .integer || self == .double || self == .boolean }

  /// The comparison family: values of different families are never equal (no coercion).
  var family: Int {
    switch self {
    case .integer, .double, .boolean: return 1
    case .string: return 2
    case .date: return 3
    case .data: return 4
    case .null, .unknown: return 0
    }
  }

  /// True when values of the two types may be compared (`null`/`unknown` match anything).
  func comparable(with other: SQLType) -> Bool {
    family == 0 || other.family == 0 || family == other.family
  }
}

/// A compiled SQL fragment. Placeholders are written as `SQLExpr.marker` and numbered when
/// the statement is finished, so fragments can be combined and repeated freely while their
/// bindings stay in text order.
struct SQLExpr: Sendable {
  /// Stands for one placeholder until `finish` numbers it. Identifiers can never contain it
  /// (the schema rejects control characters), and values are never written into the text.
  static let marker = "\u{1}"

  /// What a boolean fragment is, so negation can be structural.
  enum Shape: Sendable { case plain, exists, notExists, alwaysTrue, alwaysFalse }

  var sql: String
  var bindings: [SQLValue]
  var type: SQLType
  var nullable: Bool
  var shape: Shape = .plain
  /// The constant this fragment binds, when it is exactly one bound constant.
  var constant: SiftValue?

  init(
    _ sql: String, _ bindings: [SQLValue] = [], type: SQLType, nullable: Bool = true,
    shape: Shape = .plain
  ) {
    self.sql = sql
    self.bindings = bindings
    self.type = type
    self.nullable = nullable
    self.shape = shape
  }

  static let alwaysTrue = SQLExpr("1 = 1", type: .boolean, nullable: false, shape: .alwaysTrue)
  static let alwaysFalse = SQLExpr("1 = 0", type: .boolean, nullable: false, shape: .alwaysFalse)

  /// A boolean fragment with the bindings of `parts`, in order.
  static func condition(_ sql: String, _ parts: [SQLExpr], shape: Shape = .plain) -> SQLExpr {
    var b: [SQLValue] = []
    for p in parts { b.append(contentsOf: p.bindings) }
    return SQLExpr(sql, b, type: .boolean, nullable: true, shape: shape)
  }

  /// `a AND b AND …`, folding constants.
  static func and(_ terms: [SQLExpr]) -> SQLExpr {
    var kept: [SQLExpr] = []
    for t in terms {
      if t.shape == .alwaysFalse { return .alwaysFalse }
      if t.shape != .alwaysTrue { kept.append(t) }
    }
    if kept.isEmpty { return .alwaysTrue }
    if kept.count == 1 { return kept[0] }
    return condition("(" + kept.map(\.sql).joined(separator: " AND ") + ")", kept)
  }

  /// `a OR b OR …`, folding constants.
  static func or(_ terms: [SQLExpr]) -> SQLExpr {
    var kept: [SQLExpr] = []
    for t in terms {
      if t.shape == .alwaysTrue { return .alwaysTrue }
      if t.shape != .alwaysFalse { kept.append(t) }
    }
    if kept.isEmpty { return .alwaysFalse }
    if kept.count == 1 { return kept[0] }
    return condition("(" + kept.map(\.sql).joined(separator: " OR ") + ")", kept)
  }

  /// Two-valued negation. Every compiled condition is true exactly when the predicate is,
  /// and otherwise false *or NULL*; `IS NOT TRUE` maps both to true, so NOT never meets NULL.
  var negated: SQLExpr {
    switch shape {
    case .alwaysTrue: return .alwaysFalse
    case .alwaysFalse: return .alwaysTrue
    case .exists: return SQLExpr("NOT " + sql, bindings, type: .boolean, nullable: false, shape: .notExists)
    case .notExists:
      return SQLExpr(String(sql.dropFirst(4)), bindings, type: .boolean, nullable: false, shape: .exists)
    case .plain: return SQLExpr("(" + sql + ") IS NOT TRUE", bindings, type: .boolean, nullable: false)
    }
  }
}

/// Numbers the placeholders of a finished fragment for a dialect.
enum SQLFinisher {
  static func finish(_ sql: String, _ bindings: [SQLValue], dialect: any SQLDialect) -> SQLStatement {
    if bindings.isEmpty { return SQLStatement(sql: sql, bindings: bindings) }
    let numbered = dialect.placeholdersAreNumbered
    let single = Array(dialect.placeholder(1).utf8)
    if !numbered, single.count == 1 {
      // One byte for one byte: substitute in place.
      var bytes = Array(sql.utf8)
      for i in bytes.indices where bytes[i] == 0x01 { bytes[i] = single[0] }
      return SQLStatement(sql: String(decoding: bytes, as: UTF8.self), bindings: bindings)
    }
    var sql = sql
    let text: String = sql.withUTF8 { src in
      var out: [UInt8] = []
      out.reserveCapacity(src.count + bindings.count * 3)
      var n = 0
      for b in src {
        if b != 0x01 {
          out.append(b)
        } else if numbered {
          n += 1
          out.append(contentsOf: dialect.placeholder(n).utf8)
        } else {
          out.append(contentsOf: single)
        }
      }
      return String(decoding: out, as: UTF8.self)
    }
    return SQLStatement(sql: text, bindings: bindings)
  }
}

/// Text helpers. Strings are stored and bound exactly as given (no Unicode normalization):
/// in-memory evaluation compares Unicode scalars, and so do SQLite's BINARY collation and
/// PostgreSQL's `"C"` collation (pitfall 15).
enum SQLText {

  /// The smallest string greater than every string starting with `prefix` in code-point
  /// order: the prefix with its last scalar incremented (skipping surrogates, dropping
  /// trailing U+10FFFF). Nil when every scalar is U+10FFFF (no upper bound is needed).
  static func prefixUpperBound(_ prefix: String) -> String? {
    var scalars = Array(prefix.unicodeScalars)
    while let last = scalars.last {
      scalars.removeLast()
      var v = last.value &+ 1
      if v == 0xD800 { v = 0xE000 }
      if let next = Unicode.Scalar(v) {
        scalars.append(next)
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
      }
    }
    return nil
  }

  /// Escapes `\`, `%` and `_` for `LIKE … ESCAPE '\'`.
  static func escapeLike(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for ch in s.unicodeScalars {
      if ch == "\\" || ch == "%" || ch == "_" { out.unicodeScalars.append("\\") }
      out.unicodeScalars.append(ch)
    }
    return out
  }

  /// Translates an NSPredicate LIKE pattern (`*`, `?`, backslash escapes) to an SQL LIKE
  /// pattern for `ESCAPE '\'`.
  static func likePattern(_ p: String) -> String {
    var out = ""
    var escaping = false
    for ch in p.unicodeScalars {
      if escaping {
        if ch == "\\" || ch == "%" || ch == "_" { out.unicodeScalars.append("\\") }
        out.unicodeScalars.append(ch)
        escaping = false
      } else if ch == "\\" {
        escaping = true
      } else if ch == "*" {
        out.unicodeScalars.append("%")
      } else if ch == "?" {
        out.unicodeScalars.append("_")
      } else {
        if ch == "%" || ch == "_" { out.unicodeScalars.append("\\") }
        out.unicodeScalars.append(ch)
      }
    }
    if escaping { out += "\\\\" }
    return out
  }
}
