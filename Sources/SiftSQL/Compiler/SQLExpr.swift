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

  /// Marks, in the text, a construct that may raise an error at run time (integer division
  /// or modulus by a divisor that may be zero, `sift_int`, MATCHES with a computed pattern).
  /// It travels with the text through every combination; `SQLFinisher` drops it.
  static let raises = "\u{2}"

  /// True when evaluating this fragment may raise an error at run time.
  var mayRaise: Bool { sql.utf8.contains(0x02) }

  /// What a boolean fragment is, so negation can be structural.
  enum Shape: Sendable { case plain, exists, notExists, alwaysTrue, alwaysFalse }

  var sql: String
  var bindings: [SQLValue]
  var type: SQLType
  var nullable: Bool
  var shape: Shape = .plain
  /// The constant this fragment binds, when it is exactly one bound constant.
  var constant: SiftValue?
  /// Set when the value may be a NaN that the database turned into NULL (SQLite stores no
  /// NaN; memory keeps NaN, which is not nil): the conditions, ORed, under which the value
  /// is really nil. Nil when `IS NULL` is exact. See `SQLCompilation.isNull`.
  var nilWhen: [SQLExpr]?

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
  @inline(__always)
  static func condition(_ sql: String, _ parts: [SQLExpr], shape: Shape = .plain) -> SQLExpr {
    SQLExpr(sql, joinedBindings(parts), type: .boolean, nullable: true, shape: shape)
  }

  /// The parts' bindings in order, reusing an array when only one part has any.
  static func joinedBindings(_ parts: [SQLExpr]) -> [SQLValue] {
    var count = 0
    var only = -1
    for i in parts.indices where !parts[i].bindings.isEmpty {
      count += parts[i].bindings.count
      only = only == -1 ? i : -2
    }
    if count == 0 { return [] }
    if only >= 0 { return parts[only].bindings }
    var b: [SQLValue] = []
    b.reserveCapacity(count)
    for p in parts { b.append(contentsOf: p.bindings) }
    return b
  }

  /// A boolean fragment over two operands (the common case, without temporary arrays).
  @inline(__always)
  static func condition(_ sql: String, _ x: SQLExpr, _ y: SQLExpr) -> SQLExpr {
    let b = x.bindings.isEmpty ? y.bindings : y.bindings.isEmpty ? x.bindings : x.bindings + y.bindings
    return SQLExpr(sql, b, type: .boolean, nullable: true)
  }

  /// `a + b + c` with one allocation.
  @inline(__always)
  static func cat(_ a: String, _ b: String, _ c: String) -> String {
    var s = ""
    s.reserveCapacity(a.utf8.count + b.utf8.count + c.utf8.count)
    s += a
    s += b
    s += c
    return s
  }

  /// Concatenates text with one allocation.
  @inline(__always)
  static func cat(_ parts: String...) -> String {
    var n = 0
    for p in parts { n += p.utf8.count }
    var s = ""
    s.reserveCapacity(n)
    for p in parts { s += p }
    return s
  }

  /// `(a SEP b SEP …)` with one allocation.
  static func joined(_ terms: [SQLExpr], _ separator: String) -> String {
    var n = 2
    for t in terms { n += t.sql.utf8.count + separator.utf8.count }
    var s = "("
    s.reserveCapacity(n)
    for (i, t) in terms.enumerated() {
      if i > 0 { s += separator }
      s += t.sql
    }
    s += ")"
    return s
  }

  /// `a AND b AND …`, folding constants; in order when a term may raise (`ordered`).
  static func and(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: true) }

  /// `a OR b OR …`, folding constants; in order when a term may raise (`ordered`).
  static func or(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: false) }

  static func connective(_ terms: [SQLExpr], and: Bool) -> SQLExpr {
    let (identity, absorbing): (Shape, Shape) = and ? (.alwaysTrue, .alwaysFalse) : (.alwaysFalse, .alwaysTrue)
    var kept: [SQLExpr] = []
    for t in terms {
      if t.shape == absorbing {
        // Memory stops here, after evaluating the terms before, which may raise.
        guard kept.contains(where: \.mayRaise) else { return and ? .alwaysFalse : .alwaysTrue }
        return ordered(kept, and: and, last: t)
      }
      if t.shape != identity { kept.append(t) }
    }
    if kept.isEmpty { return and ? .alwaysTrue : .alwaysFalse }
    if kept.count == 1 { return kept[0] }
    if kept.contains(where: \.mayRaise) { return ordered(kept.dropLast(), and: and, last: kept[kept.count - 1]) }
    return condition(joined(kept, and ? " AND " : " OR "), kept)
  }

  /// The terms evaluated strictly left to right, stopping where memory's short-circuit
  /// stops: `CASE WHEN (a) IS NOT TRUE THEN FALSE … ELSE last END` (AND) or
  /// `CASE WHEN (a) THEN TRUE … ELSE last END` (OR; booleans, for PostgreSQL's typed CASE). Used when a term may raise: SQLite may
  /// evaluate an AND's terms in another order, propagate `x = ?` into the other terms and
  /// evaluate a constant function once before any row, or the compiler may fold a constant
  /// term away, and the statement would then fail where memory does not, or the reverse.
  static func ordered(_ first: some Collection<SQLExpr>, and: Bool, last: SQLExpr) -> SQLExpr {
    var s = "CASE"
    for t in first { s += and ? " WHEN (" + t.sql + ") IS NOT TRUE THEN FALSE" : " WHEN (" + t.sql + ") THEN TRUE" }
    s += " ELSE " + last.sql + " END"
    return condition(s, Array(first) + [last])
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
    var sql = sql.utf8.contains(0x02) ? String(sql.unicodeScalars.filter { $0 != "\u{2}" }) : sql
    if bindings.isEmpty { return SQLStatement(sql: sql, bindings: bindings) }
    let text: String = sql.withUTF8 { src in
      if !dialect.placeholdersAreNumbered {
        // One marker byte becomes the placeholder's bytes: one allocation, one pass.
        let mark = Array(dialect.placeholder(1).utf8)
        var markers = 0
        for b in src where b == 0x01 { markers += 1 }
        let size = src.count + markers * (mark.count - 1)
        return String(unsafeUninitializedCapacity: size) { out in
          var j = 0
          for b in src {
            if b == 0x01 {
              for m in mark { out[j] = m; j += 1 }
            } else {
              out[j] = b
              j += 1
            }
          }
          return j
        }
      }
      var out: [UInt8] = []
      out.reserveCapacity(src.count + bindings.count * 3)
      var n = 0
      for b in src {
        if b != 0x01 {
          out.append(b)
        } else {
          n += 1
          out.append(contentsOf: dialect.placeholder(n).utf8)
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
