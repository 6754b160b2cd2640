import SiftSyntax

/// The parts of a fetch that change its shape: an entity's own rows (`includesSubentities`),
/// distinct rows over several properties, and a having predicate over grouped rows
/// (Grammar/notes/fetch.md).
extension SQLCompiler {
  /// `t0."Z_ENT" IN (?)`: the entity's own rows, without its sub-entities' (nil when every
  /// row of the entity is its own). Values are bound.
  func ownRowsCondition(_ e: SQLEntity, _ c: inout SQLCompilation) -> SQLExpr? {
    guard let own = e.ownRows else { return nil }
    var list = SQLFragment("t0.\(sql: dialect.quoteIdentifier(own.column)) IN (")
    for (i, v) in own.values.enumerated() {
      if i > 0 { list.append(", ") }
      list.append(SQLFragment(binding: .integer(v)))
    }
    list.append(")")
    return c.condition(list)
  }

  /// Distinct rows of `keyPaths`: grouped by their values, ordered by the request's sort
  /// descriptors (each over one of the properties) and then by the values ascending, nil
  /// first. The ORDER BY reads the very expressions grouped, as PostgreSQL requires.
  func distinctShape(
    _ keyPaths: [String], _ request: SiftFetchRequest, _ c: inout SQLCompilation, entity e: SQLEntity
  ) throws(SiftError) -> (columns: [SQLFragment], groups: [SQLFragment], order: [SQLFragment]) {
    let q = dialect.quoteIdentifier
    var values: [SQLExpr] = []
    var columns: [SQLFragment] = []
    var groups: [SQLFragment] = []
    var order: [SQLFragment] = []
    for k in keyPaths {
      let v = try keyPathValue(k, &c, entity: e)
      values.append(v)
      columns.append(SQLFragment("\(v) AS \(sql: q(k))"))
      groups.append(v.sql)
    }
    for (i, s) in request.distinctSortColumns(keyPaths) { order += try sortTerms(s, value: values[i], &c) }
    for v in values {
      order.append(sortTerm(SQLFragment("\(v)\(sql: c.collation(for: v))"), ascending: true, nulls: .automatic, &c))
    }
    return (columns, groups, order)
  }

  /// The attribute a key path of `entity` ends at (to-one steps followed), else one of `type`.
  func resultAttribute(_ keyPath: String, type: SQLType, entity: SQLEntity) -> SQLAttribute {
    var e = entity
    let parts = keyPath.split(separator: ".").map(String.init)
    for p in parts.dropLast() {
      guard let r = e.relationship(p), !r.isToMany, let target = schema.entity(r.target) else {
        return Self.attribute(of: type)
      }
      e = target
    }
    return parts.last.flatMap { e.attribute($0) } ?? Self.attribute(of: type)
  }

  /// The attribute an aggregate's column is read as: `count` an integer, `avg` a double,
  /// `sum` an integer over integers (else a double), `min`/`max` the attribute itself.
  func aggregateAttribute(_ a: SiftAggregate, entity: SQLEntity) -> SQLAttribute {
    guard let keyPath = a.keyPath, a.function != .count else { return Self.attribute(of: .integer) }
    let source = resultAttribute(keyPath, type: .unknown, entity: entity)
    switch a.function {
    case .avg, .median, .stddev: return Self.attribute(of: .double)
    case .sum: return Self.attribute(of: source.type == .integer || source.type == .boolean ? .integer : .double)
    case .min, .max, .count: return source
    }
  }

  static func attribute(of type: SQLType) -> SQLAttribute {
    let t: SQLAttributeType
    switch type {
    case .integer: t = .integer
    case .double: t = .double
    case .boolean: t = .boolean
    case .string: t = .string
    case .date: t = .date
    case .data: t = .data
    case .any, .null, .unknown: t = .any
    }
    return SQLAttribute(name: "value", type: t)
  }

  /// `SELECT * FROM (grouped) t0 WHERE having ORDER BY keys LIMIT … OFFSET …`: the having
  /// predicate compiled against the grouped rows as a table whose attributes are the result's
  /// columns (`SiftHavingPlan.key(i)` naming column i), so it reads them as any predicate reads
  /// a table, every value bound.
  func havingSelect(
    _ inner: SQLFragment, _ plan: SiftHavingPlan, _ columnAttributes: [SQLAttribute], _ request: SiftFetchRequest,
    _ c: inout SQLCompilation
  ) throws(SiftError) -> SQLFragment {
    let q = dialect.quoteIdentifier
    var attributes: [SQLAttribute] = []
    for (i, a) in columnAttributes.enumerated() {
      var x = a
      x.name = SiftHavingPlan.key(i)
      x.column = plan.columns[i]
      x.indexed = false
      attributes.append(x)
    }
    let rows = SQLEntity(
      name: "having", table: "having", primaryKey: SiftHavingPlan.key(plan.columns.count), attributes: attributes)
    let grouped = SQLCompiler(
      dialect: dialect,
      schema: try SQLSchema(entities: [rows], dateEncoding: schema.dateEncoding, layout: schema.layout))
    var hc = SQLCompilation(dialect: dialect, schema: grouped.refs, entity: rows, source: plan.predicate.source)
    var sql = SQLFragment(sql: "SELECT * FROM (")
    sql.append(inner)
    sql.append(") t0")
    if let w = try hc.whereClause(plan.predicate.root), w.shape != .alwaysTrue {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    if case .aggregates(_, let groupBy) = request.resultType, !groupBy.isEmpty {
      var order: [SQLFragment] = []
      for i in groupBy.indices {
        let v = SQLExpr(
          SQLFragment("t0.\(sql: q(plan.columns[i]))"), type: SQLType(attributes[i].type), nullable: true)
        order.append(sortTerm(SQLFragment("\(v)\(sql: c.collation(for: v))"), ascending: true, nulls: .automatic, &c))
      }
      sql.append(" ORDER BY ")
      sql.append(list: order)
    }
    try page(&sql, request)
    return sql
  }
}
