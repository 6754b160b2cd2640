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
      guard let v = variable(name) else {
        throw fail(.unboundVariable(name), e.range)
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
      var list: [Operand] = []
      for item in items { list.append(try expression(item)) }
      return .list(list)
    case .unary(let op, let x):
      let v = try numericScalar(x, op.symbol)
      if op == .negate {
        if dialect.negationLosesSignedZero {
          // SQLite computes -x as 0 - x, which makes -(0.0) +0.0; memory's is -0.0 (x / -0.0
          // is -infinity). x * -1 is the same number otherwise (Int64.min overflows alike).
          let e = SQLExpr(SQLFragment("(\(v) * \(bind: .integer(-1)))"), type: v.type, nullable: v.nullable)
          return .value(propagatingNaN(e, from: [v]))
        }
        return .value(propagatingNaN(SQLExpr(SQLFragment("(- \(v))"), type: v.type, nullable: v.nullable), from: [v]))
      }
      guard v.type == .integer || v.type.family == 0 else {
        throw fail(.complementNeedsInteger("~"), e.range)
      }
      let i = integerChecked(v)
      return .value(SQLExpr(SQLFragment("(~ \(i))"), type: .integer, nullable: v.nullable))
    case .binary(let op, let a, let b) where op.isSetOperator:
      // Folded over constant lists (one shared rule with memory); over collections, a derived
      // table (SQLCompilation+SetExpressions.swift).
      guard let items = SetOperatorFolding.constantElements(e) else { return try setExpression(op, a, b, e.range) }
      return try expression(ExpressionNode(.constant(.array(items)), range: e.range))
    case .binary(let op, let a, let b):
      return .value(try binary(op, a, b, e.range))
    case .function(let f, let args):
      return try function(f, args, e.range)
    case .customFunction(let receiver, let name, let arguments):
      return try selector(receiver, name, arguments, e.range)
    case .subquery(let collection, let variable, let predicate):
      // Each level multiplies the work per row (20 levels over two elements: 2^20 per row).
      if variables.count >= SQLCompilation.maxSubqueryNesting {
        throw fail(.subqueryTooDeep(limit: SQLCompilation.maxSubqueryNesting), e.range)
      }
      guard case .collection(let c) = try expression(collection) else {
        throw fail(.subqueryNeedsCollection, collection.range)
      }
      let element: Operand
      switch c.element {
      case .row(let r): element = .row(r)
      case .value(let v): element = .value(v)
      }
      variables.append((variable, element))
      defer { variables.removeLast() }
      var out = c
      out.filtered = true
      out.presence = nil  // SUBQUERY over nil is an empty array in memory: @count is 0
      out.length = nil
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
      let vx2 =
        try constant(vx).map { (c: SiftValue) throws(SiftError) -> SQLExpr in try bind(c, hint: vy.type, a.range) }
        ?? vx
      // Branches of different kinds would give a value of no static type, which SQL orders,
      // searches and adds dynamically where memory reports the type error it meets.
      if vx2.type.family != 0, vy.type.family != 0, vx2.type.family != vy.type.family {
        throw fail(.ternaryBranches(vx2.type, vy.type), e.range)
      }
      var type = vx2.type == vy.type ? vx2.type : .unknown
      if vx2.type.isNumeric && vy.type.isNumeric && type == .unknown { type = .double }
      if vx2.type == .null { type = vy.type }
      if vy.type == .null { type = vx2.type }
      let sql = SQLFragment("CASE WHEN \(cond) THEN \(vx2) ELSE \(vy) END")
      let t = SQLExpr(sql, type: type, nullable: vx2.nullable || vy.nullable)
      return .value(withNilWhen(t, ternaryNilWhen(cond, vx2, vy)))
    case .assignment:
      throw fail(.notCompilable("an assignment ($x := …)"), e.range)
    case .anyKey:
      throw fail(.notCompilable("ANYKEY"), e.range)
    case .argument:
      throw fail(.unboundArgument, e.range)
    }
  }

  /// An operand as one SQL value; constants are bound (coerced toward `hint`).
  mutating func scalar(_ o: inout Operand, hint: SQLType?, _ range: SiftSourceRange) throws(SiftError) -> SQLExpr {
    switch o {
    case .value(let v): return v.form == .uuid || v.form == .castToText ? plainValue(v) : v
    case .constant(let c): return try bind(c, hint: hint, range)
    case .row:
      throw fail(.objectAsValue, range)
    case .collection:
      throw fail(.toManyAsValue, range)
    case .list:
      throw fail(.aggregateAsValue, range)
    }
  }

  /// Binds a constant, coerced toward the type it meets.
  func bind(_ v: SiftValue, hint: SQLType?, _ range: SiftSourceRange) throws(SiftError) -> SQLExpr {
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
    case .date(let d):
      do {
        e = bound(try schema.dateEncoding.sqlValue(d), type: .date)
      } catch {
        throw fail(.dateOutOfRange(error.diagnostic.message), range)
      }
    case .data(let d): e = bound(.blob(d), type: .data)
    case .array, .dictionary:
      throw fail(.collectionConstantAsValue, range)
    }
    e = withConstant(e, v)
    if case .double(let d) = v, d.isNaN, dialect.nanBecomesNull {
      e = withNilWhen(e, [])  // bound as NULL, but never nil
      e.nullable = true
    }
    return e
  }

  /// `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]` on array attributes; `["key"]` on objects.
  mutating func index(_ base: Operand, _ kind: IndexKind, _ range: SiftSourceRange) throws(SiftError) -> Operand {
    switch (base, kind) {
    case (.collection(let c), .size):
      return try collectionOperator(.count, c, [], range)
    case (.collection(let c), _):
      guard let position = c.position else { throw fail(.indexingToMany, range) }
      guard case .value(let e) = c.element, c.positionIsIndex else {
        return try orderedElement(c, position, kind, range)
      }
      switch kind {
      case .first, .last:
        let fw = fromWhere(c)
        let order = kind == .first ? " ASC" : " DESC"
        let sql = SQLFragment("(SELECT \(e) \(fw) ORDER BY \(position)\(sql: order) LIMIT 1)")
        return .value(SQLExpr(sql, type: e.type, nullable: true))
      case .expression(let ix):
        guard case .constant(.int(let n)) = ix.kind, n >= 0 else {
          throw fail(.arrayIndexNotConstant, ix.range)
        }
        let pos = condition(SQLFragment("\(position) = \(bind: .integer(n))"))
        let fw2 = fromWhere(c, [pos])
        return .value(SQLExpr(SQLFragment("(SELECT \(e) \(fw2))"), type: e.type, nullable: true))
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
          throw fail(.indexOutOfRange, ix.range)
        }
        return .constant(a[Int(n)])
      }
    case (.row(let r), .expression(let ix)):
      guard case .constant(.string(let key)) = ix.kind else {
        throw fail(.objectSubscriptNotConstant, ix.range)
      }
      return try member(r, key, ix.range)
    case (.constant(.dictionary(let d)), .expression(let ix)):
      guard case .constant(.string(let key)) = ix.kind else {
        throw fail(.dictionarySubscriptNotConstant, ix.range)
      }
      return .constant(d[key] ?? .null)
    default:
      throw fail(.invalidSubscript, range)
    }
  }
}
