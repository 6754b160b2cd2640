import SiftSyntax

extension SQLCompilation {
  /// Compiles a predicate. `positive: false` compiles its negation: NOT is pushed down to
  /// the comparisons (De Morgan), where it becomes `NOT EXISTS` or `(c) IS NOT TRUE`, so a
  /// NULL never meets a NOT (two-valued logic, as in memory).
  mutating func predicate(_ p: PredicateNode, positive: Bool) throws(SiftError) -> SQLExpr {
    switch p.kind {
    case .constant(let b):
      return b == positive ? .alwaysTrue : .alwaysFalse
    case .and(let terms):
      return try connective(of: terms, and: positive, positive: positive)
    case .or(let terms):
      // A run of `x == c` terms is one `x IN (…)` (SiftOrMerging): no chain of thousands of terms.
      return try connective(of: SiftOrMerging.merged(terms), and: !positive, positive: positive)
    case .not(let q):
      return try predicate(q, positive: !positive)
    case .comparison(let c):
      let e = try comparison(c)
      return positive ? e : negated(e)
    }
  }

  /// The terms compiled (each negated unless `positive`) and joined by AND or OR.
  mutating func connective(of terms: [PredicateNode], and: Bool, positive: Bool) throws(SiftError) -> SQLExpr {
    var compiled: [SQLExpr] = []
    compiled.reserveCapacity(terms.count)
    for t in terms { compiled.append(try predicate(t, positive: positive)) }
    return connective(compiled, and: and)
  }

  mutating func comparison(_ c: SiftComparison) throws(SiftError) -> SQLExpr {
    // In a fetch (joins on), on every layout: measured faster than the JOIN an expert writes
    // (`sift-bench --suite existing`); elsewhere only on databases Sift did not create.
    if toOneJoins != nil || schema.layout == .existing, let e = try toOneSemiJoin(c) {
      try checkedSize(e, c.operatorRange)
      return e
    }
    return try plainComparison(c)
  }

  /// A comparison as written: both operands compiled, then compared.
  mutating func plainComparison(_ c: SiftComparison) throws(SiftError) -> SQLExpr {
    var lhs = try expression(c.lhs)
    var rhs = try expression(c.rhs)
    // Taken before the comparison, which may bind the sides' constants in place.
    let first = evaluatedFirst(lhs, rhs)
    let inner: SQLExpr
    if let quantifier = c.quantifier {
      inner = try quantified(quantifier, lhs, &rhs, c)
    } else {
      inner = try compare(c.op, &lhs, &rhs, c, lhsRange: c.lhs.range, rhsRange: c.rhs.range)
    }
    let e = first.isEmpty ? inner : and(first + [inner])
    try checkedSize(e, c.operatorRange)
    return e
  }

  /// `EXISTS (SELECT 1 FROM … WHERE correlation AND extra)`.
  func exists(_ col: SQLCollection, _ extra: [SQLExpr]) -> SQLExpr {
    let fw = fromWhere(col, extra)
    return condition(SQLFragment("EXISTS (SELECT 1 \(fw))"), shape: .exists)
  }

  func elementOperand(_ col: SQLCollection) -> Operand {
    switch col.element {
    case .row(let r): return .row(r)
    case .value(let v): return .value(v)
    }
  }

  /// ANY → EXISTS; NONE → NOT EXISTS; ALL → NOT EXISTS (… WHERE (p) IS NOT TRUE), so an
  /// element whose comparison is NULL counts as failing, and an empty collection is true.
  mutating func quantified(
    _ q: SiftQuantifier, _ lhs: Operand, _ rhs: inout Operand, _ c: SiftComparison
  ) throws(SiftError) -> SQLExpr {
    func combine(_ terms: [SQLExpr]) -> SQLExpr {
      switch q {
      case .any: return or(terms)
      case .all: return and(terms)
      case .none: return negated(or(terms))
      }
    }
    switch lhs {
    case .collection(let col):
      var elem = elementOperand(col)
      let inner = try compare(c.op, &elem, &rhs, c, lhsRange: c.lhs.range, rhsRange: c.rhs.range)
      switch q {
      case .any: return exists(col, [inner])
      case .none: return negated(exists(col, [inner]))
      case .all: return negated(exists(col, [negated(inner)]))
      }
    case .constant(.array(let items)):
      var terms: [SQLExpr] = []
      for item in items {
        var l = Operand.constant(item)
        terms.append(try compare(c.op, &l, &rhs, c, lhsRange: c.lhs.range, rhsRange: c.rhs.range))
      }
      return combine(terms)
    case .list(let ops):
      var terms: [SQLExpr] = []
      for op in ops {
        var l = op
        terms.append(try compare(c.op, &l, &rhs, c, lhsRange: c.lhs.range, rhsRange: c.rhs.range))
      }
      return combine(terms)
    case .constant(.null):
      return q == .any ? .alwaysFalse : .alwaysTrue
    default:
      throw fail(.quantifierNeedsCollection(q.keyword, kind: lhs.kindName), c.lhs.range)
    }
  }

