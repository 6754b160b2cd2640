import SiftSyntax

extension SQLCompiler {
  /// The full SELECT for a fetch request.
  ///
  /// ```swift
  /// let st = try compiler.compile(FetchRequest(entity: "Venue", resultType: .count))
  /// // SELECT COUNT(*) FROM "venue" t0
  /// ```
  public func compile(_ request: FetchRequest) throws(SiftError) -> SQLStatement {
    let e = try entity(request.entity)
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: request.predicate?.source ?? "")
    var whereExpr: SQLExpr?
    if let p = request.predicate {
      let w = try c.checkedWhere(p.root)
      if w.shape != .alwaysTrue { whereExpr = w }
    }
    let q = dialect.quoteIdentifier
    var sql = "SELECT "
    var bindings: [SQLValue] = []
    var order: [String] = []
    let pk = "t0." + q(e.primaryKeyAttribute.column)
    var wrapCount = false
    var groupClause = ""

    switch request.resultType {
    case .records:
      sql += e.columnAttributes.map { "t0." + q($0.column) }.joined(separator: ", ")
      order = try orderBy(request.sortDescriptors, &c, entity: e) + [pk + " ASC"]
    case .count:
      if request.limit != nil || request.offset != nil {
        sql = "SELECT COUNT(*) FROM (SELECT 1"
        wrapCount = true
      } else {
        sql += "COUNT(*)"
      }
    case .indices:
      sql += "t0." + q(SQLSchema.indexColumn)
      let notNull = c.condition(c.cat("t0.", q(SQLSchema.indexColumn), " IS NOT NULL"))
      whereExpr = c.and([whereExpr ?? .alwaysTrue, notNull])
      order = ["t0." + q(SQLSchema.indexColumn) + " ASC"]
    case .distinct(let keyPath):
      let v = try keyPathValue(keyPath, &c, entity: e)
      let (vs, vb) = c.materialize(v)
      sql += "DISTINCT " + vs
      bindings += vb
      order = [sortTerm(vs + c.collation(for: v), ascending: true, nulls: .automatic)]
    case .aggregates(let aggregates, let groupBy):
      var columns: [String] = []
      var groups: [String] = []
      for g in groupBy {
        let v = try keyPathValue(g, &c, entity: e)
        let (vs, vb) = c.materialize(v)
        columns.append(vs + " AS " + q(g))
        bindings += vb
        groups.append(vs)
        order.append(sortTerm(vs + c.collation(for: v), ascending: true, nulls: .automatic))
      }
      for a in aggregates {
        let (text, b) = try aggregate(a, &c, entity: e)
        columns.append(text + " AS " + q(a.name))
        bindings += b
      }
      sql += columns.joined(separator: ", ")
      // Grouped key paths are columns or to-one subselects: they carry no bindings.
      if !groups.isEmpty { groupClause = " GROUP BY " + groups.joined(separator: ", ") }
    }

    sql += " FROM " + q(e.table) + " t0"
    if let w = whereExpr, w.shape != .alwaysTrue {
      let (ws, wb) = c.materialize(w)
      sql += " WHERE " + ws
      bindings += wb
    }
    sql += groupClause
    if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
    try appendLimit(request, &sql, &bindings)
    if wrapCount { sql += ") AS s" }
    return SQLFinisher.finish(sql, bindings, dialect: dialect)
  }

  func appendLimit(_ request: FetchRequest, _ sql: inout String, _ bindings: inout [SQLValue]) throws(SiftError) {
    for (name, v) in [("limit", request.limit), ("offset", request.offset)] {
      if let v, v < 0 {
        throw SQLDiagnostics.error("negative-\(name)", "\(name) must not be negative", .at(0), source: "")
      }
    }
    if let limit = request.limit {
      sql += " LIMIT " + SQLExpr.marker
      bindings.append(.integer(Int64(limit)))
    } else if request.offset != nil, let unlimited = dialect.unlimitedLimit {
      sql += " LIMIT " + SQLExpr.marker
      bindings.append(unlimited)
    }
    if let offset = request.offset {
      sql += " OFFSET " + SQLExpr.marker
      bindings.append(.integer(Int64(offset)))
    }
  }

  func sortTerm(_ expr: String, ascending: Bool, nulls: SQLSortDescriptor.NullPlacement) -> String {
    let nullsFirst: Bool
    switch nulls {
    case .automatic: nullsFirst = ascending
    case .first: nullsFirst = true
    case .last: nullsFirst = false
    }
    let dir = ascending ? " ASC" : " DESC"
    if dialect.supportsNullsOrdering { return expr + dir + (nullsFirst ? " NULLS FIRST" : " NULLS LAST") }
    return "(" + expr + " IS NULL) " + (nullsFirst ? "DESC" : "ASC") + ", " + expr + dir
  }

  func orderBy(_ sorts: [SQLSortDescriptor], _ c: inout SQLCompilation, entity: SQLEntity) throws(SiftError) -> [String] {
    var out: [String] = []
    for s in sorts {
      let v = try keyPathValue(s.keyPath, &c, entity: entity)
      var (expr, vb) = c.materialize(v)
      guard vb.isEmpty else {
        throw SQLDiagnostics.error("unsupported-in-sql", "this key path cannot be sorted on", .at(0), source: s.keyPath)
      }
      if v.type == .string {
        switch s.comparison {
        case .binary: expr += c.collation(for: v)
        case .caseInsensitive: expr = c.materialize(c.fold(v, 1)).sql + c.collation(for: v)
        case .localizedStandard:
          if let coll = dialect.localizedCollation { expr += " COLLATE " + dialect.quoteIdentifier(coll) }
        }
      }
      out.append(sortTerm(expr, ascending: s.ascending, nulls: s.nulls))
    }
    return out
  }

  func aggregate(_ a: SQLAggregate, _ c: inout SQLCompilation, entity: SQLEntity) throws(SiftError) -> (String, [SQLValue]) {
    guard let keyPath = a.keyPath else {
      guard a.function == .count else {
        throw SQLDiagnostics.error("aggregate-needs-key-path", "\(a.function.rawValue) needs a key path", .at(0), source: a.name)
      }
      return ("COUNT(*)", [])
    }
    var v = try keyPathValue(keyPath, &c, entity: entity)
    let numericOK = v.type.isNumeric || v.type.family == 0
    switch a.function {
    case .count:
      let (vs, vb) = c.materialize(v)
      return ("COUNT(" + vs + ")", vb)
    case .sum, .avg:
      guard numericOK else {
        throw SQLDiagnostics.error(
          "aggregate-needs-numbers", "\(a.function.rawValue) needs numbers", SourceRange(start: 0, end: keyPath.utf8.count),
          source: keyPath)
      }
      v = c.numeric(v)
      let (vs, vb) = c.materialize(v)
      if a.function == .sum { return ("COALESCE(" + dialect.sumFunction + "(" + vs + "), 0)", vb) }
      return (dialect.averageFunction + "(CAST(" + vs + " AS " + dialect.doubleTypeName + "))", vb)
    case .min, .max:
      let (vs, vb) = c.materialize(v)
      return ((a.function == .min ? "MIN(" : "MAX(") + vs + c.collation(for: v) + ")", vb)
    }
  }
}
