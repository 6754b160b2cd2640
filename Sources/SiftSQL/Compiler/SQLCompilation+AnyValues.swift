import SiftSyntax

/// A column that keeps any kind (`SQLType.any`: a STRICT table's `ANY` column, a column with
/// no declared type): each row compares by the kind it stores, as memory compares the same
/// values (Grammar/notes/introspection.md, "Columns that keep any kind").
///
/// - `==`, `!=`, `IN`: by stored value with SQLite's `IS`/`IS NOT`/`IN`, never converting one
///   kind into another: such a column has BLOB affinity, which converts no bound value, and a
///   column of another attribute it meets is written `+col`, which drops that column's
///   affinity (an INTEGER column would otherwise turn the text '42' into 42). A date never
///   equals what such a column stores (memory reads numbers or text from it).
/// - `<`, `<=`, `>`, `>=`, `BETWEEN`: behind `sift_orderable`, the error `incomparable-values`
///   for a row whose value memory cannot order against the other side (a string against a
///   number, any data); against a date or data the comparison is refused when compiled.
/// - the string operators: behind `sift_text`, the error `not-a-string` for a row holding
///   another kind (`not-a-collection` when it is the container of `IN`/`CONTAINS`).
/// - `[c]`/`[d]` fold only the rows holding text (`sift_fold` would turn 42 into '42').
extension SQLCompilation {
  /// `x op y` where either side keeps any kind; comparisons with nil were folded before.
  func anyCompare(_ op: ComparisonOperator, _ x: SQLExpr, _ y: SQLExpr, _ c: SiftComparison) throws(SiftError)
    -> SQLExpr
  {
    guard let checks = dialect.anyValueChecks else {
      throw fail(.notCompilable("a column that keeps any kind", for: dialect.name), c.operatorRange)
    }
    let other = x.type == .any ? y.type : x.type
    let o = TextFoldCode(c.options)
    var x = o.isEmpty || !(x.type == .string || x.type == .any) ? x : fold(x, o)
    var y = o.isEmpty || !(y.type == .string || y.type == .any) ? y : fold(y, o)
    let bothNullable = x.nullable && y.nullable
    switch op {
    case .equal, .notEqual:
      if other == .date {
        return op == .equal ? and([isNull(x), isNull(y)]) : or([isNotNull(x), isNotNull(y)])
      }
      x = withoutAffinity(x)
      y = withoutAffinity(y)
      if op != .equal { return nullSafeNotEqual(x.sql, y.sql) }
      let sym = bothNullable ? dialect.nullSafeEqualOperator : "="
      return condition(SQLFragment("\(x) \(sql: sym) \(y)"))
    default:
      if other == .date || other == .data {
        throw fail(.incomparable(x.type, y.type), c.operatorRange)
      }
      if x.type == .any {
        x = SQLExpr(
          raising(true, SQLFragment("\(sql: checks.orderable)(\(x), \(y))")), type: .any, nullable: x.nullable)
      } else {
        y = SQLExpr(
          raising(true, SQLFragment("\(sql: checks.orderable)(\(y), \(x))")), type: .any, nullable: y.nullable)
      }
      let symbol: String
      switch op {
      case .lessThan: symbol = " < "
      case .lessThanOrEqual: symbol = " <= "
      case .greaterThan: symbol = " > "
      default: symbol = " >= "
      }
      let base = condition(SQLFragment("\(x)\(sql: symbol)\(y)"))
      if bothNullable && (op == .lessThanOrEqual || op == .greaterThanOrEqual) {
        return or([base, and([isNull(x), isNull(y)])])
      }
      return base
    }
  }

  /// A computed side meeting a column of any kind, with its affinity dropped (`+x`): SQLite
  /// applies an INTEGER, REAL or NUMERIC column's affinity to the other side of a comparison.
  /// Bound constants and values of any kind have no affinity to drop.
  func withoutAffinity(_ e: SQLExpr) -> SQLExpr {
    guard e.type != .any, e.constant == nil else { return e }
    var out = e
    out.sql = SQLFragment("+\(e)")
    return out
  }

  /// An operand of a string operator that keeps any kind, checked per row (`sift_text`:
  /// `not-a-string` unless text or NULL, or `not-a-collection` for the `container` of
  /// `IN`/`CONTAINS`, as memory says); other operands unchanged.
  func textChecked(_ e: SQLExpr, container: Bool = false) -> SQLExpr {
    guard e.type == .any, let checks = dialect.anyValueChecks else { return e }
    let role = container ? "1" : "0"
    return SQLExpr(
      raising(true, SQLFragment("\(sql: checks.text)(\(e), \(sql: role))")), type: .string, nullable: e.nullable)
  }

  /// `fold` of a value of any kind: the rows holding text folded, the others as stored.
  func foldedAny(_ e: SQLExpr, _ code: TextFoldCode) -> SQLExpr {
    let folded = SQLFragment("\(sql: dialect.foldFunction)(\(e), \(sql: code.sql))")
    return SQLExpr(
      SQLFragment("CASE WHEN typeof(\(e)) = 'text' THEN \(folded) ELSE \(e) END"), type: .any, nullable: e.nullable)
  }
}