  /// One unquantified comparison between two operands.
  mutating func compare(
    _ op: ComparisonOperator, _ l: inout Operand, _ r: inout Operand, _ c: SiftComparison,
    lhsRange: SiftSourceRange, rhsRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    switch op {
    case .in:
      return try membership(needle: l, haystack: r, c, needleRange: lhsRange, haystackRange: rhsRange)
    case .contains:
      switch l {
      case .collection, .list, .constant(.array), .constant(.dictionary):
        return try membership(needle: r, haystack: l, c, needleRange: rhsRange, haystackRange: lhsRange)
      default:
        return try stringOperator(.contains, haystack: l, needle: r, c, haystackRange: lhsRange, needleRange: rhsRange)
      }
    case .between:
      var bounds: [Operand]
      switch r {
      case .constant(.array(let a)): bounds = a.map { Operand.constant($0) }
      case .list(let ops): bounds = ops
      default: bounds = []
      }
      guard bounds.count == 2 else {
        throw fail(.betweenNeedsTwoBounds, rhsRange)
      }
      var l2 = l
      let operands = [l, bounds[0], bounds[1]]
      let ge = try scalarCompare(.greaterThanOrEqual, &l, &bounds[0], c, lhsRange: lhsRange, rhsRange: rhsRange)
      let le = try scalarCompare(.lessThanOrEqual, &l2, &bounds[1], c, lhsRange: lhsRange, rhsRange: rhsRange)
      // A nil value or bound makes BETWEEN false, as in memory, although nil <= nil is true
      // (only a bound that may be nil lets a nil value through the two comparisons).
      let boundMayBeNil = bounds.contains { b in
        switch b {
        case .value(let e): return e.nullable
        case .constant(.null): return true
        default: return false
        }
      }
      return and([ge, le] + (boundMayBeNil ? operands.map(notNil) : []))
    case .beginsWith, .endsWith, .like, .matches:
      return try stringOperator(op, haystack: l, needle: r, c, haystackRange: lhsRange, needleRange: rhsRange)
    case .utiConformsTo, .utiEquals:
      return try typeIdentifier(op, l, r, c, lhsRange: lhsRange, rhsRange: rhsRange)
    case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      return try scalarCompare(op, &l, &r, c, lhsRange: lhsRange, rhsRange: rhsRange)
    }
  }

  /// `needle IN haystack` (and `haystack CONTAINS needle` for collections).
  mutating func membership(
    needle: Operand, haystack: Operand, _ c: SiftComparison, needleRange: SiftSourceRange,
    haystackRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    var n = needle
    switch haystack {
    case .collection(let col):
      var elem = elementOperand(col)
      let eq = try scalarCompare(.equal, &elem, &n, c, lhsRange: haystackRange, rhsRange: needleRange)
      return exists(col, [eq])
    case .constant(.array(let items)):
      return try inList(&n, items, c, needleRange: needleRange)
    case .constant(.dictionary(let d)):
      return try inList(&n, d.keys.sorted().compactMap { d[$0] }, c, needleRange: needleRange)
    case .constant(.null):
      return .alwaysFalse
    case .value(let v) where v.type != .string && v.type != .any && v.type.family != 0:
      // A container that is neither a collection nor a string, whatever the needle: memory's
      // not-a-collection (not the string search's not-a-string).
      throw fail(.inNeedsCollection(not: "\(v.type)"), haystackRange)
    case .constant(.string), .value:
      return try stringOperator(
        .contains, haystack: haystack, needle: n, c, haystackRange: haystackRange, needleRange: needleRange)
    case .list(let ops):
      var terms: [SQLExpr] = []
      for op in ops {
        var x = op
        var y = n
        terms.append(try scalarCompare(.equal, &y, &x, c, lhsRange: needleRange, rhsRange: haystackRange))
      }
      return or(terms)
    default:
      throw fail(.inNeedsCollection(not: haystack.kindName), haystackRange)
    }
  }

