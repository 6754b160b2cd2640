import SiftSyntax

/// Compiles predicates and requests against a schema into parameterized SQL for one dialect.
///
/// The root entity's table is always aliased `t0`. Every value is bound; every identifier is
/// quoted. The SQL selects exactly the records in-memory evaluation selects (see
/// Grammar/notes/sql.md); whatever cannot be expressed faithfully is a `SiftError` with
/// stage `.sql` pointing at the offending node.
///
/// ```swift
/// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
/// let w = try compiler.compileWhere(try SiftPredicate(format: "name BEGINSWITH %@", "Blue"), entity: "Venue")
/// // w.sql: (t0."name" >= ? AND t0."name" < ?)   w.bindings: ['Blue', 'Bluf']
/// ```
public struct SQLCompiler: Sendable {
  /// The target database.
  public let dialect: any SQLDialect
  /// The entities key paths resolve against.
  public let schema: SQLSchema
  let refs: SQLEntityRefs

  /// Creates a compiler.
  public init(dialect: any SQLDialect, schema: SQLSchema) {
    self.dialect = dialect
    self.schema = schema
    self.refs = SQLEntityRefs(schema, dialect: dialect)
  }

  /// The entity named `name`, or an `unknown-entity` error suggesting the closest name.
  ///
  /// ```swift
  /// let venue = try compiler.entity("Venue")
  /// ```
  public func entity(_ name: String) throws(SiftError) -> SQLEntity {
    if let e = schema.entity(name) { return e }
    throw SQLDiagnostic.unknownEntity(name, among: schema.entityNames).error(spanning: name)
  }

  /// The WHERE condition alone (no `WHERE` keyword), for `FROM <fromClause(entity)>`.
  ///
  /// ```swift
  /// let w = try compiler.compileWhere(try SiftPredicate(format: "tags.@count > 2"), entity: "Venue")
  /// // (SELECT COUNT(*) FROM "venue__tags" t1 WHERE t1."owner" = t0."id") > ?
  /// ```
  public func compileWhere(_ predicate: SiftPredicate, entity name: String) throws(SiftError) -> SQLStatement {
    guard let e = refs.entity(name) else { _ = try entity(name); return SQLStatement(sql: "") }
    var c = SQLCompilation(dialect: dialect, schema: refs, root: e, source: predicate.source)
    let w = try c.checkedWhere(predicate.root)
    return w.sql.statement(dialect)
  }

  /// `"table" t0`: the FROM clause `compileWhere` conditions refer to.
  ///
  /// ```swift
  /// try compiler.fromClause(entity: "Venue")   // "venue" t0
  /// ```
  public func fromClause(entity name: String) throws(SiftError) -> String {
    dialect.quoteIdentifier(try entity(name).table) + " t0"
  }

  /// Names of the columns `.records` results hold, in order (the entity's non-array
  /// attributes, primary key first).
  ///
  /// ```swift
  /// try compiler.recordColumns(entity: "Venue").first   // "id"
  /// ```
  public func recordColumns(entity name: String) throws(SiftError) -> [String] {
    try entity(name).columnAttributes.map(\.name)
  }

  /// `SELECT __sift_index … WHERE predicate ORDER BY __sift_index`: the positions of the
  /// matching records in the JSON array `SQLDataLoader` loaded.
  ///
  /// ```swift
  /// let st = try compiler.compileMatchingIndices(p, entity: "Venue")
  /// ```
  public func compileMatchingIndices(_ predicate: SiftPredicate, entity name: String) throws(SiftError) -> SQLStatement
  {
    try compile(SiftFetchRequest(entity: name, predicate: predicate, resultType: .indices))
  }

  /// Compiles a key path of `entity` (to-one steps allowed) to a value, with errors pointing
  /// into the key path text.
  func keyPathValue(
    _ keyPath: String, _ c: inout SQLCompilation, entity: SQLEntity
  ) throws(SiftError) -> SQLExpr {
    var sub = SQLCompilation(dialect: dialect, schema: refs, entity: entity, source: keyPath)
    sub.nextAlias = c.nextAlias
    defer { c.nextAlias = sub.nextAlias }
    let node = ExpressionNode.keyPath(keyPath, range: SiftSourceRange(start: 0, end: keyPath.utf8.count))
    var o = try sub.expression(node)
    return try sub.scalar(&o, hint: nil, node.range)
  }

  /// Compiles an expression of `entity` to one select value (`.expressions` results), with
  /// errors pointing into the expression's format.
  func selectExpression(
    _ expression: SiftExpression, _ c: inout SQLCompilation, entity: SQLEntity
  ) throws(SiftError) -> SQLExpr {
    if expression.unboundArgumentCount > 0 {
      throw SQLDiagnostic.expressionArgumentsUnbound.error(expression.root.range, source: expression.source)
    }
    if (try? SiftAggregate(expression)) != nil {
      throw SQLDiagnostic.aggregateInExpression.error(expression.root.range, source: expression.source)
    }
    var sub = SQLCompilation(dialect: dialect, schema: refs, entity: entity, source: expression.source)
    sub.nextAlias = c.nextAlias
    defer { c.nextAlias = sub.nextAlias }
    var o = try sub.expression(expression.root)
    return try sub.scalar(&o, hint: nil, expression.root.range)
  }

  /// An expression over the records `request` selects, as one SELECT: an aggregate of a key
  /// path (`sum:(price)`, `average:(rating)`, `count:(SELF)`, …) is one row with one value
  /// (`SUM`, `AVG`, `COUNT`, …, with the rules of `SiftAggregate`; over a paged request, of
  /// the rows of its page); anything else is one value per record, in the request's order. What SQL cannot express is an error naming
  /// the construct (`median:`, `FUNCTION`, `random()`, …).
  ///
  /// ```swift
  /// let st = try compiler.compile(try SiftExpression(format: "sum:(specialCount)"),
  ///                               over: SiftFetchRequest(entity: "Venue"))
  /// // SELECT COALESCE(sift_sum(t0."specialCount"), 0) AS "sum(specialCount)" FROM "venue" t0
  /// ```
  public func compile(_ expression: SiftExpression, over request: SiftFetchRequest) throws(SiftError) -> SQLStatement {
    var r = request
    if let aggregate = try? SiftAggregate(expression) {
      if request.limit != nil || request.offset != nil { return try pagedAggregate(aggregate, over: request) }
      r.resultType = .aggregates([aggregate], groupBy: [])
      r.sortDescriptors = []
    } else {
      r.resultType = .expressions([SiftExpressionDescription(expression: expression)])
    }
    return try compile(r)
  }
}
