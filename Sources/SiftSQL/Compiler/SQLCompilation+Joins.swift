import SiftSyntax

/// One to-one step joined to a SELECT's FROM: `LEFT JOIN "location" t1 ON t1."id" = t0."location_id"`.
/// The target is found through its primary key, so the join adds at most one row per row and
/// never duplicates one; a missing target leaves the target's columns NULL, as a nil
/// relationship reads in memory.
struct SQLToOneJoin: Sendable {
  /// The row the foreign key is on (`t0`, or an earlier join).
  var source: SQLAlias
  /// The foreign key column, quoted.
  var foreignKey: String
  var alias: SQLAlias
  /// `"location" t1 ON t1."id" = t0."location_id"`.
  var clause: SQLFragment
  /// An inner join: every row the WHERE keeps has this target (see `joinsInner`), so the
  /// planner may start from the target's table (through an index on the compared column).
  var inner: Bool
}

extension SQLCompilation {
  /// The alias of the join from `row` through `fk` (made on first use), or nil when to-one
  /// steps are not joined here: this compilation has no FROM to add them to, or `row` is not
  /// the root row or a joined target (an element inside a subselect keeps its subselects).
  mutating func joinedAlias(from row: RowRef, foreignKey fk: SQLColumnRef, target: SQLEntityRef) -> SQLAlias? {
    guard var joins = toOneJoins, let source = row.alias, row.isRoot || row.joined else { return nil }
    let quotedKey = fk.quoted
    if let i = joins.firstIndex(where: { $0.source == source && $0.foreignKey == quotedKey }) {
      if joinsInner { joins[i].inner = true }
      toOneJoins = joins
      return joins[i].alias
    }
    let a = newAlias()
    let clause = SQLFragment(
      "\(sql: target.quotedTable) \(a) ON \(a).\(sql: target.primaryKeyColumn.quoted) = \(source).\(sql: quotedKey)")
    joins.append(SQLToOneJoin(source: source, foreignKey: quotedKey, alias: a, clause: clause, inner: joinsInner))
    toOneJoins = joins
    return a
  }

  /// ` JOIN … ON …` / ` LEFT JOIN … ON …` for every to-one step joined, in the order made.
  var joinClauses: SQLFragment {
    var out = SQLFragment()
    for j in toOneJoins ?? [] {
      out.append(j.inner ? " JOIN " : " LEFT JOIN ")
      out.append(j.clause)
    }
    return out
  }

  /// True when `c` compares a key path of to-one steps ending on a column with a constant that
  /// makes it false for nil (`SQLCompilation.rejectsNil`): a row whose targets are missing
  /// fails it, so when it is a top-level conjunct of the WHERE its joins can be inner.
  func comparisonNeedsTargets(_ c: SiftComparison) -> Bool {
    guard c.quantifier == nil, case .keyPath(nil, let kp) = c.lhs.kind, kp.components.count >= 2,
      case .constant(let v) = c.rhs.kind, SQLCompilation.rejectsNil(c.op, v)
    else { return false }
    var entity = root
    for (i, component) in kp.components.enumerated() {
      guard case .key(let k) = component else { return false }
      if i == kp.components.count - 1 {
        guard case .column? = entity.members[k] else { return false }
      } else {
        guard case .toOne(let position, _)? = entity.members[k], let target = schema.entity(at: position) else {
          return false
        }
        entity = target
      }
    }
    return true
  }
}
