import SiftSyntax

extension SQLCompilation {
  /// CONTAINS (substring), BEGINSWITH, ENDSWITH, LIKE, MATCHES, and IN with a string on the
  /// right. A nil operand or an empty needle (CONTAINS/BEGINSWITH/ENDSWITH) is false.
  mutating func stringOperator(
    _ op: ComparisonOperator, haystack: Operand, needle: Operand, _ c: SiftComparison,
    haystackRange: SiftSourceRange, needleRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    var h = haystack
    var n = needle
    // A value of any kind is checked per row (`not-a-string` unless text), as memory checks it.
    let x = textChecked(try scalar(&h, hint: .string, haystackRange), container: op == .contains)
    let y = textChecked(try scalar(&n, hint: .string, needleRange))
    let o = TextFoldCode(c.options)
    let needleText: String?
    if case .string(let s)? = constant(y) { needleText = s } else { needleText = nil }
    // A constant MATCHES pattern is checked first, whatever it meets: memory compiles it with
    // the predicate, so `nil MATCHES "("` is an error there, not false.
    if op == .matches, let pattern = needleText {
      do { _ = try RegexPattern(pattern, options: o.options) } catch {
        throw fail(.invalidRegex(error.description), needleRange)
      }
    }
    if isNullConstant(x) || isNullConstant(y) { return .alwaysFalse }
    for (e, range) in [(x, haystackRange), (y, needleRange)] where !(e.type == .string || e.type.family == 0) {
      throw fail(.stringOperatorNeedsStrings(op.keyword, this: e.type), range)
    }
    switch op {
    case .matches:
      return try regex(x, y, needleText, o, needleRange)
    case .like:
      return try like(x, y, needleText, o, needleRange)
    default:
      // An empty needle, or one its options fold to nothing (a lone mark under [d]), never
      // matches (TextSearch); LIKE '%' || '' || '%' would match everything.
      if let t = needleText, t.isEmpty || o.fold(t).isEmpty {
        return .alwaysFalse
      }
      return search(TextSearch.Position(op) ?? .anywhere, x, y, needleText, o)
    }
  }

  /// BEGINSWITH as a range an index serves: `x >= prefix AND x < the next prefix` (only the
  /// lower bound when no string follows every one with the prefix); `ge`/`lt` are the
  /// dialect's operators for the comparison the index orders by.
  func prefixRange(_ x: SQLExpr, _ prefix: String, ge: String = ">=", lt: String = "<") -> SQLExpr {
    guard let upperText = SQLText.prefixUpperBound(prefix) else {
      return condition(SQLFragment("\(x) \(sql: ge) \(bind: .text(prefix))"))
    }
    let lower = SQLFragment(binding: .text(prefix)), upper = SQLFragment(binding: .text(upperText))
    return condition(SQLFragment("(\(x) \(sql: ge) \(lower) AND \(x) \(sql: lt) \(upper))"))
  }

  /// CONTAINS (`.anywhere`), BEGINSWITH (`.prefix`), ENDSWITH (`.suffix`) — any
  /// `TextSearch.Position`, told apart by its wire code and its anchors only — of `y` in `x`.
  func search(
    _ kind: TextSearch.Position, _ x: SQLExpr, _ y: SQLExpr, _ needle: String?, _ o: TextFoldCode
  ) -> SQLExpr {
    switch dialect.stringSearch {
    case .registeredFunction(let name):
      if o.isEmpty, let needle {
        if kind == .anywhere {
          return condition(SQLFragment("\(sql: dialect.positionFunction)(\(x), \(y)) > 0"))
        }
        if kind == .prefix, dialect.prefixRangeScan { return prefixRange(x, needle) }
      }
      if !o.isEmpty, kind == .prefix, dialect.prefixRangeScan, let needle {
        // A range on the folded column (the needle folded in Swift, never empty here), so an
        // expression index on sift_fold(column, o) serves BEGINSWITH[c]/[d]/[cd] as it does ==[c];
        // a NOCASE index on the column may serve a range in front of it (+NoCasePrefix).
        let folded = o.fold(needle)
        return caselessIndexPrefilter(x, foldedNeedle: folded, o, exact: prefixRange(fold(x, o), folded))
      }
      return condition(SQLFragment("\(sql: name)(\(x), \(y), \(sql: kind.sql), \(sql: o.sql))"))
    case .likePatterns:
      let fx = o.isEmpty ? x : fold(x, o)
      if !o.isEmpty, kind == .prefix, let needle, let ops = dialect.bytewiseRangeOperators {
        // A byte range on the folded column: exact, so an expression index on sift_fold(column, o)
        // answers it without calling sift_fold again on each row (LIKE would recheck).
        return prefixRange(fx, o.fold(needle), ge: ops.greaterOrEqual, lt: ops.less)
      }
      if let needle {
        // The needle is folded alone, in Swift, as memory folds it (folding the pattern with
        // its wildcards in SQL could fold differently: a lone mark after '%' would go).
        let folded = o.fold(needle)
        let escaped = SQLText.escapeLike(folded)
        let pattern = (kind.isAnchoredAtStart ? "" : "%") + escaped + (kind.isAnchoredAtEnd ? "" : "%")
        let exact = SQLFragment("\(fx) LIKE \(bind: .text(pattern)) ESCAPE \(sql: dialect.likeEscape)")
        if o.isEmpty, kind == .prefix, let u = x.uncollated, x.sql.text == u.collatedText {
          // A text column read under its collation (MySQL): the same LIKE in the column's own
          // collation first, which its index serves as a range; a string that matches byte for
          // byte matches there too, and the exact LIKE decides (`indexedTextEquality`).
          let own = SQLFragment("\(u.column) LIKE \(bind: .text(pattern)) ESCAPE \(sql: dialect.likeEscape)")
          return condition(SQLFragment("(\(own) AND \(exact))"))
        }
        return condition(exact)
      }
      let fy = o.isEmpty ? y : fold(y, o)
      let len = SQLFragment("\(sql: dialect.characterLengthFunction)(\(fy))")
      let test: SQLFragment
      // The position's anchors decide the test, so a new `TextSearch.Position` needs no case here.
      switch (kind.isAnchoredAtStart, kind.isAnchoredAtEnd) {
      case (false, false): test = SQLFragment("\(sql: dialect.positionFunction)(\(fx), \(fy)) > 0")
      case (true, false): test = SQLFragment("left(\(fx), \(len)) = \(fy)")
      case (false, true): test = SQLFragment("right(\(fx), \(len)) = \(fy)")
      case (true, true): test = SQLFragment("\(fx) = \(fy)")
      }
      return condition(SQLFragment("(\(test) AND \(len) > 0)"))
    }
  }

