import SiftSyntax

extension SQLCompilation {
  /// `a UNION b`, `a INTERSECT b`, `a MINUS b` where an operand is a to-many key path or an
  /// array attribute (both constant lists are folded before, `SetOperatorFolding`): a
  /// collection whose elements come from a derived table,
  ///
  ///     (SELECT t1."item" AS "v" FROM "menuitem" t1 WHERE … UNION SELECT ? AS "v") s2
  ///
  /// (a constant list of two or more elements, itself a `UNION ALL`, is a subselect of its own;
  /// a chain `a UNION b MINUS c` is one compound, so it does not nest deeper as it grows)
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
    let alias = newAlias("s")
    var branches: [SQLFragment] = []
    var present: [SQLExpr] = []
    for (i, o) in operands.enumerated() {
      switch o {
      case .collection(let c):
        guard case .value(let raw) = c.element else { throw refuse("a set of objects") }
        if i == 0, let compound = c.compound, c.compoundIsExact == (exact != nil), raw.type == type {
          // `(a UNION b) MINUS c` continues a's compound: one level however long the chain.
          // SQLite reads a compound left to right and takes no parentheses in it; PostgreSQL
          // binds INTERSECT tighter, so the left part goes in parentheses there.
          branches.append(dialect.name == SQLiteDialect().name ? compound : SQLFragment("(\(compound))"))
          present.append(c.condition)
          continue
        }
        let v = numeric(plainValue(raw))
        branches.append(SQLFragment("SELECT \(column(v)) AS \(sql: q("v")) \(fromWhere(c))"))
        if let p = c.presence { present.append(isNotNull(p)) }
      case .constant(.array(let items)):
        var list: [SQLFragment] = []
        for item in items {
          // A nil element as a NULL of the column's type (PostgreSQL binds an untyped one as text).
          let x = item == .null ? typedNull(type, exact) : column(numeric(try bind(item, hint: type, range)))
          list.append(SQLFragment("SELECT \(x) AS \(sql: q("v"))"))
        }
        if list.count < 2 {
          branches.append(list.first ?? noRow(type, exact))
        } else {
          // A list is itself a compound (UNION ALL): a subselect of its own inside this one.
          var all = SQLFragment("SELECT * FROM (")
          for (n, x) in list.enumerated() {
            if n > 0 { all.append(" UNION ALL ") }
            all.append(x)
          }
          all.append(SQLFragment(") \(sql: q(alias.name + "l\(i)"))"))
          branches.append(all)
        }
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
    var compound = branches[0]
    compound.append(keyword)
    compound.append(branches[1])
    let from = SQLFragment("(\(compound)) \(alias)")
    let element = SQLExpr(SQLFragment("\(alias).\(sql: q("v"))"), type: type == .null ? .unknown : type, nullable: true)
    let presence: SQLExpr? =
      present.isEmpty
      ? nil
      : SQLExpr(
        SQLFragment("CASE WHEN \(and(present)) THEN 0 END"), type: .integer, nullable: true)
    var out = SQLCollection(
      from: from, condition: and(present), element: .value(element), presence: presence, filtered: true)
    out.compound = compound
    out.compoundIsExact = exact != nil
    return .collection(out)
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
