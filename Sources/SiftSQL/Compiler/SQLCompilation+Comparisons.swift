import SiftSyntax

extension ComparisonOperator {
  /// The operator with its operands swapped (`a < b` ⇔ `b > a`).
  var flipped: ComparisonOperator {
    switch self {
    case .lessThan: return .greaterThan
    case .greaterThan: return .lessThan
    case .lessThanOrEqual: return .greaterThanOrEqual
    case .greaterThanOrEqual: return .lessThanOrEqual
    default: return self
    }
  }
}

extension SQLCompilation {
  /// `==`, `!=`, `<`, `<=`, `>`, `>=` between two single values, with NSPredicate's rules:
  /// nil equals only nil, `!=` is true when exactly one side is nil, ordering with nil is
  /// false except nil <= nil; values of different kinds are never equal (no coercion), and
  /// ordering them is an error; `[c]`/`[d]` fold both sides of a string comparison.
  mutating func scalarCompare(
    _ op: ComparisonOperator, _ l: inout Operand, _ r: inout Operand, _ c: SiftComparison,
    lhsRange: SiftSourceRange, rhsRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    var op = op
    if case .row(let a) = l { return try rowCompare(op, a, r, c, rowRange: lhsRange, otherRange: rhsRange) }
    if case .row(let b) = r { return try rowCompare(op.flipped, b, l, c, rowRange: rhsRange, otherRange: lhsRange) }
    if let nilTest = collectionNilTest(op, l, r) ?? collectionNilTest(op.flipped, r, l) { return nilTest }
    if let u = uuidEquality(op, l, r, c) ?? uuidEquality(op, r, l, c) { return u }
    var x: SQLExpr
    var y: SQLExpr
    if case .constant = l {
      y = try scalar(&r, hint: nil, rhsRange)
      x = try scalar(&l, hint: y.type, lhsRange)
    } else {
      x = try scalar(&l, hint: nil, lhsRange)
      y = try scalar(&r, hint: x.type, rhsRange)
    }
    let xNull = isNullConstant(x)
    let yNull = isNullConstant(y)
    if xNull && yNull {
      return op == .equal || op == .lessThanOrEqual || op == .greaterThanOrEqual ? .alwaysTrue : .alwaysFalse
    }
    if xNull || yNull {
      let other = xNull ? y : x
      switch op {
      case .equal, .lessThanOrEqual, .greaterThanOrEqual: return isNull(other)
      case .notEqual: return isNotNull(other)
      default: return .alwaysFalse
      }
    }
    if x.type == .any || y.type == .any { return try anyCompare(op, x, y, c) }
    if !x.type.comparable(with: y.type) {
      switch op {
      // Values of different types are never equal, but nil == nil (both sides null) is true.
      case .equal: return and([isNull(x), isNull(y)])
      case .notEqual: return or([isNotNull(x), isNotNull(y)])
      default:
        throw fail(.incomparable(x.type, y.type), c.operatorRange)
      }
    }
    if x.type == .date, y.type == .date, let folded = try alignDates(&op, &x, &y) { return folded }
    if x.form == .numeric || y.form == .numeric { numericAligned(&x, &y) }
    if !dialect.booleansAreIntegers, x.type == .boolean || y.type == .boolean, x.type != y.type {
      if let folded = try coerceBoolean(op, &x, &y, rhsRange) { return folded }
    }
    if let exact = dialect.exactNumericTypeName,
      (x.type == .integer && y.type == .double) || (x.type == .double && y.type == .integer)
    {
      if let folded = try mixedNumeric(op, &x, &y, exact, rhsRange) { return folded }
    }
    let o = TextFoldCode(c.options)
    if !o.isEmpty, x.type == .string || y.type == .string {
      x = fold(x, o)
      y = fold(y, o)
    }
    let bothNullable = x.nullable && y.nullable
    if x.nilWhen != nil || y.nilWhen != nil, op == .equal || op == .notEqual {
      let eq = nanAwareEqual(x, y)
      return op == .equal ? eq : negated(eq)
    }
    switch op {
    case .equal:
      if !bothNullable, o.isEmpty, let e = indexedTextEquality(x, y) ?? indexedTextEquality(y, x) { return e }
      if !bothNullable { return condition(SQLFragment("\(x) = \(y)")) }
      return condition(SQLFragment("\(x) \(sql: dialect.nullSafeEqualOperator) \(y)"))
    case .notEqual:
      return nullSafeNotEqual(x.sql, y.sql)
    default:
      let coll = x.type == .string && y.type == .string ? collation(for: x) : ""
      let symbol: String
      switch op {
      case .lessThan: symbol = " < "
      case .lessThanOrEqual: symbol = " <= "
      case .greaterThan: symbol = " > "
      default: symbol = " >= "
      }
      let base = condition(SQLFragment("\(x)\(sql: coll)\(sql: symbol)\(y)"))
      if bothNullable && (op == .lessThanOrEqual || op == .greaterThanOrEqual) {
        return or([base, and([isNull(x), isNull(y)])])
      }
      return base
    }
  }

