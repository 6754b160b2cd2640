import Foundation
import SiftSyntax

/// Arithmetic, bitwise operators and built-in functions (`sqrt(x)`, `modulus:by:(a, b)`, …),
/// with memory's rules for integer overflow, division by zero and NaN (Grammar/notes/sql.md).
extension SQLCompilation {
  mutating func numericScalar(_ x: ExpressionNode, _ op: String) throws(SiftError) -> SQLExpr {
    var o = try expression(x)
    let v = try scalar(&o, hint: .integer, x.range)
    guard v.type.isNumeric || v.type.family == 0 else {
      throw fail(.arithmeticNeedsNumbers(op, this: v.type), x.range)
    }
    return numeric(v)
  }

  mutating func binary(_ op: BinaryOperator, _ a: ExpressionNode, _ b: ExpressionNode, _ range: SiftSourceRange)
    throws(SiftError) -> SQLExpr
  {
    var x = try numericScalar(a, op.symbol)
    var y = try numericScalar(b, op.symbol)
    let bothInt = (x.type == .integer || x.type == .boolean) && (y.type == .integer || y.type == .boolean)
    let type: SQLType = bothInt ? .integer : (x.type == .double || y.type == .double ? .double : .unknown)
    let nullable = x.nullable || y.nullable
    func make(_ sql: SQLFragment, _ t: SQLType, nullable n: Bool = nullable) -> SQLExpr {
      SQLExpr(sql, type: t, nullable: n)
    }
    func ints() throws(SiftError) {
      guard (x.type == .integer || x.type.family == 0) && (y.type == .integer || y.type.family == 0) else {
        throw fail(.bitwiseNeedsIntegers(op.symbol), range)
      }
      (x, y) = (integerChecked(x), integerChecked(y))
    }
    // Any of them may give NaN (`inf - inf`, `0.0 / 0`, `(-1) ** 0.5`), integer-typed ones
    // too on SQLite, once an overflow into doubles reached infinity (`n * n * … - n * n * …`).
    func real(_ e: SQLExpr) -> SQLExpr { mayBeNaN(e, from: [x, y]) }
    // Memory answers nil for a nil operand before checking for integers, so `(n * 2) >> nil`
    // is nil even where `n * 2` overflowed into a double (unless the other side fails first).
    switch op {
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
      if (isNullConstant(x) && !y.mayRaise) || (isNullConstant(y) && !x.mayRaise) {
        return try bind(.null, hint: nil, range)
      }
    default: break
    }
    switch op {
    case .add, .subtract, .multiply:
      return real(make(SQLFragment("(\(x) \(sql: op.symbol) \(y))"), type))
    case .divide:
      // Integer / integer truncates and a zero divisor is an error, as in memory; doubles
      // give IEEE results. See SQLDialect.integerDivisionFunction.
      let f = bothInt ? dialect.integerDivisionFunction : dialect.realDivisionFunction
      let raises = mayBeZero(y)
      if let f { return real(make(raising(raises, SQLFragment("\(sql: f)(\(x), \(y))")), type, nullable: true)) }
      return real(make(raising(raises, SQLFragment("(\(x) / \(y))")), type, nullable: true))
    case .power:
      // Memory keeps integer ** integer exact while it fits (`NumberRules.exactPower`); a
      // negative exponent gives a fraction, so only a constant exponent >= 0 types it integer
      // (whole either way: an overflow is a whole double), as ceiling/floor/trunc rely on.
      let t: SQLType = bothInt && dialect.powerKeepsIntegers && isNonNegativeInteger(constant(y)) ? .integer : .double
      let call = make(SQLFragment("\(sql: dialect.powerFunction)(\(x), \(y))"), t)
      if dialect.nanBecomesNull, x.nilWhen != nil || y.nilWhen != nil { return nanAwarePower(call, x, y) }
      return real(call)
    case .bitwiseAnd, .bitwiseOr:
      try ints()
      return make(signed(SQLFragment("(\(x) \(sql: op.symbol) \(y))")), .integer)
    case .bitwiseXor:
      try ints()
      if let xor = dialect.xorOperator { return make(signed(SQLFragment("(\(x) \(sql: xor) \(y))")), .integer) }
      return SQLExpr(SQLFragment("((\(x) | \(y)) - (\(x) & \(y)))"), type: .integer, nullable: nullable)
    case .leftShift, .rightShift:
      try ints()
      guard dialect.supportsSmartShifts else {
        throw fail(.operatorNotFaithful(op.symbol, for: dialect.name), range)
      }
      return (make(SQLFragment("(\(x) \(sql: op.symbol) \(y))"), .integer))
    case .union, .intersect, .minus:
      // Never reached: `expression` folds set operators before arithmetic sees them.
      throw fail(.notCompilable("'\(op.symbol)' here"), range)
    }
  }

  /// A bitwise result as a signed 64-bit integer where the dialect's are unsigned (MySQL):
  /// `CAST(r AS SIGNED)` reads the 64 bits as two's complement, as memory's `Int64` holds them.
  func signed(_ r: SQLFragment) -> SQLFragment {
    dialect.bitwiseResultsAreUnsigned ? SQLFragment("CAST(\(r) AS \(sql: dialect.integerTypeName))") : r
  }

