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

  /// A constant from a plain Swift value: `Bool`, every integer width, `Double`, `String`,
  /// `Date`, `UUID`, `Data`, an optional (`nil` stores NULL) or any `SiftValueConvertible`.
  ///
  /// ```swift
  /// let isFavorite = true, rating: Int? = nil
  /// let sets: [(String, SQLUpdateValue)] = [("favorite", .value(isFavorite)), ("rating", .value(rating))]
  /// ```
  @_disfavoredOverload
  public static func value<T: SiftValueConvertible>(_ value: T) -> SQLUpdateValue { .value(value.siftValue) }

  /// A constant from an enum with a raw value: the raw value is stored.
  ///
  /// ```swift
  /// enum Status: String { case open, done }
  /// let set = SQLUpdateValue.value(Status.done)   // .value("done")
  /// ```
  @_disfavoredOverload
  public static func value<T: RawRepresentable>(_ value: T) -> SQLUpdateValue where T.RawValue: SiftValueConvertible {
    .value(value.rawValue.siftValue)
  }

  /// A constant from an enum that is both: its `siftValue`.
  @_disfavoredOverload
  public static func value<T: RawRepresentable & SiftValueConvertible>(
    _ value: T
  ) -> SQLUpdateValue where T.RawValue: SiftValueConvertible {
    .value(value.siftValue)
  }

  /// Parses an expression in the predicate language (with `%@` arguments).
  /// - Throws: `SiftError` at stage `.parse` or `.arguments`.
  public static func expression(_ format: String, _ arguments: SiftValue...) throws(SiftError) -> SQLUpdateValue {
    try parsedExpression(format, arguments)
  }

  /// `format` parsed as the left side of a comparison, so the expression grammar is reused exactly.
  static func parsedExpression(_ format: String, _ arguments: [SiftValue]) throws(SiftError) -> SQLUpdateValue {
    let p = try SiftPredicate(format: format + " == nil", arguments: arguments)
    guard case .comparison(let c) = p.root.kind, c.quantifier == nil, c.op == .equal,
      c.lhs.range.end <= format.utf8.count
    else {
      throw SQLDiagnostic.expectedUpdateExpression.error(spanning: format)
    }
    return .expression(c.lhs, source: format)
  }

  /// ``expression(_:_:)`` with plain Swift values as the `%@` arguments.
  ///
  /// ```swift
  /// let step = 2
  /// let bump = try SQLUpdateValue.expression("tipCount + %@", step)
  /// ```
  /// - Throws: `SiftError` at stage `.parse` or `.arguments` (`unsupported-argument-type` for a
  ///   value Sift cannot use).
  @_disfavoredOverload
  public static func expression(_ format: String, _ arguments: Any?...) throws(SiftError) -> SQLUpdateValue {
    var values: [SiftValue] = []
    for (n, argument) in arguments.enumerated() {
      guard let v = SiftValue(converting: argument) else {
        throw SiftError(
          stage: .arguments, id: .unsupportedArgumentType,
          message: "argument \(n + 1) of \"\(format)\" is \(SiftValue.typeName(of: argument)), which Sift cannot use "
            + "as a value; conform it to SiftValueConvertible")
      }
      values.append(v)
    }
    return try parsedExpression(format, values)
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
  public init(
    entity: String, predicate: SiftPredicate? = nil, assignments: [(attribute: String, value: SQLUpdateValue)]
  ) {
    self.entity = entity
    self.predicate = predicate
    self.assignments = assignments
  }
}

