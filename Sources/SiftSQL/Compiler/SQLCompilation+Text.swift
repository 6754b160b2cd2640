import SiftSyntax

/// Writing fragments: every new fragment is appended to the compilation's buffer (`out`)
/// and named by its span. `cat` takes up to eight pieces (literals, `String`s, spans,
/// expressions); longer text is written with `out.put` between `out.count` and
/// `out.span(since:)`.
extension SQLCompilation {
  func cat<A: SQLPiece>(_ a: A) -> SQLSpan {
    let s = out.count
    let raises = out.put(a)
    return SQLSpan(start: s, end: out.count, raises: raises)
  }

  /// `span` (the last thing written) extended with `p`.
  @inline(__always)
  func extend<P: SQLPiece>(_ span: SQLSpan, _ p: P) -> SQLSpan {
    let raises = out.put(p)
    return SQLSpan(start: span.start, end: out.count, raises: span.raises || raises)
  }

  func cat<A: SQLPiece, B: SQLPiece>(_ a: A, _ b: B) -> SQLSpan { extend(cat(a), b) }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece>(_ a: A, _ b: B, _ c: C) -> SQLSpan { extend(cat(a, b), c) }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece, D: SQLPiece>(_ a: A, _ b: B, _ c: C, _ d: D) -> SQLSpan {
    extend(cat(a, b, c), d)
  }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece, D: SQLPiece, E: SQLPiece>(
    _ a: A, _ b: B, _ c: C, _ d: D, _ e: E
  ) -> SQLSpan {
    extend(cat(a, b, c, d), e)
  }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece, D: SQLPiece, E: SQLPiece, F: SQLPiece>(
    _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> SQLSpan {
    extend(cat(a, b, c, d, e), f)
  }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece, D: SQLPiece, E: SQLPiece, F: SQLPiece, G: SQLPiece>(
    _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) -> SQLSpan {
    extend(cat(a, b, c, d, e, f), g)
  }

  func cat<A: SQLPiece, B: SQLPiece, C: SQLPiece, D: SQLPiece, E: SQLPiece, F: SQLPiece, G: SQLPiece, H: SQLPiece>(
    _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> SQLSpan {
    extend(cat(a, b, c, d, e, f, g), h)
  }

  /// The constant `e` binds, if it is exactly one bound constant.
  func constant(_ e: SQLExpr) -> SiftValue? {
    // Not `? nil :`: SiftValue is itself expressible by `nil` (its `.null`).
    guard e.constantSlot >= 0 else { return Optional<SiftValue>.none }
    return out.constants[Int(e.constantSlot)]
  }

  /// True when `e` binds exactly the constant nil (read in place, without copying the constant).
  func isNullConstant(_ e: SQLExpr) -> Bool {
    e.constantSlot >= 0 && out.constantIsNull(at: Int(e.constantSlot))
  }

  /// `e`, marked as binding the constant `v`.
  func withConstant(_ e: SQLExpr, _ v: SiftValue) -> SQLExpr {
    var c = e
    c.constantSlot = out.keep(constant: v)
    return c
  }

  /// The conditions, ORed, under which `e` is really nil, when it may be a NaN stored as
  /// NULL (see `SQLExpr.nilWhenSlot`); nil when `IS NULL` is exact.
  func nilWhen(_ e: SQLExpr) -> [SQLExpr]? {
    guard e.nilWhenSlot >= 0 else { return nil }
    return out.nilConditions[Int(e.nilWhenSlot)]
  }

  /// `e` with the nil conditions `c` (none: `IS NULL` is exact).
  func withNilWhen(_ e: SQLExpr, _ c: [SQLExpr]?) -> SQLExpr {
    var n = e
    n.nilWhenSlot = c.map { out.keep(nilConditions: $0) } ?? -1
    return n
  }

  /// A bound value of a known type.
  func bound(_ value: SQLValue, type: SQLType, nullable: Bool = false) -> SQLExpr {
    SQLExpr(out.placeholder(value), type: type, nullable: nullable)
  }

  /// A boolean fragment (nullable unless said otherwise).
  func condition(_ sql: SQLSpan, shape: SQLExpr.Shape = .plain) -> SQLExpr {
    SQLExpr(sql, type: .boolean, nullable: true, shape: shape)
  }

  /// `a AND b AND …`, folding constants; in order when a term may raise (`ordered`).
  func and(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: true) }

  /// `a OR b OR …`, folding constants; in order when a term may raise (`ordered`).
  func or(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: false) }