  mutating func function(_ f: BuiltinFunction, _ args: [ExpressionNode], _ range: SiftSourceRange) throws(SiftError)
    -> Operand
  {
    func arg(_ i: Int) -> ExpressionNode { args[min(i, args.count - 1)] }
    guard f.arity.contains(args.count) else {
      throw fail(.wrongArgumentCount(f.printedName, takes: f.arity.lowerBound), range)
    }
    let binaryOp: BinaryOperator?
    switch f {
    case .add: binaryOp = .add
    case .subtract: binaryOp = .subtract
    case .multiply: binaryOp = .multiply
    case .divide: binaryOp = .divide
    case .raise: binaryOp = .power
    case .bitwiseAnd: binaryOp = .bitwiseAnd
    case .bitwiseOr: binaryOp = .bitwiseOr
    case .bitwiseXor: binaryOp = .bitwiseXor
    case .leftShift: binaryOp = .leftShift
    case .rightShift: binaryOp = .rightShift
    default: binaryOp = nil
    }
    if let op = binaryOp { return .value(try binary(op, arg(0), arg(1), range)) }
    switch f {
    case .modulus:
      let x = try numericScalar(arg(0), "%")
      let y = try numericScalar(arg(1), "%")
      let bothInt = x.type == .integer && y.type == .integer
      let raises = mayBeZero(y)
      if let f = dialect.modulusFunction {
        let e = SQLExpr(
          raising(raises, SQLFragment("\(sql: f)(\(x), \(y))")), type: bothInt ? .integer : .double, nullable: true)
        return .value(mayBeNaN(e, from: [x, y]))  // fmod(x, 0.0), fmod(inf, 2) are NaN
      }
      guard bothInt else {
        throw fail(.notCompilable("modulus:by: of non-integers", for: dialect.name), range)
      }
      if let f = dialect.integerModulusFunction {
        return .value(SQLExpr(raising(raises, SQLFragment("\(sql: f)(\(x), \(y))")), type: .integer, nullable: true))
      }
      return .value(SQLExpr(raising(raises, SQLFragment("(\(x) % \(y))")), type: .integer, nullable: true))
    case .abs:
      let x = try numericScalar(arg(0), "abs")
      // abs(Int64.min) is a double in memory: typed like + - *, integer while it fits.
      let sql = SQLFragment("\(sql: dialect.absoluteValueFunction)(\(x))")
      return .value(propagatingNaN(SQLExpr(sql, type: x.type, nullable: x.nullable), from: [x]))
    case .ceiling, .floor, .trunc:
      let x = try numericScalar(arg(0), f.shortName)
      let isInteger = x.type == .integer || x.type == .boolean
      guard let name = dialect.mathFunction(f.shortName) else {
        throw fail(.functionNotAvailable(f.shortName, on: dialect.name), range)
      }
      // Memory keeps integers as they are: a double would round values beyond 2^53. SQLite's
      // function decides at run time (integer-typed arithmetic that overflowed is a double
      // there, maybe a fraction after a division); elsewhere an integer type is an integer.
      if dialect.roundingKeepsIntegers {
        let t: SQLType = isInteger ? .integer : x.type == .double ? .double : .unknown
        return .value(
          propagatingNaN(
            SQLExpr(SQLFragment("\(sql: name)(\(x))"), type: t, nullable: x.nullable || !isInteger), from: [x]))
      }
      if isInteger { return .value(x.typed(.integer, nullable: x.nullable)) }
      let sql = SQLFragment("\(sql: name)(CAST(\(x) AS \(sql: dialect.doubleTypeName)))")
      return .value(propagatingNaN(SQLExpr(sql, type: .double, nullable: true), from: [x]))
    case .sqrt, .ln, .log, .exp:
      let x = try numericScalar(arg(0), f.shortName)
      guard let name = dialect.mathFunction(f.shortName) else {
        throw fail(.functionNotAvailable(f.shortName, on: dialect.name), range)
      }
      let sql = SQLFragment("\(sql: name)(CAST(\(x) AS \(sql: dialect.doubleTypeName)))")
      let e = SQLExpr(sql, type: .double, nullable: true)
      // sqrt, ln and log of a negative number are NaN; exp only of a NaN.
      return .value(f == .exp ? propagatingNaN(e, from: [x]) : mayBeNaN(e, from: [x]))
    case .uppercase, .lowercase:
      var o = try expression(arg(0))
      // A value of any kind is checked per row (`not-a-string` unless text), as memory checks it.
      let x = textChecked(try scalar(&o, hint: .string, arg(0).range))
      guard x.type == .string || x.type.family == 0 else {
        throw fail(.functionNeedsString(f.shortName), range)
      }
      let name = f == .uppercase ? dialect.uppercaseFunction : dialect.lowercaseFunction
      return .value(SQLExpr(SQLFragment("\(sql: name)(\(x))"), type: .string, nullable: x.nullable))
    case .noindex:
      return try expression(arg(0))
    case .now:
      return .constant(.date(Date()))
    case .onesComplement:
      let x = try numericScalar(arg(0), "~")
      // As the ~ operator: SQLite's ~ would silently truncate a double, memory refuses it.
      guard x.type == .integer || x.type.family == 0 else {
        throw fail(.complementNeedsInteger("onesComplement"), range)
      }
      let i = integerChecked(x)
      return .value(SQLExpr(SQLFragment("(~ \(i))"), type: .integer, nullable: x.nullable))
    case .sum, .count, .min, .max, .average:
      let op: CollectionOperator = f == .sum ? .sum : f == .count ? .count : f == .min ? .min : f == .max ? .max : .avg
      guard case .collection(let c) = try expression(arg(0)) else {
        throw fail(.functionNeedsCollection(f.shortName), range)
      }
      return try collectionOperator(op, c, [], range)
    default:
      throw fail(.functionNotFaithful(f.printedName), range)
    }
  }
}
