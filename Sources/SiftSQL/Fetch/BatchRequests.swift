import SiftSyntax

/// The new value of one attribute in a batch update: a constant, or an expression over the
/// record's own attributes (`tipCount + 1`).
///
/// ```swift
/// let bump = try SQLUpdateValue.expression("tipCount + %@", 1)
/// ```
public enum SQLUpdateValue: Sendable, Hashable {
  /// A constant, bound with the attribute's type.
  case value(SiftValue)
  /// An expression, with the text its ranges point into.
  case expression(ExpressionNode, source: String)

  /// Parses an expression in the predicate language (with `%@` arguments).
  /// - Throws: `SiftError` at stage `.parse` or `.arguments`.
  public static func expression(_ format: String, _ arguments: SiftValue...) throws(SiftError) -> SQLUpdateValue {
    // Parsed as the left side of a comparison so the expression grammar is reused exactly.
    let p = try SiftPredicate(format: format + " == nil", arguments: arguments)
    guard case .comparison(let c) = p.root.kind, c.quantifier == nil, c.op == .equal,
      c.lhs.range.end <= format.utf8.count
    else {
      throw SQLDiagnostics.error(
        .expectedExpression, "expected an expression such as tipCount + 1", SiftSourceRange(start: 0, end: format.utf8.count),
        source: format)
    }
    return .expression(c.lhs, source: format)
  }
}

/// `UPDATE … SET attribute = value, … WHERE predicate` (Core Data's NSBatchUpdateRequest).
///
/// ```swift
/// let r = BatchUpdateRequest(entity: "Venue", predicate: try SiftPredicate(format: "rating == nil"),
///                            assignments: [("favorite", .value(false))])
/// ```
public struct BatchUpdateRequest: Sendable {
  /// The entity.
  public var entity: String
  /// Which records; nil updates all.
  public var predicate: SiftPredicate?
  /// Attribute name and new value, applied in order.
  public var assignments: [(attribute: String, value: SQLUpdateValue)]

  /// Creates a request.
  public init(entity: String, predicate: SiftPredicate? = nil, assignments: [(attribute: String, value: SQLUpdateValue)]) {
    self.entity = entity
    self.predicate = predicate
    self.assignments = assignments
  }
}

/// `DELETE … WHERE predicate`, followed by clean-up of the deleted rows' array side tables
/// and join-table rows, and nullifying to-many children's foreign keys.
///
/// ```swift
/// let r = BatchDeleteRequest(entity: "Venue", predicate: try SiftPredicate(format: "tipCount < 10"))
/// ```
public struct BatchDeleteRequest: Sendable {
  /// The entity.
  public var entity: String
  /// Which records; nil deletes all.
  public var predicate: SiftPredicate?

  /// Creates a request.
  public init(entity: String, predicate: SiftPredicate? = nil) {
    self.entity = entity
    self.predicate = predicate
  }
}

extension SQLCompiler {
  /// `UPDATE "table" AS t0 SET "col" = ?, … WHERE …`; values are bound with the attribute's
  /// type, and expressions may use the record's attributes and to-one key paths.
  ///
  /// ```swift
  /// let st = try compiler.compile(BatchUpdateRequest(entity: "Venue", assignments: [("tipCount", .value(0))]))
  /// ```
  public func compile(_ request: BatchUpdateRequest) throws(SiftError) -> SQLStatement {
    let e = try entity(request.entity)
    let q = dialect.quoteIdentifier
    var sets: [SQLFragment] = []
    var nextAlias = 1
    for (name, value) in request.assignments {
      guard let a = e.attribute(name), !a.type.isArray, name != e.primaryKey else {
        throw SQLDiagnostics.error(
          .invalidAssignment, "'\(name)' is not an updatable attribute of \(e.name)",
          SiftSourceRange(start: 0, end: name.utf8.count), source: name)
      }
      var c: SQLCompilation
      let v: SQLExpr
      switch value {
      case .value(let constant):
        c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: name)
        v = try c.bind(constant, hint: SQLType(a.type), SiftSourceRange(start: 0, end: name.utf8.count))
      case .expression(let node, let source):
        c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: source)
        c.nextAlias = nextAlias
        var o = try c.expression(node)
        v = try c.scalar(&o, hint: SQLType(a.type), node.range)
        nextAlias = c.nextAlias
      }
      let target = SQLType(a.type)
      let ok = v.type == target || v.type == .null || v.type == .unknown || (target == .double && v.type == .integer)
        || (target == .integer && v.type == .boolean) || (target == .boolean && v.type == .integer && dialect.booleansAreIntegers)
      guard ok else {
        throw SQLDiagnostics.error(
          .typeMismatch, "\(e.name).\(name) is \(a.type.rawValue), but the new value is \(v.type)",
          SiftSourceRange(start: 0, end: name.utf8.count), source: name)
      }
      let written = try c.assigned(v, to: a, SiftSourceRange(start: 0, end: name.utf8.count))  // the column's own date form
      sets.append(SQLFragment("\(sql: q(a.column)) = \(written)"))
    }
    guard !sets.isEmpty else {
      throw SQLDiagnostics.error(.invalidAssignment, "a batch update needs at least one assignment", .at(0), source: "")
    }
    // The entity's rows only: a shared table's row filter applies without a predicate too.
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: request.predicate?.source ?? "")
    c.nextAlias = nextAlias
    let whereExpr = try c.whereClause(request.predicate?.root)
    var sql = SQLFragment(sql: "UPDATE " + q(e.table) + " AS t0 SET ")
    sql.append(list: sets)
    if let w = whereExpr {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    return sql.statement(dialect)
  }

  /// The DELETE, then clean-up: side-table and join-table rows whose owner is gone are
  /// deleted, and to-many children pointing at a deleted row get a NULL foreign key. Run them
  /// as one transaction (`executeTransaction`), so a clean-up statement that fails undoes the
  /// DELETE too.
  ///
  /// ```swift
  /// try db.executeTransaction(try compiler.compile(BatchDeleteRequest(entity: "Venue")))
  /// ```
  public func compile(_ request: BatchDeleteRequest) throws(SiftError) -> [SQLStatement] {
    let e = try entity(request.entity)
    let q = dialect.quoteIdentifier
    var sql = SQLFragment(sql: "DELETE FROM " + q(e.table) + " AS t0")
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: request.predicate?.source ?? "")
    if let w = try c.whereClause(request.predicate?.root) {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    var out = [sql.statement(dialect)]
    let pk = q(e.primaryKeyAttribute.column)
    func orphan(_ column: String) -> String {
      "NOT EXISTS (SELECT 1 FROM " + q(e.table) + " p WHERE p." + pk + " = " + column + ")"
    }
    for a in e.attributes where a.type.isArray {
      let side = q(e.sideTable(for: a))
      out.append(SQLStatement(sql: "DELETE FROM " + side + " WHERE " + orphan(side + "." + q(SQLSchema.ownerColumn))))
    }
    for r in e.relationships {
      guard let target = schema.entity(r.target) else { continue }
      switch r.kind {
      case .toMany(let fk):
        let t = q(target.table)
        out.append(SQLStatement(
          sql: "UPDATE " + t + " SET " + q(fk) + " = NULL WHERE " + t + "." + q(fk) + " IS NOT NULL AND " + orphan(t + "." + q(fk))))
      case .manyToMany(let table, let s, _):
        out.append(SQLStatement(sql: "DELETE FROM " + q(table) + " WHERE " + orphan(q(table) + "." + q(s))))
      case .toOne:
        break
      }
    }
    return out
  }
}
