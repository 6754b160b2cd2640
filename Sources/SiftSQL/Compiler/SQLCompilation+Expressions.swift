import Foundation
import SiftSyntax

extension SQLCompilation {
  /// Compiles an expression to an operand (constants stay unbound until they meet a type),
  /// refusing one whose SQL outgrows `SQLCompilation.maxFragmentBytes` (see `checkedSize`).
  mutating func expression(_ e: ExpressionNode) throws(SiftError) -> Operand {
    let o = try uncheckedExpression(e)
    if case .value(let v) = o { try checkedSize(v, e.range) }
    return o
  }

  mutating func uncheckedExpression(_ e: ExpressionNode) throws(SiftError) -> Operand {
    switch e.kind {
    case .constant(let v):
      return .constant(v)
    case .evaluatedObject:
      return .row(selfRow)
    case .variable(let name):
      guard let v = variables[name] else {
        throw fail("unbound-variable", "variable $\(name) has no value; substitute it before compiling", e.range)
      }
      return v
    case .keyPath(let base, let kp):
      if base == nil, kp.components.count == 1, case .key(let k) = kp.components[0] {
        return try member(selfRow, k, e.range)  // `name`: the commonest key path
      }
      let b = try base.map { (x: ExpressionNode) throws(SiftError) -> Operand in try expression(x) } ?? .row(selfRow)
      return try resolve(b, kp.components[...], e.range)
    case .index(let base, let kind):
      return try index(try expression(base), kind, e.range)
    case .aggregate(let items):
      var out: [Operand] = []
      for item in items { out.append(try expression(item)) }
      return .list(out)
    case .unary(let op, let x):
      let v = try numericScalar(x, op.symbol)
      if op == .negate {
        if dialect.negationLosesSignedZero {
          // SQLite computes -x as 0 - x, which makes -(0.0) +0.0; memory's is -0.0 (x / -0.0
          // is -infinity). x * -1 is the same number otherwise (Int64.min overflows alike).
          let s = out.count
          out.put("(")
          out.put(v)
          out.put(" * ")
          _ = out.placeholder(.integer(-1))
          out.put(")")
          let e = SQLExpr(out.span(since: s), type: v.type, nullable: v.nullable)
          return .value(propagatingNaN(e, from: [v]))
        }
        return .value(propagatingNaN(SQLExpr(cat("(- ", v, ")"), type: v.type, nullable: v.nullable), from: [v]))
      }
      guard v.type == .integer || v.type.family == 0 else {
        throw fail("bitwise-needs-integers", "~ needs an integer", e.range)
      }
      let i = integerChecked(v)
      return .value(SQLExpr(cat("(~ ", i, ")"), type: .integer, nullable: v.nullable))
    case .binary(let op, let a, let b):
      return .value(try binary(op, a, b, e.range))
    case .function(let f, let args):
      return try function(f, args, e.range)
    case .customFunction(_, let selector, _):
      throw fail("unsupported-in-sql", "FUNCTION(…, '\(selector)') cannot be compiled to SQL", e.range)
    case .subquery(let collection, let variable, let predicate):
      guard case .collection(let c) = try expression(collection) else {
        throw fail("subquery-needs-collection", "SUBQUERY needs a to-many relationship or an array attribute", collection.range)
      }
      let element: Operand
      switch c.element {
      case .row(let r): element = .row(r)
      case .value(let v): element = .value(v)
      }
      let saved = variables[variable]
      variables[variable] = element
      defer { variables[variable] = saved }
      var out = c
      out.filtered = true
      out.presence = nil  // SUBQUERY over nil is an empty array in memory: @count is 0
      let filter = try self.predicate(predicate, positive: true)
      out.condition = and([c.condition, filter])
      return .collection(out)
    case .cast(let x, let type):
      return try cast(x, type, e.range)
    case .ternary(let p, let a, let b):
      let cond = try predicate(p, positive: true)
      var (x, y) = (try expression(a), try expression(b))
      let vx = try scalar(&x, hint: nil, a.range)
      let vy = try scalar(&y, hint: vx.type, b.range)
      let vx2 = try constant(vx).map { (c: SiftValue) throws(SiftError) -> SQLExpr in try bind(c, hint: vy.type, a.range) } ?? vx
      // Branches of different kinds would give a value of no static type, which SQL orders,
      // searches and adds dynamically where memory reports the type error it meets.
      if vx2.type.family != 0, vy.type.family != 0, vx2.type.family != vy.type.family {
        throw fail(
          "type-mismatch", "TERNARY's branches are \(vx2.type) and \(vy.type); in SQL both must be of one kind", e.range)
      }
      var type = vx2.type == vy.type ? vx2.type : .unknown
      if vx2.type.isNumeric && vy.type.isNumeric && type == .unknown { type = .double }
      if vx2.type == .null { type = vy.type }
      if vy.type == .null { type = vx2.type }
      let sql = cat("CASE WHEN ", cond, " THEN ", vx2, " ELSE ", vy, " END")
      let t = SQLExpr(sql, type: type, nullable: vx2.nullable || vy.nullable)
      return .value(withNilWhen(t, ternaryNilWhen(cond, vx2, vy)))
    case .assignment:
      throw fail("unsupported-in-sql", "an assignment ($x := …) cannot be compiled to SQL", e.range)
    case .anyKey:
      throw fail("unsupported-in-sql", "ANYKEY cannot be compiled to SQL", e.range)
    case .argument:
      throw fail("unbound-argument", "unbound argument: bind every %@ before compiling", e.range)
    }
  }