  /// LIKE: the registered `sift_like` (SQLite), or the pattern translated to SQL LIKE with
  /// `ESCAPE '\'` (`*` → `%`, `?` → `_`, literal `%`/`_`/`\` escaped).
  func like(_ x: SQLExpr, _ y: SQLExpr, _ pattern: String?, _ o: TextFoldCode, _ range: SiftSourceRange)
    throws(SiftError) -> SQLExpr
  {
    if let name = dialect.likeFunction {
      return condition(SQLFragment("\(sql: name)(\(x), \(y), \(sql: o.sql))"))
    }
    guard let pattern else {
      throw fail(.notCompilable("LIKE with a non-constant pattern", for: dialect.name), range)
    }
    // The pattern is folded in Swift first, exactly as LikePattern folds it in memory.
    let folded = o.fold(pattern)
    let fx = o.isEmpty ? x : fold(x, o)
    return condition(
      SQLFragment("\(fx) LIKE \(bind: .text(SQLText.likePattern(folded))) ESCAPE \(sql: dialect.likeEscape)"))
  }

  /// MATCHES: whole-string ICU regex through a registered function (SQLite), or an anchored
  /// `~`/`~*` (PostgreSQL). A constant pattern was checked by `stringOperator`, so a bad one
  /// is a compile error with its range rather than a failure at run time.
  func regex(_ x: SQLExpr, _ y: SQLExpr, _ pattern: String?, _ o: TextFoldCode, _ range: SiftSourceRange)
    throws(SiftError) -> SQLExpr
  {
    // A computed pattern may be invalid: an error at run time, as in memory.
    let raises = pattern == nil
    switch dialect.regex {
    case .registeredFunction(let name):
      if o.isEmpty { return condition(raising(raises, SQLFragment("\(x) REGEXP \(y)"))) }
      return condition(raising(raises, SQLFragment("\(sql: name)(\(x), \(y), \(sql: o.sql))")))
    case .anchoredOperator(let cs, let ci):
      let d = o.diacriticsOnly
      let fx = d.isEmpty ? x : fold(x, d)
      let fy = d.isEmpty ? y : SQLExpr(SQLFragment("\(sql: dialect.foldFunction)(\(y), \(sql: d.sql))"), type: .string)
      let sym = o.caseless ? ci : cs
      return condition(raising(raises, SQLFragment("\(fx) \(sql: sym) ('^(?:' || \(fy) || ')$')")))
    case .anchoredPCRE(let op):
      if let pattern, let construct = SQLCompilation.pcreDifference(pattern) {
        throw fail(
          .notCompilable("MATCHES with \(construct) (ICU and PCRE read it differently)", for: dialect.name), range)
      }
      let d = o.diacriticsOnly
      let fx = d.isEmpty ? x : fold(x, d)
      let fy = d.isEmpty ? y : fold(y, d)
      let head = o.caseless ? "(*ANY)(*UCP)(?i)^(?:" : "(*ANY)(*UCP)^(?:"
      // CONCAT, not `||`: MySQL reads `||` as OR unless the session's sql_mode says otherwise.
      return condition(raising(raises, SQLFragment("\(fx) \(sql: op) CONCAT('\(sql: head)', \(fy), ')(?!(?s:.))')")))
    }
  }
}