  /// Integer against double where the database would compare them as doubles (PostgreSQL):
  /// a double constant facing an integer becomes the equivalent integer bound (`n > 2.5` is
  /// `n > 2`), an integer constant within ±2^53 is exact as a double, and anything else is
  /// compared as `NUMERIC`. Returns a folded result when the answer is known.
  func mixedNumeric(
    _ op: ComparisonOperator, _ x: inout SQLExpr, _ y: inout SQLExpr, _ exact: String, _ range: SiftSourceRange
  ) throws(SiftError) -> SQLExpr? {
    let limit: Int64 = 1 << 53
    for constOnRight in [true, false] {
      let constSide = constOnRight ? y : x
      let otherSide = constOnRight ? x : y
      if case .int(let c)? = constant(constSide), c >= -limit, c <= limit { return nil }
      guard case .double(let d)? = constant(constSide), otherSide.type == .integer else { continue }
      let effective = constOnRight ? op : op.flipped
      // other `effective` d, with other an integer column.
      if d.isNaN { return op == .notEqual ? .alwaysTrue : .alwaysFalse }
      let bound: Double
      switch effective {
      case .greaterThan, .lessThanOrEqual: bound = d.rounded(.down)
      case .greaterThanOrEqual, .lessThan: bound = d.rounded(.up)
      default:
        if d != d.rounded() { return op == .equal ? .alwaysFalse : .alwaysTrue }
        bound = d
      }
      guard let n = Int64(exactly: bound) else {
        // Beyond the integer range: every integer is below (or above) the bound.
        let allBelow = bound > 0
        switch effective {
        case .lessThan, .lessThanOrEqual: return allBelow ? isNotNull(otherSide) : .alwaysFalse
        case .greaterThan, .greaterThanOrEqual: return allBelow ? .alwaysFalse : isNotNull(otherSide)
        case .notEqual: return .alwaysTrue
        default: return .alwaysFalse
        }
      }
      let bound2 = try bind(.int(n), hint: .integer, range)
      if constOnRight { y = bound2 } else { x = bound2 }
      return nil
    }
    x = exactNumber(x, exact)
    y = exactNumber(y, exact)
    return nil
  }

  /// `CAST(x AS NUMERIC)`, exact for both integers and doubles: PostgreSQL's direct
  /// double→numeric cast keeps only 15 digits, so a double constant is bound as its exact
  /// decimal text and a computed double goes through the dialect's exact function
  /// (`sift_exact`), or else its shortest round-trip text (exact below 2^53).
  func exactNumber(_ x: SQLExpr, _ type: String) -> SQLExpr {
    if x.type == .double && x.constant == nil {
      if let f = dialect.exactDoubleFunction {
        return SQLExpr(SQLFragment("\(sql: f)(\(x))"), type: .double, nullable: x.nullable)
      }
      return SQLExpr(
        SQLFragment("CAST(CAST(\(x) AS \(sql: dialect.textTypeName)) AS \(sql: type))"), type: .double,
        nullable: x.nullable)
    }
    var value = x.sql
    if case .double(let d)? = constant(x) {
      let text: String
      if d.isNaN {
        text = "NaN"
      } else if d.isInfinite {
        text = d < 0 ? "-Infinity" : "Infinity"
      } else if d == d.rounded(), let i = Int64(exactly: d) {
        text = String(i)
      } else {
        text = String(d)
      }
      value = SQLFragment(binding: .text(text))
    }
    return SQLExpr(SQLFragment("CAST(\(value) AS \(sql: type))"), type: .double, nullable: x.nullable)
  }

  /// Where booleans are not numbers (PostgreSQL): a 0/1 constant meeting a boolean binds as a
  /// boolean; another number makes `==` false and `!=` true; ordering casts to integer.
  func coerceBoolean(_ op: ComparisonOperator, _ x: inout SQLExpr, _ y: inout SQLExpr, _ range: SiftSourceRange)
    throws(SiftError) -> SQLExpr?
  {
    let xIsBool = x.type == .boolean
    let other = xIsBool ? y : x
    if let v = constant(other), op == .equal || op == .notEqual {
      guard let b = boolValue(v) else { return op == .equal ? .alwaysFalse : .alwaysTrue }
      let bound = try bind(.bool(b), hint: .boolean, range)
      if xIsBool { y = bound } else { x = bound }
      return nil
    }
    x = numeric(x)
    y = numeric(y)
    return nil
  }

  /// `tags == nil`, `menu != nil`: whether a to-many or array value is nil (missing or null,
  /// not empty), read from the owner's stored element count, which a union operator keeps
  /// (`menu.@unionOfObjects.item` is nil when `menu` is). A SUBQUERY's result, which has no
  /// count, is never nil. Nil for any other comparison.
  func collectionNilTest(_ op: ComparisonOperator, _ a: Operand, _ b: Operand) -> SQLExpr? {
    guard op == .equal || op == .notEqual, case .constant(.null) = b, case .collection(let col) = a else { return nil }
    guard let presence = col.presence else { return op == .equal ? .alwaysFalse : .alwaysTrue }
    return op == .equal ? isNull(presence) : isNotNull(presence)
  }

  /// Objects compare by primary key, and only for (in)equality: `location == nil`.
  mutating func rowCompare(
    _ op: ComparisonOperator, _ row: RowRef, _ other: Operand, _ c: SiftComparison,
    rowRange: SiftSourceRange, otherRange: SiftSourceRange
  ) throws(SiftError) -> SQLExpr {
    guard op == .equal || op == .notEqual else {
      throw fail(.objectComparison, c.operatorRange)
    }
    switch other {
    case .constant(.null):
      return op == .equal ? isNull(row.key) : isNotNull(row.key)
    case .row(let o) where o.entity.name == row.entity.name:
      if op == .notEqual { return nullSafeNotEqual(row.key.sql, o.key.sql) }
      return condition(SQLFragment("\(row.key) \(sql: dialect.nullSafeEqualOperator) \(o.key)"))
    default:
      throw fail(.objectComparedWithOther(entity: row.entity.name), otherRange)
    }
  }
}
