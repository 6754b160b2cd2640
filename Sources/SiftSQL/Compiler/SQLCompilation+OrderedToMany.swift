import SiftSyntax

extension SQLCompilation {
  /// `[FIRST]`, `[LAST]`, `[n]` on an ordered to-many (`SQLRelationship.orderColumn`, Core
  /// Data's `Z_FOK_…`), or on values mapped from one (`menu.item[FIRST]`): the element first,
  /// last or n-th (from 0) by the order column ascending, ties by the element's key; nil when
  /// there is none, as in memory (an empty collection, an index past the end). An object
  /// element is a row reached through its key (`menu[FIRST].item`).
  ///
  ///     (SELECT t1."Z_PK" FROM "ZMENUITEM" t1 WHERE … ORDER BY t1."Z_FOK_VENUE" ASC, t1."Z_PK" ASC LIMIT 1 OFFSET ?)
  mutating func orderedElement(
    _ c: SQLCollection, _ position: SQLFragment, _ kind: IndexKind, _ range: SiftSourceRange
  ) throws(SiftError) -> Operand {
    let offset: Int64
    switch kind {
    case .first, .last: offset = 0
    case .expression(let ix):
      guard case .constant(.int(let n)) = ix.kind, n >= 0 else { throw fail(.arrayIndexNotConstant, ix.range) }
      offset = n
    case .size: return try collectionOperator(.count, c, [], range)
    }
    let direction = kind == .last ? " DESC" : " ASC"
    let fw = fromWhere(c)
    switch c.element {
    case .row(let r):
      let order = SQLFragment("ORDER BY \(position)\(sql: direction), \(r.key)\(sql: direction)")
      let sql = SQLFragment("(SELECT \(r.key) \(fw) \(order) LIMIT 1 OFFSET \(bind: .integer(offset)))")
      return .row(RowRef(entity: r.entity, key: SQLExpr(sql, type: r.key.type, nullable: true), alias: nil))
    case .value(let e):
      let sql = SQLFragment(
        "(SELECT \(e) \(fw) ORDER BY \(position)\(sql: direction) LIMIT 1 OFFSET \(bind: .integer(offset)))")
      return .value(SQLExpr(sql, type: e.type, nullable: true))
    }
  }
}
