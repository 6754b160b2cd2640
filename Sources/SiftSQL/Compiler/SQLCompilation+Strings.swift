import SiftSyntax

extension SQLCompilation {
  /// CONTAINS (substring), BEGINSWITH, ENDSWITH, LIKE, MATCHES, and IN with a string on the
  /// right. A nil operand or an empty needle (CONTAINS/BEGINSWITH/ENDSWITH) is false.
  mutating func stringOperator(
    _ op: ComparisonOperator, haystack: Operand, needle: Operand, _ c: Comparison,
    haystackRange: SourceRange, needleRange: SourceRange
  ) throws(SiftError) -> SQLExpr {
    var h = haystack
    var n = needle
    let x = try scalar(&h, hint: .string, haystackRange)
    let y = try scalar(&n, hint: .string, needleRange)
    if x.constant?.isNull == true || y.constant?.isNull == true { return .alwaysFalse }
    for (e, range) in [(x, haystackRange), (y, needleRange)] where !(e.type == .string || e.type.family == 0) {
      throw fail("string-operator-needs-strings", "\(op.keyword) needs strings, but this is \(e.type)", range)
    }
    let o = c.options.rawValue & 3
    let needleText: String?
    if case .string(let s)? = y.constant { needleText = s } else { needleText = nil }
    switch op {
    case .matches:
      return try regex(x, y, needleText, o, needleRange)
    case .like:
      return try like(x, y, needleText, o, needleRange)
    default:
      // An empty needle, or one its options fold to nothing (a lone mark under [d]), never
      // matches (TextSearch); LIKE '%' || '' || '%' would match everything.
      if let t = needleText, t.isEmpty || (o != 0 && TextFolding.fold(t, ComparisonOptions(rawValue: o)).isEmpty) {
        return .alwaysFalse
      }
      let kind = op == .beginsWith ? 1 : op == .endsWith ? 2 : 0
      return search(kind, x, y, needleText, o)
    }
  }

  /// kind: 0 contains, 1 begins with, 2 ends with.
  func search(_ kind: Int, _ x: SQLExpr, _ y: SQLExpr, _ needle: String?, _ o: UInt8) -> SQLExpr {
    switch dialect.stringSearch {
    case .registeredFunction(let name):
      if o == 0, let needle {
        if kind == 0 {
          return SQLExpr.condition(dialect.positionFunction + "(" + x.sql + ", " + y.sql + ") > 0", [x, y])
        }
        if kind == 1, dialect.prefixRangeScan {
          let lower = SQLExpr(SQLExpr.marker, [.text(needle)], type: .string, nullable: false)
          guard let upperText = SQLText.prefixUpperBound(needle) else {
            return SQLExpr.condition(x.sql + " >= " + lower.sql, [x, lower])
          }
          let upper = SQLExpr(SQLExpr.marker, [.text(upperText)], type: .string, nullable: false)
          return SQLExpr.condition(
            "(" + x.sql + " >= " + lower.sql + " AND " + x.sql + " < " + upper.sql + ")", [x, lower, x, upper])
        }
      }
      return SQLExpr.condition(
        name + "(" + x.sql + ", " + y.sql + ", " + String(kind) + ", " + String(o) + ")", [x, y])
    case .likePatterns:
      let fx = o == 0 ? x : fold(x, o)
      if let needle {
        // The needle is folded alone, in Swift, as memory folds it (folding the pattern with
        // its wildcards in SQL could fold differently: a lone mark after '%' would go).
        let folded = o == 0 ? needle : TextFolding.fold(needle, ComparisonOptions(rawValue: o))
        let escaped = SQLText.escapeLike(folded)
        let pattern = kind == 0 ? "%" + escaped + "%" : kind == 1 ? escaped + "%" : "%" + escaped
        let p = SQLExpr(SQLExpr.marker, [.text(pattern)], type: .string, nullable: false)
        return SQLExpr.condition(fx.sql + " LIKE " + p.sql + " ESCAPE '\\'", [fx, p])
      }
      let fy = o == 0 ? y : fold(y, o)
      let len = "length(" + fy.sql + ")"
      let test: String
      switch kind {
      case 0: test = dialect.positionFunction + "(" + fx.sql + ", " + fy.sql + ") > 0"
      case 1: test = "left(" + fx.sql + ", " + len + ") = " + fy.sql
      default: test = "right(" + fx.sql + ", " + len + ") = " + fy.sql
      }
      let parts = kind == 0 ? [fx, fy, fy] : [fx, fy, fy, fy]
      return SQLExpr.condition("(" + test + " AND " + len + " > 0)", parts)
    }
  }

  /// LIKE: the registered `sift_like` (SQLite), or the pattern translated to SQL LIKE with
  /// `ESCAPE '\'` (`*` → `%`, `?` → `_`, literal `%`/`_`/`\` escaped).
  func like(_ x: SQLExpr, _ y: SQLExpr, _ pattern: String?, _ o: UInt8, _ range: SourceRange) throws(SiftError) -> SQLExpr {
    if let name = dialect.likeFunction {
      return SQLExpr.condition(name + "(" + x.sql + ", " + y.sql + ", " + String(o) + ")", [x, y])
    }
    guard let pattern else {
      throw fail("unsupported-in-sql", "LIKE with a non-constant pattern cannot be compiled for \(dialect.name)", range)
    }
    // The pattern is folded in Swift first, exactly as LikePattern folds it in memory.
    let folded = o == 0 ? pattern : TextFolding.fold(pattern, ComparisonOptions(rawValue: o))
    let p = SQLExpr(SQLExpr.marker, [.text(SQLText.likePattern(folded))], type: .string, nullable: false)
    let fx = o == 0 ? x : fold(x, o)
    return SQLExpr.condition(fx.sql + " LIKE " + p.sql + " ESCAPE '\\'", [fx, p])
  }

  /// MATCHES: whole-string ICU regex through a registered function (SQLite), or an anchored
  /// `~`/`~*` (PostgreSQL). A constant pattern is checked here, so a bad one is a compile
  /// error with its range rather than a failure at run time.
  func regex(_ x: SQLExpr, _ y: SQLExpr, _ pattern: String?, _ o: UInt8, _ range: SourceRange) throws(SiftError) -> SQLExpr {
    if let pattern {
      do { _ = try RegexPattern(pattern, options: ComparisonOptions(rawValue: o)) } catch {
        throw fail("invalid-regex", error.description, range)
      }
    }
    // A computed pattern may be invalid: an error at run time, as in memory.
    let mark = pattern == nil ? SQLExpr.raises : ""
    switch dialect.regex {
    case .registeredFunction(let name):
      if o == 0 { return SQLExpr.condition(mark + x.sql + " REGEXP " + y.sql, [x, y]) }
      return SQLExpr.condition(mark + name + "(" + x.sql + ", " + y.sql + ", " + String(o) + ")", [x, y])
    case .anchoredOperator(let cs, let ci):
      let d = o & 2
      let fx = d == 0 ? x : fold(x, d)
      let fy = d == 0 ? y : SQLExpr(dialect.foldFunction + "(" + y.sql + ", " + String(d) + ")", y.bindings, type: .string)
      let sym = o & 1 == 0 ? cs : ci
      return SQLExpr.condition(mark + fx.sql + " " + sym + " ('^(?:' || " + fy.sql + " || ')$')", [fx, fy])
    }
  }
}
