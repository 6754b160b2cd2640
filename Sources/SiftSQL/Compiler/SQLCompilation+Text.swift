import SiftSyntax

/// What is known about fragments (their constants and nil conditions), and the connectives.
extension SQLCompilation {
  /// The constant `e` binds, if it is exactly one bound constant.
  func constant(_ e: SQLExpr) -> SiftValue? { e.constant }

  /// True when `e` binds exactly the constant nil.
  func isNullConstant(_ e: SQLExpr) -> Bool { e.isNullConstant }

  /// `e`, marked as binding the constant `v`.
  func withConstant(_ e: SQLExpr, _ v: SiftValue) -> SQLExpr {
    var c = e
    c.constant = v
    return c
  }

  /// The conditions, ORed, under which `e` is really nil, when it may be a NaN stored as
  /// NULL (see `SQLExpr.nilWhen`); nil when `IS NULL` is exact.
  func nilWhen(_ e: SQLExpr) -> [SQLExpr]? { e.nilWhen }

  /// `e` with the nil conditions `c` (none: `IS NULL` is exact).
  func withNilWhen(_ e: SQLExpr, _ c: [SQLExpr]?) -> SQLExpr {
    var n = e
    n.nilWhen = c
    return n
  }

  /// A bound value of a known type.
  func bound(_ value: SQLValue, type: SQLType, nullable: Bool = false) -> SQLExpr {
    SQLExpr(SQLFragment(binding: value), type: type, nullable: nullable)
  }

  /// A boolean fragment (nullable unless said otherwise).
  func condition(_ sql: SQLFragment, shape: SQLExpr.Shape = .plain) -> SQLExpr {
    SQLExpr(sql, type: .boolean, nullable: true, shape: shape)
  }

  /// `a AND b AND …`, folding constants; in order when a term may raise (`ordered`).
  func and(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: true) }

  /// `a OR b OR …`, folding constants; in order when a term may raise (`ordered`).
  func or(_ terms: [SQLExpr]) -> SQLExpr { connective(terms, and: false) }

  /// `terms` joined by AND (`and`) or OR: constant terms fold (the identity is dropped, the
  /// absorbing one ends the list), and the rest keep their order. When a kept term may
  /// raise, the terms are evaluated strictly in order (`ordered`).
  func connective(_ terms: [SQLExpr], and: Bool) -> SQLExpr {
    let (identity, absorbing): (SQLExpr.Shape, SQLExpr.Shape) =
      and ? (.alwaysTrue, .alwaysFalse) : (.alwaysFalse, .alwaysTrue)
    // Most lists hold no constant term: kept as they are, without copying each term.
    var kept: [SQLExpr]
    if terms.allSatisfy({ $0.shape != identity && $0.shape != absorbing }) {
      kept = terms
    } else {
      kept = []
      for t in terms where t.shape != identity {
        if t.shape == absorbing {
          // Memory stops here, after evaluating the terms before, which may raise.
          guard kept.contains(where: \.mayRaise) else { return and ? .alwaysFalse : .alwaysTrue }
          return ordered(kept, and: and, last: t)
        }
        kept.append(t)
      }
    }
    guard let last = kept.last else { return and ? .alwaysTrue : .alwaysFalse }
    if kept.count == 1 { return last }
    if kept.contains(where: \.mayRaise) { return ordered(kept.dropLast(), and: and, last: last) }
    if kept.count > SQLCompilation.connectiveGroup {
      // Parenthesized groups: a flat chain nests log(n) deep, not n (SQLite's limit is 1,000).
      var groups: [SQLExpr] = []
      var i = 0
      while i < kept.count {
        groups.append(connective(Array(kept[i..<min(kept.count, i + SQLCompilation.connectiveGroup)]), and: and))
        i += SQLCompilation.connectiveGroup
      }
      return connective(groups, and: and)
    }
    var sql = SQLFragment()
    var bytes = 2, bindings = 0
    for t in kept {
      bytes += t.sql.byteCount + 5
      bindings += t.sql.bindingCount
    }
    sql.reserveCapacity(bytes: bytes, bindings: bindings)  // one allocation, not one per doubling
    sql.append("(")
    for (i, t) in kept.enumerated() {
      if i > 0 { sql.append(and ? " AND " : " OR ") }
      sql.append(t.sql)
    }
    sql.append(")")
    return condition(sql)
  }

  /// The terms evaluated strictly left to right, stopping where memory's short-circuit
  /// stops: `CASE WHEN (a) IS NOT TRUE THEN FALSE … ELSE last END` (AND) or
  /// `CASE WHEN (a) THEN TRUE … ELSE last END` (OR; booleans, for PostgreSQL's typed CASE).
  /// Used when a term may raise: SQLite may evaluate an AND's terms in another order,
  /// propagate `x = ?` into the other terms and evaluate a constant function once before any
  /// row, or the compiler may fold a constant term away, and the statement would then fail
  /// where memory does not, or the reverse.
  func ordered(_ first: some Collection<SQLExpr>, and: Bool, last: SQLExpr) -> SQLExpr {
    var sql = SQLFragment("CASE")
    for t in first {
      sql.append(" WHEN (")
      sql.append(t.sql)
      sql.append(and ? ") IS NOT TRUE THEN FALSE" : ") THEN TRUE")
    }
    sql.append(" ELSE ")
    sql.append(last.sql)
    sql.append(" END")
    return condition(sql)
  }

  /// Two-valued negation. Every compiled condition is true exactly when the predicate is,
  /// and otherwise false *or NULL*; `IS NOT TRUE` maps both to true, so NOT never meets NULL.
  func negated(_ e: SQLExpr) -> SQLExpr {
    switch e.shape {
    case .alwaysTrue: return .alwaysFalse
    case .alwaysFalse: return .alwaysTrue
    case .exists: return SQLExpr(SQLFragment("NOT \(e)"), type: .boolean, nullable: false, shape: .notExists)
    case .notExists:
      return SQLExpr(e.sql.droppingPrefix(4), type: .boolean, nullable: false, shape: .exists)  // "NOT "
    case .plain: return SQLExpr(SQLFragment("(\(e)) IS NOT TRUE"), type: .boolean, nullable: false)
    }
  }
}