  /// An operand as one SQL value; constants are bound (coerced toward `hint`).
  mutating func scalar(_ o: inout Operand, hint: SQLType?, _ range: SourceRange) throws(SiftError) -> SQLExpr {
    switch o {
    case .value(let v): return v
    case .constant(let c): return try bind(c, hint: hint, range)
    case .row:
      throw fail("object-not-allowed", "an object (relationship) cannot be used as a value here; compare one of its attributes", range)
    case .collection:
      throw fail("to-many-not-allowed", "to-many key not allowed here; use ANY, ALL, NONE or a collection operator such as @count", range)
    case .list:
      throw fail("aggregate-not-allowed", "an aggregate {…} cannot be used as a single value here", range)
    }
  }

  /// Binds a constant, coerced toward the type it meets.
  func bind(_ v: SiftValue, hint: SQLType?, _ range: SourceRange) throws(SiftError) -> SQLExpr {
    var e: SQLExpr
    switch v {
    case .null: e = bound(.null, type: .null, nullable: true)
    case .bool(let b):
      if let hint, hint == .integer || hint == .double {
        e = bound(.integer(b ? 1 : 0), type: .integer)
      } else {
        e = bound(dialect.bindBool(b), type: .boolean)
      }
    case .int(let i): e = bound(.integer(i), type: .integer)
    case .double(let d): e = bound(.double(d), type: .double)
    case .string(let s): e = bound(.text(s), type: .string)
    case .date(let d): e = bound(.double(schema.dateEncoding.encode(d)), type: .date)
    case .data(let d): e = bound(.blob(d), type: .data)
    case .array, .dictionary:
      throw fail("collection-not-allowed", "a collection constant cannot be used as a single value here", range)
    }
    e = withConstant(e, v)
    if case .double(let d) = v, d.isNaN, dialect.nanBecomesNull {
      e = withNilWhen(e, [])  // bound as NULL, but never nil
      e.nullable = true
    }
    return e
  }

  mutating func numericScalar(_ x: ExpressionNode, _ op: String) throws(SiftError) -> SQLExpr {
    var o = try expression(x)
    let v = try scalar(&o, hint: .integer, x.range)
    guard v.type.isNumeric || v.type.family == 0 else {
      throw fail("arithmetic-needs-numbers", "'\(op)' needs numbers, but this is \(v.type)", x.range)
    }
    return numeric(v)
  }

