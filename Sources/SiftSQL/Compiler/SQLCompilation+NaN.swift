import SiftSyntax

/// NaN on databases that store it as NULL (SQLite; `SQLDialect.nanBecomesNull`).
///
/// Memory keeps NaN (`sqrt(-1)`, `0.0 / 0`, `1e999 - 1e999`), and a NaN is not nil:
/// `sqrt(x) == nil` is false for a negative x, `sqrt(x) == sqrt(x)` is false (NaN equals
/// nothing) and `sqrt(x) != nil` is true. SQLite turns every NaN into NULL, so `IS NULL`,
/// `IS` and `IS NOT` would take it for nil. Arithmetic and the math functions give nil exactly
/// when an operand is nil, so a value that may be NaN carries the nil tests of its operands
/// (`SQLCompilation.nilWhen`), and `isNull`, `isNotNull`, `==` and `!=` use them. Ordering needs
/// nothing: NULL, like NaN, is ordered against nothing.
extension SQLCompilation {
  /// Conditions, ORed, under which `e` is nil (none: never nil).
  func nilConditions(_ e: SQLExpr) -> [SQLExpr] {
    if let w = nilWhen(e) { return w }
    guard e.nullable else { return [] }
    return [SQLExpr(SQLFragment("\(e) IS NULL"), type: .boolean, nullable: false)]
  }

  /// `result`, computed from `operands` by an operation that may give NaN for operands that
  /// are not NaN (double arithmetic, `**`, `modulus:by:`, `sqrt`, `ln`, `log`), marked so:
  /// nil exactly when an operand is nil.
  func mayBeNaN(_ result: SQLExpr, from operands: [SQLExpr]) -> SQLExpr {
    guard dialect.nanBecomesNull else { return result }
    var conditions: [SQLExpr] = []
    if result.mayRaise {
      // A nil test must still evaluate what may fail (`n / 0 == nil` fails in memory).
      conditions.append(condition(SQLFragment("CASE WHEN (\(result)) IS NULL THEN FALSE ELSE FALSE END")))
    }
    for o in operands { conditions += nilConditions(o) }
    var marked = withNilWhen(result, conditions)
    marked.nullable = true
    return marked
  }

  /// `result`, computed from `operands` by an operation that gives NaN for a NaN operand
  /// (negation, `abs`, rounding, `exp`): marked when an operand is.
  func propagatingNaN(_ result: SQLExpr, from operands: [SQLExpr]) -> SQLExpr {
    guard operands.contains(where: { $0.nilWhen != nil }) else { return result }
    return mayBeNaN(result, from: operands)
  }

  /// `x == y` when either side may be NaN: equal values, or both nil. Never `IS`, which
  /// would call two NaNs (two NULLs) equal.
  func nanAwareEqual(_ x: SQLExpr, _ y: SQLExpr) -> SQLExpr {
    let eq = condition(SQLFragment("\(x) = \(y)"))
    return or([eq, and([isNull(x), isNull(y)])])
  }

  /// `x ** y` when either operand may be NaN: IEEE gives `NaN ** 0 == 1` and `1 ** NaN == 1`
  /// (as memory, a double), but the power function only sees NULL for the NaN. Only a NaN
  /// operand (NULL here, and not nil) takes those branches: any other goes to the power
  /// function, which keeps `2 ** 0` the integer 1 as memory does (`2 ** 0 ** 5 / 0` divides
  /// an integer by zero, an error).
  func nanAwarePower(_ call: SQLExpr, _ x: SQLExpr, _ y: SQLExpr) -> SQLExpr {
    let none = or(nilConditions(x) + nilConditions(y))
    var sql = SQLFragment("CASE WHEN \(none) THEN NULL")
    for (nan, other, value) in [(x, y, SQLValue.integer(0)), (y, x, SQLValue.integer(1))] {
      sql.append(SQLFragment(" WHEN \(nan) IS NULL AND \(other) = \(bind: value) THEN \(bind: .double(1))"))
    }
    sql.append(SQLFragment(" ELSE \(call) END"))
    return mayBeNaN(SQLExpr(sql, type: .double, nullable: true), from: [x, y])
  }

  /// The nil test of `TERNARY(p, a, b)` when a branch may be NaN.
  func ternaryNilWhen(_ cond: SQLExpr, _ a: SQLExpr, _ b: SQLExpr) -> [SQLExpr]? {
    guard a.nilWhen != nil || b.nilWhen != nil else { return nil }
    let na = or(nilConditions(a)), nb = or(nilConditions(b))
    let sql = SQLFragment("CASE WHEN \(cond) THEN (\(na)) ELSE (\(nb)) END")
    return [SQLExpr(sql, type: .boolean, nullable: false)]
  }
}
