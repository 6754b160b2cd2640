import SiftSyntax

extension SQLCompiler {
  /// The full SELECT for a fetch request.
  ///
  /// ```swift
  /// let st = try compiler.compile(SiftFetchRequest(entity: "Venue", resultType: .count))
  /// // SELECT COUNT(*) FROM "venue" t0
  /// ```
  public func compile(_ request: SiftFetchRequest) throws(SiftError) -> SQLStatement {
    checked(try select(request).statement(dialect))
  }

  /// `statement` marked with this compiler's schema, which the driver running it checks
  /// against the database on first use (`SQLStatement.schema`).
  func checked(_ statement: SQLStatement) -> SQLStatement {
    var s = statement
    s.schema = schema
    return s
  }

  /// The SELECT of `compile(_:)`, before its placeholders are numbered; `decoding` adds the
  /// arrays stored in one column to `.records` (`compileForDecoding`).
  func select(_ request: SiftFetchRequest, decoding: Bool = false) throws(SiftError) -> SQLFragment {
    let e = try entity(request.entity)
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: request.predicate?.source ?? "")
    c.toOneJoins = []
    var whereExpr = try c.whereClause(request.predicate?.root)
    if !request.includesSubentities, let own = ownRowsCondition(e, &c) {
      whereExpr = c.and([whereExpr ?? .alwaysTrue, own])
    }
    let joins = c.joinClauses
    c.toOneJoins = nil  // sort keys, columns and groups keep their subselects
    let q = dialect.quoteIdentifier
    var columns: [SQLFragment] = []
    var order: [SQLFragment] = []
    var groups: [SQLFragment] = []
    var pk = "t0." + q(e.primaryKeyAttribute.column)
    if e.primaryKeyAttribute.type == .string, let collation = dialect.textColumnCollation {
      // The tie-break (and `sift batch`'s key order) by code point, as the key is read, not in
      // the column's own collation (MySQL's default one puts "a" before "B").
      pk = "(" + pk + " COLLATE " + collation + ")"
    }
    let wrapCount = request.resultType == .count && (request.limit != nil || request.offset != nil)
    try request.validateShape()
    let having = try request.havingPlan()
    var resultAttributes: [SQLAttribute] = []  // the grouped result's columns, for a having predicate

    let sorted = { (tiebreak: String) throws(SiftError) -> [SQLFragment] in
      try self.orderBy(request.sortDescriptors, &c, entity: e) + [SQLFragment("\(sql: tiebreak) ASC")]
    }
    switch request.resultType {
    case .records:
      columns = (decoding ? SQLCompiler.decodedAttributes(of: e) : e.columnAttributes).map {
        SQLFragment("t0.\(sql: q($0.column))")
      }
      order = try sorted(pk)
    case .count:
      columns = [SQLFragment("\(sql: wrapCount ? "1" : "COUNT(*)")")]
    case .indices:
      guard schema.layout == .sift else {
        throw SQLDiagnostic.noRecordPositions(entity: e.name).error()
      }
      let index = "t0." + q(SQLSchema.indexColumn)
      columns = [SQLFragment("\(sql: index)")]
      whereExpr = c.and([whereExpr ?? .alwaysTrue, c.condition(SQLFragment("\(sql: index) IS NOT NULL"))])
      order = try sorted(index)
    case .distinct(let keyPath):
      // The select list holds the ORDER BY expression itself, collation included: PostgreSQL
      // refuses `SELECT DISTINCT x … ORDER BY x COLLATE "C"` (the order is not in the list).
      let v = try keyPathValue(keyPath, &c, entity: e)
      let ordered = SQLFragment("\(v)\(sql: c.collation(for: v))")
      columns = [SQLFragment("DISTINCT \(ordered)")]
      order = [sortTerm(ordered, ascending: true, nulls: .automatic, &c)]
    case .properties(let keyPaths) where request.returnsDistinctResults:
      (columns, groups, order) = try distinctShape(keyPaths, request, &c, entity: e)
    case .properties(let keyPaths):
      for k in keyPaths { columns.append(SQLFragment("\(try keyPathValue(k, &c, entity: e)) AS \(sql: q(k))")) }
      order = try sorted(pk)
    case .expressions(let descriptions):
      for d in descriptions {
        columns.append(SQLFragment("\(try selectExpression(d.expression, &c, entity: e)) AS \(sql: q(d.name))"))
      }
      order = try sorted(pk)
    case .aggregates(let aggregates, let groupBy):
      for g in groupBy {
        // Grouped key paths are columns or to-one subselects: they carry no bindings.
        let v = try keyPathValue(g, &c, entity: e)
        columns.append(SQLFragment("\(v) AS \(sql: q(g))"))
        groups.append(v.sql)
        order.append(sortTerm(SQLFragment("\(v)\(sql: c.collation(for: v))"), ascending: true, nulls: .automatic, &c))
        if having != nil { resultAttributes.append(resultAttribute(g, type: v.type, entity: e)) }
      }
      for a in aggregates {
        columns.append(SQLFragment("\(try aggregate(a, &c, entity: e)) AS \(sql: q(a.name))"))
        if having != nil { resultAttributes.append(aggregateAttribute(a, entity: e)) }
      }
    }