  /// What must be evaluated before a comparison of `lhs` with `rhs`: the sides that may
  /// raise (and-ed in front of the comparison, always true). Memory evaluates
  /// both sides of every comparison (each element of an aggregate `{…}`) before comparing;
  /// the SQL may not reach them: a value compared inside an EXISTS is not evaluated for an
  /// empty collection (`ANY nums == 7 / (n + 7)` with n = -7 and no nums), a comparison with
  /// nil is folded (`modulus:by:(1, n) > nil`), a BETWEEN stops at its first false bound.
  func evaluatedFirst(_ lhs: Operand, _ rhs: Operand) -> [SQLExpr] {
    var forced: [SQLExpr] = []
    force(lhs, into: &forced)
    force(rhs, into: &forced)
    return forced
  }

  /// Adds to `forced` the always-true condition that evaluates `o`, when `o` may raise (each
  /// item of an aggregate `{…}` on its own).
  func force(_ o: Operand, into forced: inout [SQLExpr]) {
    switch o {
    case .value(let v) where v.mayRaise:
      forced.append(condition(SQLFragment("CASE WHEN (\(v)) IS NULL THEN TRUE ELSE TRUE END")))
    case .list(let items):
      for item in items { force(item, into: &forced) }
    default: break
    }
  }

  /// `x IN (?, ?, …)`: NULL elements become `OR x IS NULL`, elements of another type are
  /// dropped (never equal), an empty list is `1 = 0` (PostgreSQL rejects `IN ()`).
  mutating func inList(_ n: inout Operand, _ items: [SiftValue], _ c: SiftComparison, needleRange: SiftSourceRange)
    throws(SiftError) -> SQLExpr
  {
    if case .row(let r) = n {
      // An object IN a list of primary keys is not NSPredicate; compare keys only for nil.
      return items.contains(.null) ? isNull(r.key) : .alwaysFalse
    }
    var hint: SQLType?
    for item in items where !item.isNull {
      hint = (try? bind(item, hint: nil, needleRange))?.type
      break
    }
    var x = try scalar(&n, hint: hint, needleRange)
    if isNullConstant(x) { return items.contains(.null) ? .alwaysTrue : .alwaysFalse }
    let o = TextFoldCode(c.options)
    let folds = !o.isEmpty && (x.type == .string || x.type == .any || x.type.family == 0)
    if x.type == .boolean && !dialect.booleansAreIntegers { x = boolKeyed(x) }
    var hasNull = false
    var kept: [SQLExpr] = []
    // The strings before folding, for a long list folded by the database (`largeList`).
    var unfolded: [SQLExpr] = []
    for item in items {
      if item.isNull { hasNull = true; continue }
      // A column of any kind may hold every kind but a date (SQLCompilation+AnyValues).
      guard var e = try? bind(item, hint: x.type, needleRange),
        x.type == .any ? e.type != .date : x.type.comparable(with: e.type)
      else { continue }
      if x.type == .boolean, !dialect.booleansAreIntegers {
        guard let b = boolValue(item) else { continue }
        e = try bind(.bool(b), hint: .boolean, needleRange)
      }
      if folds, e.type == .string {
        unfolded.append(e)
        e = fold(e, o)
      }
      kept.append(e)
    }
    if folds { x = fold(x, o) }
    if case .date(let form, _) = x.form {
      if form == .iso8601 || form == .sqliteDateTime {
        // Several spellings per instant: one range per element (`textDateCompare`).
        var terms: [SQLExpr] = []
        for e in kept {
          if case .date(let d)? = constant(e), let t = try textDateCompare(.equal, x, d, form) { terms.append(t) }
        }
        return or(terms + [hasNull && x.nullable ? isNull(x) : .alwaysFalse])
      }
      // Each date in the column's own form; a time of day never equals a calendar date.
      var rebound: [SQLExpr] = []
      for e in kept {
        guard case .date(let d)? = constant(e) else { rebound.append(e); continue }
        var op = ComparisonOperator.equal
        var out = e
        if try rebindDate(d, against: x, &op, &out) == nil { rebound.append(out) }
      }
      kept = rebound
    }
    if dialect.exactNumericTypeName != nil, x.type == .integer || x.type == .double {
      // Keep IN exact where mixed numbers compare as doubles: convert each element to the
      // needle's type when that is exact, and drop it when no value of that type equals it.
      var converted: [SQLExpr] = []
      for e in kept {
        switch (x.type, constant(e)) {
        case (.integer, .double(let d)?):
          if let n = Int64(exactly: d) { converted.append(try bind(.int(n), hint: .integer, needleRange)) }
        case (.double, .int(let n)?):
          if let d = Double(exactly: n) { converted.append(try bind(.double(d), hint: .double, needleRange)) }
        default:
          converted.append(e)
        }
      }
      kept = converted
      if x.form == .numeric, let exact = dialect.exactNumericTypeName {
        // A `numeric` column meets exact decimals, never doubles (`numericAligned`).
        kept = kept.map { e in if case .double? = constant(e) { return exactNumber(e, exact) } else { return e } }
      }
    }
    let nullTerm = hasNull && x.nullable ? isNull(x) : SQLExpr.alwaysFalse
    kept = SQLCompilation.distinct(kept)
    if kept.isEmpty { return nullTerm }
    // One parameter for a long list.
    if let large = largeList(x, kept, unfolded: unfolded.count == kept.count ? unfolded : nil, fold: o) {
      return or([large, nullTerm])
    }
    try checkedParameters(kept, needleRange)
    func list(_ needle: SQLFragment) -> SQLFragment {
      var list = SQLFragment("\(needle) IN (")
      for (i, e) in kept.enumerated() {
        if i > 0 { list.append(", ") }
        list.append(e.sql)
      }
      list.append(")")
      return list
    }
    // A text column read under its collation (MySQL): the column's own IN first, which its
    // index serves, then the exact one (`indexedTextEquality`); a short list only, as each
    // value is bound twice.
    if !folds, kept.count <= 1000, let u = x.uncollated, x.sql.text == u.collatedText {
      return or([condition(SQLFragment("(\(list(u.column)) AND \(list(x.sql)))")), nullTerm])
    }
    return or([condition(list(x.sql)), nullTerm])
  }