  func connective(_ terms: [SQLExpr], and: Bool) -> SQLExpr {
    terms.withUnsafeBufferPointer { connective($0, and: and) }
  }

  /// `terms` joined by AND (`and`) or OR: constant terms fold (the identity is dropped, the
  /// absorbing one ends the list), and the rest keep their order.
  func connective(_ terms: UnsafeBufferPointer<SQLExpr>, and: Bool) -> SQLExpr {
    let (identity, absorbing): (SQLExpr.Shape, SQLExpr.Shape) = and ? (.alwaysTrue, .alwaysFalse) : (.alwaysFalse, .alwaysTrue)
    func kept(_ t: SQLExpr) -> Bool { t.shape != identity }
    var keptCount = 0
    var lastKept = 0
    var raises = false
    for (i, t) in terms.enumerated() {
      if t.shape == absorbing {
        // Memory stops here, after evaluating the terms before, which may raise.
        guard raises else { return and ? .alwaysFalse : .alwaysTrue }
        return ordered(terms[..<i].lazy.filter(kept), and: and, last: t)
      }
      if kept(t) {
        keptCount += 1
        lastKept = i
        raises = raises || t.mayRaise
      }
    }
    if keptCount == 0 { return and ? .alwaysTrue : .alwaysFalse }
    if keptCount == 1 { return terms[lastKept] }
    if raises { return ordered(terms[..<lastKept].lazy.filter(kept), and: and, last: terms[lastKept]) }
    // `(a AND b …)`: no term holds the raises mark, so neither does the result.
    let s = out.count
    out.put(StaticString("("))
    var first = true
    for t in terms where kept(t) {
      if !first { out.put(and ? StaticString(" AND ") : StaticString(" OR ")) }
      first = false
      out.put(t.sql)
    }
    out.put(StaticString(")"))
    return condition(SQLSpan(start: s, end: out.count, raises: false))
  }

  /// The terms evaluated strictly left to right, stopping where memory's short-circuit
  /// stops: `CASE WHEN (a) IS NOT TRUE THEN FALSE … ELSE last END` (AND) or
  /// `CASE WHEN (a) THEN TRUE … ELSE last END` (OR; booleans, for PostgreSQL's typed CASE). Used when a term may raise: SQLite may
  /// evaluate an AND's terms in another order, propagate `x = ?` into the other terms and
  /// evaluate a constant function once before any row, or the compiler may fold a constant
  /// term away, and the statement would then fail where memory does not, or the reverse.
  func ordered(_ first: some Collection<SQLExpr>, and: Bool, last: SQLExpr) -> SQLExpr {
    let s = out.count
    out.put("CASE")
    for t in first {
      out.put(" WHEN (")
      out.put(t)
      out.put(and ? ") IS NOT TRUE THEN FALSE" : ") THEN TRUE")
    }
    out.put(" ELSE ")
    out.put(last)
    out.put(" END")
    return condition(out.span(since: s))
  }

  /// Two-valued negation. Every compiled condition is true exactly when the predicate is,
  /// and otherwise false *or NULL*; `IS NOT TRUE` maps both to true, so NOT never meets NULL.
  func negated(_ e: SQLExpr) -> SQLExpr {
    switch e.shape {
    case .alwaysTrue: return .alwaysFalse
    case .alwaysFalse: return .alwaysTrue
    case .exists: return SQLExpr(cat("NOT ", e), type: .boolean, nullable: false, shape: .notExists)
    case .notExists:
      var text = e.sql
      text.start += 4  // "NOT "
      return SQLExpr(text, type: .boolean, nullable: false, shape: .exists)
    case .plain: return SQLExpr(cat("(", e, ") IS NOT TRUE"), type: .boolean, nullable: false)
    }
  }
}