    try request.validate()
    var sql = SQLFragment(sql: wrapCount ? "SELECT COUNT(*) FROM (SELECT " : "SELECT ")
    sql.append(list: columns)
    sql.append(" FROM " + q(e.table) + " t0")
    sql.append(joins)
    if let w = whereExpr, w.shape != .alwaysTrue {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    if !groups.isEmpty {
      sql.append(" GROUP BY ")
      sql.append(list: groups)
    }
    if let having {
      // The groups are a table the having predicate reads; ordered and paged outside it.
      return try havingSelect(sql, having, resultAttributes, request, &c)
    }
    if !order.isEmpty {
      sql.append(" ORDER BY ")
      sql.append(list: order)
    }
    try page(&sql, request)
    if wrapCount { sql.append(") AS s") }
    return sql
  }

  /// ` LIMIT ? OFFSET ?` for the request's window.
  func page(_ sql: inout SQLFragment, _ request: SiftFetchRequest) throws(SiftError) {
    if let limit = request.limit {
      sql.append(" LIMIT \(bind: .integer(Int64(limit)))")
    } else if request.offset != nil, let unlimited = dialect.unlimitedLimit {
      sql.append(" LIMIT \(bind: unlimited)")
    }
    if let offset = request.offset {
      sql.append(" OFFSET \(bind: .integer(Int64(offset)))")
    }
  }