  /// A boolean column compared with booleans only (PostgreSQL): unchanged.
  func boolKeyed(_ x: SQLExpr) -> SQLExpr { x }

  /// The boolean a constant stands for when compared with a boolean (0/1 and booleans).
  func boolValue(_ v: SiftValue) -> Bool? {
    switch v {
    case .bool(let b): return b
    case .int(let i): return i == 0 ? false : i == 1 ? true : nil
    case .double(let d): return d == 0 ? false : d == 1 ? true : nil
    default: return nil
    }
  }

  /// True when the operand is not nil (constants are known; objects and collections never
  /// reach here as values).
  func notNil(_ o: Operand) -> SQLExpr {
    switch o {
    case .value(let e): return isNotNull(e)
    case .constant(.null): return .alwaysFalse
    default: return .alwaysTrue
    }
  }

  /// True exactly when `e` is nil (a NaN stored as NULL is not: see `SQLCompilation.nilWhen`).
  func isNull(_ e: SQLExpr) -> SQLExpr {
    if let w = nilWhen(e) { return or(w) }
    guard e.nullable else { return .alwaysFalse }
    return condition(SQLFragment("\(e) IS NULL"))
  }

  /// True exactly when `e` is not nil.
  func isNotNull(_ e: SQLExpr) -> SQLExpr {
    if let w = nilWhen(e) { return negated(or(w)) }
    guard e.nullable else { return .alwaysTrue }
    return condition(SQLFragment("\(e) IS NOT NULL"))
  }

  /// Wraps a string in the fold function, or folds a constant in Swift when the dialect's
  /// function is `TextFolding.fold` itself.
  func fold(_ e: SQLExpr, _ code: TextFoldCode) -> SQLExpr {
    if e.type == .any { return foldedAny(e, code) }
    if dialect.foldsConstantsInSwift, case .string(let s)? = constant(e) {
      let folded = code.fold(s)
      return withConstant(bound(.text(folded), type: .string), .string(folded))
    }
    return collated(
      SQLExpr(
        SQLFragment("\(sql: dialect.foldFunction)(\(e), \(sql: code.sql))"), type: .string, nullable: e.nullable))
  }
}
