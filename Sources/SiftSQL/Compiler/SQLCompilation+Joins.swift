import SiftSyntax

/// One to-one step joined to a SELECT's FROM: `LEFT JOIN "location" t1 ON t1."id" = t0."location_id"`.
/// The target is found through its primary key, so the join adds at most one row per row and
/// never duplicates one; a missing target leaves the target's columns NULL, as a nil
/// relationship reads in memory (`location.city == nil` is true for it).
///
/// Comparisons of a to-one path with a constant that is false for nil do not use it: they are
/// semi-joins (`t0."location_id" IN (SELECT t1."id" FROM "location" t1 WHERE t1."city" = ?)`,
/// `toOneSemiJoin`), which both planners ran faster than the JOIN an expert writes. The joins
/// serve the rest (`location.city == nil`, `location.distance < distance`, a to-one inside
/// ANY/SUBQUERY conditions), which correlated subselects answered 2–6× slower.
struct SQLToOneJoin: Sendable {
  /// The row the foreign key is on (`t0`, or an earlier join).
  var source: SQLAlias
  /// The foreign key column, quoted.
  var foreignKey: String
  var alias: SQLAlias
  /// `"location" t1 ON t1."id" = t0."location_id"`.
  var clause: SQLFragment
}

extension SQLCompilation {
  /// The alias of the join from `row` through `fk` (made on first use), or nil when to-one
  /// steps are not joined here: this compilation has no FROM to add them to, or `row` is not
  /// the root row or a joined target (an element inside a subselect keeps its subselects).
  mutating func joinedAlias(from row: RowRef, foreignKey fk: SQLColumnRef, target: SQLEntityRef) -> SQLAlias? {
    guard toOneJoins != nil, let source = row.alias, row.isRoot || row.joined else { return nil }
    let quotedKey = fk.quoted
    if let found = toOneJoins?.first(where: { $0.source == source && $0.foreignKey == quotedKey }) {
      return found.alias
    }
    let a = newAlias()
    let clause = SQLFragment(
      "\(sql: target.quotedTable) \(a) ON \(a).\(sql: target.primaryKeyColumn.quoted) = \(source).\(sql: quotedKey)")
    toOneJoins?.append(SQLToOneJoin(source: source, foreignKey: quotedKey, alias: a, clause: clause))
    return a
  }

  /// ` LEFT JOIN … ON …` for every to-one step joined, in the order made.
  var joinClauses: SQLFragment {
    var out = SQLFragment()
    for j in toOneJoins ?? [] {
      out.append(" LEFT JOIN ")
      out.append(j.clause)
    }
    return out
  }
}