  /// One aggregate over the rows of a paged request: `SELECT agg FROM table t0 WHERE key IN
  /// (the page's keys, sorted, limited and offset)`.
  func pagedAggregate(_ a: SiftAggregate, over request: SiftFetchRequest) throws(SiftError) -> SQLStatement {
    let e = try entity(request.entity)
    guard e.hasSingleColumnKey else {
      // Without a key of its own a row of the page cannot be told from others sharing its values.
      throw SQLDiagnostic.noSingleColumnKey(entity: e.name).error(source: a.keyPath ?? a.name)
    }
    var keys = request
    keys.resultType = .properties([e.primaryKeyAttribute.name])
    let page = try select(keys)
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: a.keyPath ?? a.name)
    let q = dialect.quoteIdentifier
    let value = try aggregate(a, &c, entity: e)
    var sql = SQLFragment(
      "SELECT \(value) AS \(sql: q(a.name)) FROM \(sql: q(e.table)) t0 WHERE t0.\(sql: q(e.primaryKeyAttribute.column)) IN ("
    )
    if dialect.limitInSubqueryNeedsDerivedTable {
      // MariaDB: "doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'"; a derived table it takes.
      sql.append("SELECT * FROM (")
      sql.append(page)
      sql.append(") sift_page")
    } else {
      sql.append(page)
    }
    sql.append(")")
    return checked(sql.statement(dialect))
  }

  func sortTerm(
    _ expr: SQLFragment, ascending: Bool, nulls: SiftSortDescriptor.NullPlacement, _ c: inout SQLCompilation
  ) -> SQLFragment {
    let nullsFirst: Bool
    switch nulls {
    case .automatic: nullsFirst = ascending
    case .first: nullsFirst = true
    case .last: nullsFirst = false
    }
    let dir = ascending ? " ASC" : " DESC"
    if dialect.supportsNullsOrdering {
      return SQLFragment("\(expr)\(sql: dir)\(sql: nullsFirst ? " NULLS FIRST" : " NULLS LAST")")
    }
    return SQLFragment("(\(expr) IS NULL) \(sql: nullsFirst ? "DESC" : "ASC"), \(expr)\(sql: dir)")
  }

  func orderBy(_ sorts: [SiftSortDescriptor], _ c: inout SQLCompilation, entity: SQLEntity) throws(SiftError)
    -> [SQLFragment]
  {
    var terms: [SQLFragment] = []
    for s in sorts {
      terms += try sortTerms(s, value: try keyPathValue(s.keyPath, &c, entity: entity), &c)
    }
    return terms
  }

  /// The ORDER BY terms of one sort descriptor over the value `value` of its key path.
  func sortTerms(_ s: SiftSortDescriptor, value: SQLExpr, _ c: inout SQLCompilation) throws(SiftError)
    -> [SQLFragment]
  {
    var terms: [SQLFragment] = []
    let v = c.sortable(value)
    guard v.sql.bindings.isEmpty else {
      throw SQLDiagnostic.unsortableKeyPath.error(source: s.keyPath)
    }
    var expr = v.sql
    // A column of any kind sorts its text rows as a string column's (SQLite orders NULL,
    // numbers, text, blobs, as memory's `SiftSortOrder.rank`; `fold` keeps other rows as stored).
    if v.type == .string || v.type == .any {
      switch s.comparison {
      case .binary: expr = SQLFragment("\(v)\(sql: c.collation(for: v))")
      case .caseInsensitive: expr = SQLFragment("\(c.fold(v, .caseInsensitive))\(sql: c.collation(for: v))")
      case .localized:
        guard let keys = dialect.localizedCompareSortKeys(v.sql.text) else {
          throw SQLDiagnostic.noSQLEquivalent("localizedCompare:").error(source: s.keyPath)
        }
        for key in keys {
          terms.append(sortTerm(SQLFragment("\(sql: key)"), ascending: s.ascending, nulls: s.nulls, &c))
        }
        return terms
      case .localizedStandard:
        if let keys = dialect.localizedSortKeys(v.sql.text) {
          for key in keys {
            terms.append(sortTerm(SQLFragment("\(sql: key)"), ascending: s.ascending, nulls: s.nulls, &c))
          }
          return terms
        } else if let coll = dialect.localizedCollation {
          // `schema.name` (PostgreSQL's `sift.sift_localized`): each part quoted.
          let name = coll.split(separator: ".", maxSplits: 1).map { dialect.quoteIdentifier(String($0)) }.joined(
            separator: ".")
          expr = SQLFragment("\(v) COLLATE \(sql: name)")
        } else {
          throw SQLDiagnostic.noSQLEquivalent("localizedStandardCompare:").error(source: s.keyPath)
        }
      }
    }
    terms.append(sortTerm(expr, ascending: s.ascending, nulls: s.nulls, &c))
    return terms
  }

  func aggregate(_ a: SiftAggregate, _ c: inout SQLCompilation, entity: SQLEntity) throws(SiftError) -> SQLFragment {
    guard let keyPath = a.keyPath else {
      guard a.function == .count else {
        throw SQLDiagnostic.aggregateNeedsKeyPath(a.function.rawValue).error(source: a.name)
      }
      return SQLFragment("COUNT(*)")
    }
    var v = try keyPathValue(keyPath, &c, entity: entity)
    let numericOK = v.type.isNumeric || v.type.family == 0
    switch a.function {
    case .count:
      return SQLFragment("COUNT(\(v))")
    case .sum, .avg:
      guard numericOK else {
        throw SQLDiagnostic.aggregateNeedsNumbers(a.function.rawValue).error(spanning: keyPath)
      }
      v = c.numeric(v)
      if a.function == .sum { return SQLFragment("COALESCE(\(sql: dialect.sumFunction)(\(v)), 0)") }
      return dialect.average(of: v.sql)
    case .median, .stddev:
      throw SQLDiagnostic.noSQLEquivalent(a.function.rawValue).error(spanning: keyPath)
    case .min, .max:
      return SQLFragment("\(sql: a.function == .min ? "MIN(" : "MAX(")\(v)\(sql: c.collation(for: v)))")
    }
  }
}
