import SiftSyntax

/// To-one key paths an index can serve, in a database Sift did not create, where the
/// condition has no FROM of its own to join the targets in (`compileWhere`, batch updates and
/// deletes); a fetch request's SELECT joins them instead (`SQLCompilation+Joins.swift`).
extension SQLCompilation {
  /// `owner.name == "Ada"` as `t0."owner_id" IN (SELECT t1."id" FROM "owner" t1 WHERE
  /// t1."name" = ?)`, nested for longer to-one paths, instead of comparing a correlated
  /// subselect per row: the planner can find the targets through an index on the compared
  /// column and the rows through the foreign-key index (the plan tests check both databases).
  ///
  /// Only where the two forms are true for exactly the same rows: an unquantified
  /// comparison of a key path of to-one steps ending on a column with a constant that makes
  /// it false for nil (`==`, ordering, BETWEEN, IN, the text operators against non-nil
  /// constants; `rejectsNil`), so a missing target and a nil column both fail as they do in memory.
  /// Negation wraps the result as any comparison (`(c) IS NOT TRUE`). Nil otherwise.
  mutating func toOneSemiJoin(_ c: SiftComparison) throws(SiftError) -> SQLExpr? {
    guard c.quantifier == nil, case .keyPath(nil, let kp) = c.lhs.kind, kp.components.count >= 2,
      case .constant(let v) = c.rhs.kind, SQLCompilation.rejectsNil(c.op, v)
    else { return nil }
    var keys: [String] = []
    for component in kp.components {
      guard case .key(let k) = component else { return nil }
      keys.append(k)
    }
    guard let lastKey = keys.last else { return nil }
    var entity = root
    var steps: [(foreignKey: SQLColumnRef, target: SQLEntityRef)] = []
    for k in keys.dropLast() {
      guard case .toOne(let position, let fk)? = entity.members[k], let target = schema.entity(at: position) else {
        return nil
      }
      steps.append((fk, target))
      entity = target
    }
    guard case .column? = entity.members[lastKey] else { return nil }
    var aliases: [SQLAlias] = []
    for _ in steps { aliases.append(newAlias()) }
    guard let last = aliases.last else { return nil }
    let saved = selfRow
    let key = SQLExpr(
      SQLFragment("\(last).\(sql: entity.primaryKeyColumn.quoted)"), type: entity.primaryKeyType, nullable: false)
    selfRow = RowRef(entity: entity, key: key, alias: last)
    defer { selfRow = saved }
    var inner = c
    inner.lhs = ExpressionNode(.keyPath(base: nil, SiftKeyPath([.key(lastKey)])), range: c.lhs.range)
    var cond = try plainComparison(inner)
    for i in stride(from: steps.count - 1, through: 0, by: -1) {
      let (fk, target) = steps[i]
      let a = aliases[i]
      let owner = i == 0 ? SQLFragment("\(sql: fk.root)") : SQLFragment("\(aliases[i - 1]).\(sql: fk.quoted)")
      cond = condition(
        SQLFragment(
          "\(owner) IN (SELECT \(a).\(sql: target.primaryKeyColumn.quoted) FROM \(sql: target.quotedTable) \(a) WHERE \(cond))"
        ))
    }
    return cond
  }

  /// True when `x op v` is false (or NULL) for a nil `x` and `v` is a plain constant, read
  /// from the operator's shape (`ComparisonOperator.rightOperand`), so a new operator needs
  /// no line here: equality and order with a scalar (`!=` alone holds for nil), any text
  /// operator with a string, `IN`/`BETWEEN` with a non-empty list of scalars.
  static func rejectsNil(_ op: ComparisonOperator, _ v: SiftValue) -> Bool {
    func scalar(_ v: SiftValue) -> Bool {
      switch v {
      case .null, .array, .dictionary: return false
      default: return true
      }
    }
    switch op.rightOperand {
    case .value:
      return op != .notEqual && scalar(v)
    case .needle, .needleOrElement, .wildcardPattern, .regularExpression:
      if case .string = v { return true }
      return false
    case .container, .bounds:
      if case .array(let items) = v { return !items.isEmpty && items.allSatisfy(scalar) }
      return false
    case .typeIdentifier:
      return false
    }
  }
}
