import SiftSyntax

extension SQLCompilation {
  /// `a UNION b`, `a INTERSECT b`, `a MINUS b` where an operand is a to-many key path or an
  /// array attribute (both constant lists are folded before, `SetOperatorFolding`): a
  /// collection whose elements come from a derived table,
  ///
  ///     (SELECT * FROM (SELECT t1."item" AS "v" FROM "menuitem" t1 WHERE …) "s2a"
  ///      UNION SELECT * FROM (SELECT ? AS "v") "s2b") s2
  ///
  /// (each branch a subselect of its own: a constant list is itself a `UNION ALL`, and SQLite
  /// takes no parentheses around a compound's members)
  /// so `@count`, `IN`, `ANY`/`ALL`/`NONE`, aggregates and SUBQUERY read it like any collection.
  /// SQL's `UNION`, `INTERSECT` and `EXCEPT` keep each element once and tell elements apart
  /// as memory's `SiftValueKey` does for the kinds allowed here: numbers by value (booleans as
  /// 1 and 0), text by its bytes, nil equal to nil. The result has no order (`[FIRST]` is
  /// refused) and is nil when an operand is nil. Refused with `unsupported-in-sql`, naming the
  /// expression: objects as elements, elements of different kinds (PostgreSQL types each
  /// column of a `UNION`), dates and data, and operands that are not collections.
  mutating func setExpression(
    _ op: BinaryOperator, _ a: ExpressionNode, _ b: ExpressionNode, _ range: SiftSourceRange
  ) throws(SiftError) -> Operand {
    let what = "'\(CanonicalPrinter().print(ExpressionNode(.binary(op, a, b), range: range)))'"
    func refuse(_ why: String) -> SiftError {
      fail(.notCompilable("\(what) (\(why))"), range)
    }
    // Every element's type first, so constants are bound toward the collections' and a
    // column mixing integers and doubles is exact where the dialect would round (PostgreSQL's
    // UNION of bigint and double precision compares through double: 2^53 + 1 == 2^53).
    var operands: [Operand] = []
    var kinds = Set<SQLType>()
    for side in [a, b] {
      let o = try expression(side)
      operands.append(o)
      switch o {
      case .collection(let c):
        guard case .value(let v) = c.element else { throw refuse("a set of objects") }
        kinds.insert(elementType(plainValue(v)))
      case .constant(.array(let items)):
        for item in items { kinds.insert(try constantType(item, refuse)) }
      default: continue
      }
    }
    var type: SQLType = .null
    for k in kinds { type = try merged(type, k, refuse) }
    let exact = kinds.contains(.integer) && kinds.contains(.double) ? dialect.exactNumericTypeName : nil
    func column(_ x: SQLExpr) -> SQLFragment {
      guard let exact else { return x.sql }
      return SQLFragment("CAST(\(x) AS \(sql: exact))")
    }
    var branches: [SQLFragment] = []
    var present: [SQLExpr] = []
    for o in operands {
      switch o {
      case .collection(let c):
        guard case .value(let raw) = c.element else { throw refuse("a set of objects") }
        let v = numeric(plainValue(raw))
        branches.append(SQLFragment("SELECT \(column(v)) AS \(sql: q("v")) \(fromWhere(c))"))
        if let p = c.presence { present.append(isNotNull(p)) }
      case .constant(.array(let items)):
        var list: SQLFragment? = nil
        for item in items {
          // A nil element as a NULL of the column's type (PostgreSQL binds an untyped one as text).
          let x = item == .null ? typedNull(type, exact) : column(numeric(try bind(item, hint: type, range)))
          if list != nil { list?.append(" UNION ALL ") } else { list = SQLFragment() }
          list?.append(SQLFragment("SELECT \(x) AS \(sql: q("v"))"))
        }
        branches.append(list ?? noRow(type, exact))
      case .constant(.null):
        present.append(.alwaysFalse)  // a nil operand: the result is nil
        branches.append(noRow(type, exact))
      default:
        throw refuse("an operand is \(o.kindName), not a collection")
      }
    }
    let keyword: String
    switch op {
    case .union: keyword = " UNION "
    case .intersect: keyword = " INTERSECT "
    default: keyword = " EXCEPT "
    }
    let alias = newAlias("s")
    let left = SQLFragment("SELECT * FROM (\(branches[0])) \(sql: q(alias.name + "a"))")
    let right = SQLFragment("SELECT * FROM (\(branches[1])) \(sql: q(alias.name + "b"))")
    let from = SQLFragment("(\(left)\(sql: keyword)\(right)) \(alias)")
    let element = SQLExpr(SQLFragment("\(alias).\(sql: q("v"))"), type: type == .null ? .unknown : type, nullable: true)
    let presence: SQLExpr? =
      present.isEmpty
      ? nil
      : SQLExpr(
        SQLFragment("CASE WHEN \(and(present)) THEN 0 END"), type: .integer, nullable: true)
    return .collection(
      SQLCollection(
        from: from, condition: and(present), element: .value(element), presence: presence, filtered: true))
  }

  /// A branch without rows, typed (PostgreSQL reads an untyped NULL column as text).
  private func noRow(_ type: SQLType, _ exact: String?) -> SQLFragment {
    SQLFragment("SELECT \(typedNull(type, exact)) AS \(sql: q("v")) WHERE 1 = 0")
  }

  /// `CAST(NULL AS type)` for a set's column of `type` (`exact`: the exact numeric type
  /// the column is cast to when it mixes integers and doubles).
  private func typedNull(_ type: SQLType, _ exact: String?) -> SQLFragment {
    let name: String
    switch type {
    case .integer, .double:
      if let exact { name = exact } else { name = type == .integer ? dialect.integerTypeName : dialect.doubleTypeName }
    default: name = "TEXT"
    }
    return SQLFragment("CAST(NULL AS \(sql: name))")
  }

  /// A constant element's type, as `elementType` gives it for a bound one.
  private func constantType(_ v: SiftValue, _ refuse: (String) -> SiftError) throws(SiftError) -> SQLType {
    switch v {
    case .null: return .null
    case .bool, .int: return .integer
    case .double: return .double
    case .string: return .string
    default: throw refuse("an element is \(v.kindName)")
    }
  }

  /// The element type a set operator keeps: numbers (booleans as integers), text, or nil.
  private func elementType(_ v: SQLExpr) -> SQLType {
    v.type == .boolean ? .integer : v.type
  }

  /// `a` and `b` as one column type: numbers widen to double; other kinds must agree.
  private func merged(_ a: SQLType, _ b: SQLType, _ refuse: (String) -> SiftError) throws(SiftError) -> SQLType {
    for t in [a, b] where t == .date || t == .data || t == .any || t == .unknown {
      throw refuse(t == .unknown ? "elements of no known kind" : "elements of kind \(t)")
    }
    if a == .null { return b }
    if b == .null { return a }
    if a == b { return a }
    if a.isNumeric && b.isNumeric { return .double }
    throw refuse("elements of different kinds, \(a) and \(b)")
  }
}
