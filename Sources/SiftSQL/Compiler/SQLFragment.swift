/// A piece of compiled SQL: its text and the values bound in it, in text order.
///
/// The text holds no placeholders: each bound value remembers the UTF-8 offset in the text
/// where its placeholder goes, so fragments are concatenated (text appended, bindings
/// appended with their offsets moved along) without knowing the dialect, and the finished
/// statement numbers its placeholders once (`?` for SQLite, `$1`, `$2`, … for PostgreSQL).
/// Fragments are written as interpolated literals, in the style of GRDB's `SQL` literals:
/// literal text and `\(sql: identifier)` are SQL text, `\(expr)` and `\(fragment)` insert
/// compiled SQL with its bindings, and `\(bind: value)` binds a value. A value never
/// becomes text.
///
/// ```swift
/// let name = SQLFragment("t0.\"name\"")
/// let f: SQLFragment = "\(name) = \(bind: .text("Blue"))"
/// f.statement(SQLiteDialect()).sql          // t0."name" = ?
/// f.statement(PostgreSQLDialect()).sql      // t0."name" = $1
/// ```
struct SQLFragment: Sendable {
  /// A bound value and where its placeholder goes in `text` (a UTF-8 offset).
  struct Binding: Sendable {
    var offset: Int
    var value: SQLValue
  }

  /// The SQL text as UTF-8, without placeholders. Bytes rather than a `String`: appending
  /// bytes is a copy, appending `String`s checks and grows text storage on every piece
  /// (measured with callgrind on `sift-bench --suite sql`: a quarter of the compile time,
  /// which kept the median over the budget of half SQLite's prepare).
  private(set) var utf8: [UInt8]
  /// The SQL text, without placeholders.
  var text: String { String(decoding: utf8, as: UTF8.self) }
  /// The bound values, in text order.
  private(set) var bindings: [Binding]
  /// True when evaluating this SQL may raise an error at run time (see `SQLExpr.mayRaise`).
  var mayRaise: Bool

  init() {
    utf8 = []
    bindings = []
    mayRaise = false
  }

  /// SQL text: identifiers, keywords, punctuation — never a value.
  init(sql text: String, mayRaise: Bool = false) {
    self.init()
    self.utf8 = Array(text.utf8)
    self.mayRaise = mayRaise
  }

  /// SQL text already in UTF-8 (a column's cached `t0."name"`).
  init(utf8 bytes: [UInt8]) {
    self.init()
    self.utf8 = bytes
  }

  /// A placeholder for `value`.
  init(binding value: SQLValue) {
    self.init()
    bindings = [Binding(offset: 0, value: value)]
  }

  /// The bound values, in text order.
  var values: [SQLValue] { bindings.map(\.value) }

  /// The length of the text in UTF-8 bytes (placeholders not counted).
  var byteCount: Int { utf8.count }

  /// The number of bound values.
  var bindingCount: Int { bindings.count }

  /// Room for `bytes` more bytes of text and `bindings` more bound values.
  mutating func reserveCapacity(bytes: Int, bindings count: Int) {
    utf8.reserveCapacity(utf8.count + bytes)
    if count > 0 { bindings.reserveCapacity(bindings.count + count) }
  }

  /// Appends SQL text (never a value).
  mutating func append(_ s: String) {
    utf8.append(contentsOf: s.utf8)
  }

  mutating func append(_ other: SQLFragment) {
    if !other.bindings.isEmpty {
      let shift = utf8.count
      bindings.reserveCapacity(bindings.count + other.bindings.count)
      for b in other.bindings { bindings.append(Binding(offset: b.offset + shift, value: b.value)) }
    }
    utf8.append(contentsOf: other.utf8)
    mayRaise = mayRaise || other.mayRaise
  }

  /// Appends `fragments` separated by `, `.
  mutating func append(list fragments: [SQLFragment]) {
    for (i, f) in fragments.enumerated() {
      if i > 0 { append(", ") }
      append(f)
    }
  }

  /// The fragment without its first `n` bytes of text, which hold no placeholder (removing
  /// the `NOT ` of a `NOT EXISTS`).
  func droppingPrefix(_ n: Int) -> SQLFragment {
    var out = self
    out.utf8 = Array(utf8.dropFirst(n))
    out.bindings = bindings.map { Binding(offset: $0.offset - n, value: $0.value) }
    return out
  }

  /// The text with placeholder `n` (counting from 1) written where the n-th binding goes.
  func rendered(placeholder: (Int) -> String) -> String {
    guard !bindings.isEmpty else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count + bindings.count * 3)
    var last = 0
    for (n, b) in bindings.enumerated() {
      out.append(contentsOf: utf8[last..<b.offset])
      out.append(contentsOf: placeholder(n + 1).utf8)
      last = b.offset
    }
    out.append(contentsOf: utf8[last...])
    return String(decoding: out, as: UTF8.self)
  }

  /// The finished statement for `dialect`: placeholders numbered, bindings in text order.
  func statement(_ dialect: any SQLDialect) -> SQLStatement {
    SQLStatement(sql: rendered(placeholder: dialect.placeholder), bindings: values)
  }
}

extension SQLFragment: ExpressibleByStringInterpolation {
  init(stringLiteral text: String) {
    self.init(sql: text)
  }

  init(stringInterpolation: Interpolation) {
    self = stringInterpolation.fragment
  }

  /// Builds a fragment from an interpolated literal (see `SQLFragment`).
  struct Interpolation: StringInterpolationProtocol {
    var fragment = SQLFragment()

    init(literalCapacity: Int, interpolationCount: Int) {
      fragment.utf8.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    mutating func appendLiteral(_ text: String) { fragment.append(text) }

    /// A compiled expression's SQL and bindings.
    mutating func appendInterpolation(_ e: SQLExpr) { fragment.append(e.sql) }

    mutating func appendInterpolation(_ f: SQLFragment) { fragment.append(f) }

    mutating func appendInterpolation(_ alias: SQLAlias) { fragment.append(alias.name) }

    /// SQL text from the schema or the dialect: a quoted identifier, a function name, a keyword.
    mutating func appendInterpolation(sql text: String) { fragment.append(text) }

    /// A placeholder for `value`.
    mutating func appendInterpolation(bind value: SQLValue) { fragment.append(SQLFragment(binding: value)) }
  }
}