  mutating func binary(_ op: BinaryOperator, _ a: ExpressionNode, _ b: ExpressionNode, _ range: SourceRange) throws(SiftError) -> SQLExpr {
    var x = try numericScalar(a, op.symbol)
    var y = try numericScalar(b, op.symbol)
    let bothInt = (x.type == .integer || x.type == .boolean) && (y.type == .integer || y.type == .boolean)
    let type: SQLType = bothInt ? .integer : (x.type == .double || y.type == .double ? .double : .unknown)
    let nullable = x.nullable || y.nullable
    func make(_ sql: SQLSpan, _ t: SQLType, nullable n: Bool = nullable) -> SQLExpr {
      SQLExpr(sql, type: t, nullable: n)
    }
    func ints() throws(SiftError) {
      guard (x.type == .integer || x.type.family == 0) && (y.type == .integer || y.type.family == 0) else {
        throw fail("bitwise-needs-integers", "'\(op.symbol)' needs integers", range)
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
      if (constant(x)?.isNull == true && !y.mayRaise) || (constant(y)?.isNull == true && !x.mayRaise) {
        return try bind(.null, hint: nil, range)
      }
    default: break
    }
    switch op {
    case .add, .subtract, .multiply:
      return real(make(cat("(", x, " ", op.symbol, " ", y, ")"), type))
    case .divide:
      // Integer / integer truncates and a zero divisor is an error, as in memory; doubles
      // give IEEE results. See SQLDialect.integerDivisionFunction.
      let f = bothInt ? dialect.integerDivisionFunction : dialect.realDivisionFunction
      let mark = SQLRaisesMark(on: mayBeZero(y))
      if let f { return real(make(cat(mark, f, "(", x, ", ", y, ")"), type, nullable: true)) }
      return real(make(cat(mark, "(", x, " / ", y, ")"), type, nullable: true))
    case .power:
      // Memory keeps integer ** integer exact while it fits (`NumberRules.exactPower`); a
      // negative exponent gives a fraction, so only a constant exponent >= 0 types it integer
      // (whole either way: an overflow is a whole double), as ceiling/floor/trunc rely on.
      let t: SQLType = bothInt && dialect.powerKeepsIntegers && isNonNegativeInteger(constant(y)) ? .integer : .double
      let call = make(cat(dialect.powerFunction, "(", x, ", ", y, ")"), t)
      if dialect.nanBecomesNull, x.nilWhenSlot >= 0 || y.nilWhenSlot >= 0 { return nanAwarePower(call, x, y) }
      return real(call)
    case .bitwiseAnd, .bitwiseOr:
      try ints()
      return (make(cat("(", x, " ", op.symbol, " ", y, ")"), .integer))
    case .bitwiseXor:
      try ints()
      if let xor = dialect.xorOperator { return (make(cat("(", x, " ", xor, " ", y, ")"), .integer)) }
      let s = out.count
      out.put("((")
      out.put(x)
      out.put(" | ")
      out.put(y)
      out.put(") - (")
      out.put(x)
      out.put(" & ")
      out.put(y)
      out.put("))")
      return SQLExpr(out.span(since: s), type: .integer, nullable: nullable)
    case .leftShift, .rightShift:
      try ints()
      guard dialect.supportsSmartShifts else {
        throw fail("unsupported-in-sql", "'\(op.symbol)' cannot be compiled faithfully for \(dialect.name)", range)
      }
      return (make(cat("(", x, " ", op.symbol, " ", y, ")"), .integer))
    }
  }

  mutating func function(_ f: BuiltinFunction, _ args: [ExpressionNode], _ range: SourceRange) throws(SiftError) -> Operand {
    func arg(_ i: Int) -> ExpressionNode { args[min(i, args.count - 1)] }
    guard f.arity.contains(args.count) else {
      throw fail("wrong-argument-count", "\(f.printedName) takes \(f.arity.lowerBound) argument(s)", range)
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
      let mark = SQLRaisesMark(on: mayBeZero(y))
      if let f = dialect.modulusFunction {
        let e = SQLExpr(cat(mark, f, "(", x, ", ", y, ")"), type: bothInt ? .integer : .double, nullable: true)
        return .value(mayBeNaN(e, from: [x, y]))  // fmod(x, 0.0), fmod(inf, 2) are NaN
      }
      guard bothInt else {
        throw fail("unsupported-in-sql", "modulus:by: of non-integers cannot be compiled for \(dialect.name)", range)
      }
      return .value(SQLExpr(cat(mark, "(", x, " % ", y, ")"), type: .integer, nullable: true))
    case .abs:
      let x = try numericScalar(arg(0), "abs")
      // abs(Int64.min) is a double in memory: typed like + - *, integer while it fits.
      let sql = cat(dialect.absoluteValueFunction, "(", x, ")")
      return .value(propagatingNaN(SQLExpr(sql, type: x.type, nullable: x.nullable), from: [x]))
    case .ceiling, .floor, .trunc:
      let x = try numericScalar(arg(0), f.shortName)
      let isInteger = x.type == .integer || x.type == .boolean
      guard let name = dialect.mathFunction(f.shortName) else {
        throw fail("unsupported-in-sql", "\(f.shortName) is not available on \(dialect.name)", range)
      }
      // Memory keeps integers as they are: a double would round values beyond 2^53. SQLite's
      // function decides at run time (integer-typed arithmetic that overflowed is a double
      // there, maybe a fraction after a division); elsewhere an integer type is an integer.
      if dialect.roundingKeepsIntegers {
        let t: SQLType = isInteger ? .integer : x.type == .double ? .double : .unknown
        return .value(propagatingNaN(SQLExpr(cat(name, "(", x, ")"), type: t, nullable: x.nullable || !isInteger), from: [x]))
      }
      if isInteger { return .value(x.typed(.integer, nullable: x.nullable)) }
      let sql = cat(name, "(CAST(", x, " AS ", dialect.doubleTypeName, "))")
      return .value(propagatingNaN(SQLExpr(sql, type: .double, nullable: true), from: [x]))
    case .sqrt, .ln, .log, .exp:
      let x = try numericScalar(arg(0), f.shortName)
      guard let name = dialect.mathFunction(f.shortName) else {
        throw fail("unsupported-in-sql", "\(f.shortName) is not available on \(dialect.name)", range)
      }
      let sql = cat(name, "(CAST(", x, " AS ", dialect.doubleTypeName, "))")
      let e = SQLExpr(sql, type: .double, nullable: true)
      // sqrt, ln and log of a negative number are NaN; exp only of a NaN.
      return .value(f == .exp ? propagatingNaN(e, from: [x]) : mayBeNaN(e, from: [x]))
    case .uppercase, .lowercase:
      var o = try expression(arg(0))
      let x = try scalar(&o, hint: .string, arg(0).range)
      guard x.type == .string || x.type.family == 0 else {
        throw fail("string-function-needs-string", "\(f.shortName) needs a string", range)
      }
      let name = f == .uppercase ? dialect.uppercaseFunction : dialect.lowercaseFunction
      return .value(SQLExpr(cat(name, "(", x, ")"), type: .string, nullable: x.nullable))
    case .noindex:
      return try expression(arg(0))
    case .now:
      return .constant(.date(Date()))
    case .onesComplement:
      let x = try numericScalar(arg(0), "~")
      // As the ~ operator: SQLite's ~ would silently truncate a double, memory refuses it.
      guard x.type == .integer || x.type.family == 0 else {
        throw fail("bitwise-needs-integers", "onesComplement needs an integer", range)
      }
      let i = integerChecked(x)
      return .value(SQLExpr(cat("(~ ", i, ")"), type: .integer, nullable: x.nullable))
    case .sum, .count, .min, .max, .average:
      let op: CollectionOperator = f == .sum ? .sum : f == .count ? .count : f == .min ? .min : f == .max ? .max : .avg
      guard case .collection(let c) = try expression(arg(0)) else {
        throw fail("unsupported-in-sql", "\(f.shortName)(…) is compiled only over a to-many key path or array attribute", range)
      }
      return try collectionOperator(op, c, [], range)
    default:
      throw fail("unsupported-in-sql", "\(f.printedName)(…) cannot be compiled to SQL faithfully", range)
    }
  }

  mutating func cast(_ x: ExpressionNode, _ type: CastType, _ range: SourceRange) throws(SiftError) -> Operand {
    let o = try expression(x)
    if case .constant(let v) = o, type == .date {
      switch v {
      case .int(let i): return .constant(.date(Date(timeIntervalSinceReferenceDate: Double(i))))
      case .double(let d): return .constant(.date(Date(timeIntervalSinceReferenceDate: d)))
      case .date: return o
      default: break
      }
    }
    var copy = o
    let v = try scalar(&copy, hint: nil, x.range)
    let same: Bool
    switch type {
    case .number, .decimalNumber: same = v.type.isNumeric
    case .string: same = v.type == .string
    case .date: same = v.type == .date
    case .array: same = false
    }
    if same { return .value(v) }
    throw fail("unsupported-in-sql", "CAST(…, \"\(type.className)\") of \(v.type) cannot be compiled to SQL", range)
  }

  /// `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]` on array attributes; `["key"]` on objects.
  mutating func index(_ base: Operand, _ kind: IndexKind, _ range: SourceRange) throws(SiftError) -> Operand {
    switch (base, kind) {
    case (.collection(let c), .size):
      return try collectionOperator(.count, c, [], range)
    case (.collection(let c), _):
      guard let position = c.position, case .value(let e) = c.element else {
        throw fail("unsupported-in-sql", "indexing a to-many relationship cannot be compiled to SQL (it has no order)", range)
      }
      switch kind {
      case .first, .last:
        let fw = fromWhere(c)
        let order = kind == .first ? " ASC" : " DESC"
        let sql = cat("(SELECT ", e, " ", fw, " ORDER BY ", position, order, " LIMIT 1)")
        return .value(SQLExpr(sql, type: e.type, nullable: true))
      case .expression(let ix):
        guard case .constant(.int(let n)) = ix.kind, n >= 0 else {
          throw fail("unsupported-in-sql", "an array index must be a non-negative integer constant in SQL", ix.range)
        }
        let pos = condition(cat(position, " = ", out.placeholder(.integer(n))))
        let fw2 = fromWhere(c, [pos])
        return .value(SQLExpr(cat("(SELECT ", e, " ", fw2, ")"), type: e.type, nullable: true))
      case .size:
        return try collectionOperator(.count, c, [], range)
      }
    case (.constant(.array(let a)), _):
      switch kind {
      case .first: return .constant(a.first ?? .null)
      case .last: return .constant(a.last ?? .null)
      case .size: return .constant(.int(Int64(a.count)))
      case .expression(let ix):
        guard case .constant(.int(let n)) = ix.kind, n >= 0, n < a.count else {
          throw fail("index-out-of-range", "index out of range", ix.range)
        }
        return .constant(a[Int(n)])
      }
    case (.row(let r), .expression(let ix)):
      guard case .constant(.string(let key)) = ix.kind else {
        throw fail("unsupported-in-sql", "an object subscript must be a constant key string", ix.range)
      }
      return try member(r, key, ix.range)
    case (.constant(.dictionary(let d)), .expression(let ix)):
      guard case .constant(.string(let key)) = ix.kind else {
        throw fail("unsupported-in-sql", "a dictionary subscript must be a constant key string", ix.range)
      }
      return .constant(d[key] ?? .null)
    default:
      throw fail("index-needs-collection", "this subscript needs an array attribute, an array or an object", range)
    }
  }
}