/// `DELETE … WHERE predicate` (Core Data's NSBatchDeleteRequest). On a layout Sift made, the
/// deleted rows' array side tables and join-table rows go too and to-many children get a NULL
/// foreign key; in a database Sift did not create it is the DELETE alone, and the database's
/// own foreign-key rules act (see `SQLCompiler.compile(_:)` for a delete).
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
    try updateStatement(request, returningKeys: false)
  }

  /// `compile(_:)` with `RETURNING` the updated rows' key columns when asked.
  func updateStatement(_ request: BatchUpdateRequest, returningKeys: Bool) throws(SiftError) -> SQLStatement {
    let e = try writableEntity(request.entity)
    let q = dialect.quoteIdentifier
    var sets: [SQLFragment] = []
    var nextAlias = 1
    for (name, value) in request.assignments {
      let (a, written) = try assignment(name, value, of: e, nextAlias: &nextAlias)
      sets.append(SQLFragment("\(sql: q(a.column)) = \(written)"))
    }
    if !sets.isEmpty, isCoreDataTable(e) {
      // Core Data's optimistic-locking version: every update of a row increments it
      // (Grammar/notes/coredata.md, "Writing a Core Data store").
      sets.append(SQLFragment(sql: "\"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1"))
    }
    guard !sets.isEmpty else {
      throw SQLDiagnostic.noAssignments.error()
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
    if returningKeys { sql.append(returning(e)) }
    return checked(sql.statement(dialect))  // the schema checked on first use, as a fetch's
  }

  /// The new value of attribute `name` of `e` as written: a bound constant in the column's own
  /// form, or an expression over the record; checked against the attribute's type.
  func assignment(
    _ name: String, _ value: SQLUpdateValue, of e: SQLEntity, nextAlias: inout Int
  ) throws(SiftError) -> (SQLAttribute, SQLExpr) {
    guard let a = e.attribute(name), !a.type.isArray, name != e.primaryKey else {
      throw SQLDiagnostic.notUpdatable(name, entity: e.name).error(spanning: name)
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
    let ok =
      v.type == target || v.type == .null || v.type == .unknown || (target == .double && v.type == .integer)
      || (target == .integer && v.type == .boolean)
      || (target == .boolean && v.type == .integer && dialect.booleansAreIntegers)
    guard ok else {
      throw SQLDiagnostic.assignmentType(entity: e.name, attribute: name, is: a.type.rawValue, value: v.type)
        .error(spanning: name)
    }
    var written = v
    if target == .integer, v.type == .integer, v.constant == nil, let check = dialect.integerCheckFunction {
      // Computed integer arithmetic that overflowed is a double here: refused per row, never
      // stored as a rounded REAL (`sift_int(x, column)`; PostgreSQL fails on overflow itself).
      written.sql = c.raising(true, SQLFragment("\(sql: check)(\(v), \(bind: .text(a.name)))"))
    }
    // The column's own date form.
    return (a, try c.assigned(written, to: a, SiftSourceRange(start: 0, end: name.utf8.count)))
  }

  /// A table Core Data wrote (`Z_PK` key in a schema of a database Sift did not create): its
  /// rows carry Core Data's bookkeeping (`Z_ENT`, `Z_OPT`), which writes must keep.
  func isCoreDataTable(_ e: SQLEntity) -> Bool {
    schema.layout == .existing && e.primaryKeyAttribute.column == "Z_PK"
  }

  /// The DELETE and, in tables Sift created (layout `.sift`), its clean-up: side-table and
  /// join-table rows whose owner is gone are deleted, and to-many children pointing at a
  /// deleted row get a NULL foreign key. In a database Sift did not create (`.existing`) it is
  /// the DELETE alone: the database's own foreign-key rules (`ON DELETE …`) decide what happens
  /// to other rows, Sift adds none; a Core Data store's entity with relationships is refused
  /// (Core Data's delete rules and join tables are Core Data's to apply). Run them with
  /// `SQLDatabase.run(_:compiler:resultType:)` (one transaction, counted).
  ///
  /// ```swift
  /// try db.run(BatchDeleteRequest(entity: "Venue"), compiler: compiler)   // SiftBatchResult(count: …)
  /// ```
  /// - Throws: `SiftError` (stage `.sql`): `unsupported-write` for a view or a Core Data entity
  ///   with relationships; the predicate's compile errors.
  public func compile(_ request: BatchDeleteRequest) throws(SiftError) -> [SQLStatement] {
    try deleteStatements(request, returningKeys: false)
  }

  /// `compile(_:)` with `RETURNING` the deleted rows' key columns on the DELETE when asked.
  func deleteStatements(_ request: BatchDeleteRequest, returningKeys: Bool) throws(SiftError) -> [SQLStatement] {
    let e = try writableEntity(request.entity)
    let q = dialect.quoteIdentifier
    if isCoreDataTable(e), let related = rowsPointingAt(e).first {
      throw SQLDiagnostic.coreDataDelete(entity: e.name, pointedAtBy: "\(related)").error()
    }
    var sql = SQLFragment(sql: dialect.deleteHead(q(e.table)))
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: request.predicate?.source ?? "")
    if let w = try c.whereClause(request.predicate?.root) {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    if returningKeys && dialect.supportsReturning { sql.append(returning(e)) }
    var out = [checked(sql.statement(dialect))]  // the schema checked on first use, as a fetch's
    if returningKeys && !dialect.supportsReturning { out.insert(try lockedKeys(e, request.predicate), at: 0) }
    guard schema.layout == .sift else { return out }
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
        out.append(
          SQLStatement(
            sql: "UPDATE " + t + " SET " + q(fk) + " = NULL WHERE " + t + "." + q(fk) + " IS NOT NULL AND "
              + orphan(t + "." + q(fk))))
      case .manyToMany(let table, let s, _):
        out.append(SQLStatement(sql: "DELETE FROM " + q(table) + " WHERE " + orphan(q(table) + "." + q(s))))
      case .toOne:
        break
      }
    }
    return out
  }

  /// Relationships whose stored keys would point at deleted rows of `e` (`Entity.relationship`):
  /// its own to-many and many-to-many, and other entities' to-ones targeting it (or an entity
  /// sharing its table). A to-one of `e` itself is stored in the deleted row and goes with it.
  func rowsPointingAt(_ e: SQLEntity) -> [String] {
    var out: [String] = []
    for r in e.relationships where r.isToMany { out.append("\(e.name).\(r.name)") }
    for name in schema.entityNames {
      guard let other = schema.entity(name) else { continue }
      for r in other.relationships {
        guard case .toOne = r.kind, let target = schema.entity(r.target), target.table == e.table else { continue }
        out.append("\(other.name).\(r.name)")
      }
    }
    return out
  }

  /// ` RETURNING "key", …`: the written rows' key columns.
  /// `updateStatement` as the statements to run: the keys read first (`lockedKeys`) where the
  /// dialect has no `RETURNING` and keys are asked for.
  func updateStatements(_ request: BatchUpdateRequest, returningKeys: Bool) throws(SiftError) -> [SQLStatement] {
    guard returningKeys, !dialect.supportsReturning else {
      return [try updateStatement(request, returningKeys: returningKeys)]
    }
    let keys = try lockedKeys(try writableEntity(request.entity), request.predicate)
    return [keys, try updateStatement(request, returningKeys: false)]
  }

  /// Where the dialect has no `RETURNING` (MariaDB's UPDATE and multi-table DELETE): the keys of
  /// the rows a write will change, read in its transaction and locked until it commits
  /// (`SELECT t0.pk FROM t t0 WHERE … FOR UPDATE`), so they are the rows it changes.
  func lockedKeys(_ e: SQLEntity, _ predicate: SiftPredicate?) throws(SiftError) -> SQLStatement {
    var c = SQLCompilation(dialect: dialect, schema: refs, entity: e, source: predicate?.source ?? "")
    let keys = e.primaryKeyColumns.map { "t0." + dialect.quoteIdentifier($0) }.joined(separator: ", ")
    var sql = SQLFragment(sql: "SELECT " + keys + " FROM " + dialect.quoteIdentifier(e.table) + " t0")
    if let w = try c.whereClause(predicate?.root) {
      sql.append(" WHERE ")
      sql.append(w.sql)
    }
    sql.append(" FOR UPDATE")
    return checked(sql.statement(dialect))
  }

  func returning(_ e: SQLEntity) -> String {
    " RETURNING " + e.primaryKeyColumns.map(dialect.quoteIdentifier).joined(separator: ", ")
  }

  /// The entity named `name`, refused for writes when it is a view.
  func writableEntity(_ name: String) throws(SiftError) -> SQLEntity {
    let e = try entity(name)
    guard !e.isView else {
      throw SQLDiagnostic.isView(entity: e.name).error()
    }
    return e
  }
}
