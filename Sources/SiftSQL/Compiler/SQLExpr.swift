import Foundation
import SiftSyntax

/// The static type of a compiled SQL expression, from the schema or a constant.
enum SQLType: Sendable, Hashable {
  case integer, double, boolean, string, date, data, null, unknown
  /// A value of whatever kind its column stores (`SQLAttributeType.any`): compared by that
  /// kind, ordered and searched behind the dialect's per-row checks, refused elsewhere.
  case any

  init(_ t: SQLAttributeType) {
    switch t.elementType {
    case .string: self = .string
    case .integer: self = .integer
    case .double: self = .double
    case .boolean: self = .boolean
    case .date: self = .date
    case .data: self = .data
    case .any: self = .any
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
    case .any: return 5
    case .null, .unknown: return 0
    }
  }

  /// True when values of the two types may be compared (`null`/`unknown` match anything).
  func comparable(with other: SQLType) -> Bool {
    family == 0 || other.family == 0 || family == other.family
  }
}

/// A compiled SQL value or condition: its SQL (text and bindings) and what is known about it.
struct SQLExpr: Sendable {
  /// What a boolean fragment is, so negation can be structural.
  enum Shape: Sendable { case plain, exists, notExists, alwaysTrue, alwaysFalse }

  var sql: SQLFragment
  var type: SQLType
  var nullable: Bool
  var shape: Shape = .plain
  /// How the value is stored, where that decides how a constant meeting it is bound (a
  /// date column's encoding, a PostgreSQL `numeric` or `uuid` column); `.plain` otherwise.
  var form: SQLValueForm = .plain
  /// A text column read under `SQLDialect.textColumnCollation`: the column without it, and
  /// the text of the collated form, so an equality can add an index-served prefilter while
  /// `sql` is still exactly that form (`SQLCompilation.collated`).
  var uncollated: (column: SQLFragment, collatedText: String)? = nil
  /// The constant this fragment binds, when it is exactly one bound constant
  /// (`SQLCompilation.bind`), so comparisons can fold or convert it.
  var constant: SiftValue? {
    get { facts?.constant }
    set { facts = Facts.make(constant: newValue, nilWhen: nilWhen) }
  }
  /// The conditions, ORed, under which the value is really nil, when it may be a NaN that
  /// the database turned into NULL (SQLite stores no NaN; memory keeps NaN, which is not
  /// nil); nil when `IS NULL` is exact. See `SQLCompilation.mayBeNaN`.
  var nilWhen: [SQLExpr]? {
    get { facts?.nilWhen }
    set { facts = Facts.make(constant: constant, nilWhen: newValue) }
  }

  /// `constant` and `nilWhen`, boxed (nil when neither is known). Held inline, a `SiftValue`
  /// (which holds Foundation's `Date` and `Data`, whose layout is not fixed when this module
  /// is compiled) and an array of fragments inside a fragment make every copy and destroy of
  /// every fragment a run-time value-witness call: measured with callgrind, compiling a
  /// typical predicate then took over 4× the instructions, past the budget of half SQLite's
  /// prepare (`sift-bench --suite sql`). Most fragments know neither, and copy one nil.
  private var facts: Facts?

  final class Facts: Sendable {
    let constant: SiftValue?
    let nilWhen: [SQLExpr]?

    init(constant: SiftValue?, nilWhen: [SQLExpr]?) {
      self.constant = constant
      self.nilWhen = nilWhen
    }

    static func make(constant: SiftValue?, nilWhen: [SQLExpr]?) -> Facts? {
      constant == nil && nilWhen == nil ? nil : Facts(constant: constant, nilWhen: nilWhen)
    }
  }

  init(_ sql: SQLFragment, type: SQLType, nullable: Bool = true, shape: Shape = .plain) {
    self.sql = sql
    self.type = type
    self.nullable = nullable
    self.shape = shape
  }

  /// True when evaluating this fragment may raise an error at run time (integer division
  /// or modulus by a divisor that may be zero, `sift_int`, MATCHES with a computed pattern).
  /// It travels with the text through every combination (`SQLFragment.mayRaise`).
  var mayRaise: Bool { sql.mayRaise }

  /// True when this fragment binds exactly the constant nil.
  var isNullConstant: Bool {
    if case .null? = constant { return true }
    return false
  }

  static let alwaysTrue = SQLExpr(SQLFragment("1 = 1"), type: .boolean, nullable: false, shape: .alwaysTrue)
  static let alwaysFalse = SQLExpr(SQLFragment("1 = 0"), type: .boolean, nullable: false, shape: .alwaysFalse)

  func typed(_ type: SQLType, nullable: Bool) -> SQLExpr {
    var out = self
    out.type = type
    out.nullable = nullable
    out.shape = .plain
    out.form = .plain
    return out
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
