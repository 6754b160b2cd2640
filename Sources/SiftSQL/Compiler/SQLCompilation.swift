import SiftSyntax

/// The state of one compilation: dialect, schema, the predicate's source (for diagnostics),
/// the alias counter and the SUBQUERY variables in scope. Key-path resolution lives here.
struct SQLCompilation {
  let dialect: any SQLDialect
  let schema: SQLEntityRefs
  let source: String
  let root: SQLEntityRef
  /// The row key paths without a base start from: the root row, or a to-one target while
  /// `toOneSemiJoin` compiles a comparison on it.
  var selfRow: RowRef
  var nextAlias = 1
  /// The SUBQUERY variables in scope, innermost last (an inner one hides an outer one of the
  /// same name). A short list searched from the end: nesting is shallow, and comparing short
  /// names is cheaper than hashing them.
  var variables: [(name: String, value: Operand)] = []
  /// The to-one steps joined to the statement's FROM, when it has one to put them in (a fetch
  /// request's SELECT); nil: to-one columns are correlated subselects (`compileWhere`, batch
  /// updates and deletes). See `SQLCompilation+Joins.swift`.
  var toOneJoins: [SQLToOneJoin]?

  /// The innermost SUBQUERY variable named `name`.
  func variable(_ name: String) -> Operand? {
    variables.last { $0.name == name }?.value
  }

  init(dialect: any SQLDialect, schema: SQLEntityRefs, entity: SQLEntity, source: String) {
    self.init(
      dialect: dialect, schema: schema, root: schema.entity(entity.name) ?? SQLEntityRef(entity, dialect: dialect),
      source: source)
  }

  init(dialect: any SQLDialect, schema: SQLEntityRefs, root entity: SQLEntityRef, source: String) {
    self.dialect = dialect
    self.schema = schema
    self.source = source
    self.root = entity
    self.selfRow = RowRef(
      entity: entity,
      key: SQLExpr(SQLFragment(utf8: entity.primaryKeyColumn.rootUTF8), type: entity.primaryKeyType, nullable: false),
      alias: .root)
  }

  /// The catalog's diagnostic `d` (`SQLDiagnostic`) at `range` of the predicate being compiled.
  func fail(_ d: SQLDiagnostic, _ range: SiftSourceRange) -> SiftError { d.error(range, source: source) }

  func q(_ name: String) -> String { dialect.quoteIdentifier(name) }

  /// A new table alias: `t1`, `t2`, … for rows, `j1`, … for join tables.
  mutating func newAlias(_ prefix: String = "t") -> SQLAlias {
    defer { nextAlias += 1 }
    return SQLAlias(prefix + String(nextAlias))
  }

  // MARK: - Rows and members

  /// A column of a row: `alias."col"`, or a correlated subselect through the row's key.
  mutating func column(_ row: RowRef, _ column: SQLColumnRef, type: SQLType, nullable: Bool = true) -> SQLExpr {
    if row.isRoot {
      return collated(SQLExpr(SQLFragment(utf8: column.rootUTF8), type: type, nullable: nullable), isColumn: true)
    }
    if let alias = row.alias {
      return collated(
        SQLExpr(SQLFragment("\(alias).\(sql: column.quoted)"), type: type, nullable: nullable), isColumn: true)
    }
    let a = newAlias()
    let sql = SQLFragment(
      "(SELECT \(a).\(sql: column.quoted) FROM \(sql: row.entity.quotedTable) \(a) WHERE \(a).\(sql: row.entity.primaryKeyColumn.quoted) = \(row.key))"
    )
    return collated(SQLExpr(sql, type: type, nullable: true), isColumn: true)
  }

  /// `alias."Z_ENT" IN (?, …)`: the rows of `e` in a table it shares (nil: every row is
  /// one of `e`'s). Values are bound.
  func rowFilter(_ e: SQLEntityRef, _ alias: SQLAlias) -> SQLExpr? {
    guard let f = e.rowFilter else { return nil }
    var list = SQLFragment("\(alias).\(sql: f.column.quoted) IN (")
    for (i, v) in f.values.enumerated() {
      if i > 0 { list.append(", ") }
      list.append(SQLFragment(binding: .integer(v)))
    }
    list.append(")")
    return condition(list)
  }

  /// The row's primary key (a plain column when the row has an alias).
  func primaryKey(_ row: RowRef) -> SQLExpr { row.key }

  /// `row.key` for an attribute or relationship named `key`.
  mutating func member(_ row: RowRef, _ key: String, _ range: SiftSourceRange) throws(SiftError) -> Operand {
    let e = row.entity
    guard let m = e.members[key] else {
      if key == "self" { return .row(row) }
      throw SQLDiagnostic.unknownKey(key, entity: e.entity, range, source: source)
    }
    switch m {
    case .column(let c, let type, let form, let isPK):
      if type == .any, dialect.anyValueChecks == nil {
        throw fail(.notCompilable("\(key), a column that keeps any kind (SQLite's),", for: dialect.name), range)
      }
      var v = column(row, c, type: type, nullable: !isPK || row.alias == nil || row.joined)
      v.form = form
      return .value(v)
    case .array(let a, let table, let count):
      return .collection(sideTable(row, a, table, count))
    case .arrayColumn(let a, let c, let storage):
      return .collection(try arrayColumn(row, a, c, storage, range))
    case .toOne(let targetPosition, let fk):
      guard let target = schema.entity(at: targetPosition) else { break }
      let keyExpr = column(row, fk, type: target.primaryKeyType)
      if let alias = joinedAlias(from: row, foreignKey: fk, target: target) {
        return .row(RowRef(entity: target, key: keyExpr, alias: alias, joined: true))
      }
      return .row(RowRef(entity: target, key: keyExpr, alias: nil))
    case .toMany(let targetPosition, let inverse, let count, let order):
      guard let target = schema.entity(at: targetPosition) else { break }
      let a = newAlias()
      let owner = primaryKey(row)
      let cond = and(
        [condition(SQLFragment("\(a).\(sql: inverse) = \(owner)"))] + (rowFilter(target, a).map { [$0] } ?? []))
      let elementKey = SQLExpr(
        SQLFragment("\(a).\(sql: target.primaryKeyColumn.quoted)"), type: target.primaryKeyType, nullable: false)
      return .collection(
        SQLCollection(
          from: SQLFragment("\(sql: target.quotedTable) \(a)"), condition: cond,
          element: .row(RowRef(entity: target, key: elementKey, alias: a)),
          position: order.map { SQLFragment("\(a).\(sql: $0)") }, positionIsIndex: false,
          presence: count.map { column(row, $0, type: .integer) }))
    case .manyToMany(let targetPosition, let table, let sourceColumn, let targetColumn, let count, let order):
      guard let target = schema.entity(at: targetPosition) else { break }
      let j = newAlias("j")
      let a = newAlias()
      let owner = primaryKey(row)
      let from = SQLFragment(
        "\(sql: table) \(j) JOIN \(sql: target.quotedTable) \(a) ON \(a).\(sql: target.primaryKeyColumn.quoted) = \(j).\(sql: targetColumn)"
      )
      let cond = and(
        [condition(SQLFragment("\(j).\(sql: sourceColumn) = \(owner)"))] + (rowFilter(target, a).map { [$0] } ?? []))
      let elementKey = SQLExpr(
        SQLFragment("\(a).\(sql: target.primaryKeyColumn.quoted)"), type: target.primaryKeyType, nullable: false)
      return .collection(
        SQLCollection(
          from: from, condition: cond, element: .row(RowRef(entity: target, key: elementKey, alias: a)),
          position: order.map { SQLFragment("\(j).\(sql: $0)") }, positionIsIndex: false,
          presence: count.map { column(row, $0, type: .integer) }))
    }
    if key == "self" { return .row(row) }
    throw SQLDiagnostic.unknownKey(key, entity: e.entity, range, source: source)
  }

  mutating func sideTable(_ row: RowRef, _ a: SQLAttribute, _ table: String, _ count: SQLColumnRef?) -> SQLCollection {
    let alias = newAlias()
    let owner = primaryKey(row)
    let cond = condition(SQLFragment("\(alias).\(sql: schema.quotedOwner) = \(owner)"))
    return SQLCollection(
      from: SQLFragment("\(sql: table) \(alias)"), condition: cond,
      element: .value(
        SQLExpr(SQLFragment("\(alias).\(sql: schema.quotedValue)"), type: SQLType(a.type), nullable: true)),
      position: SQLFragment("\(alias).\(sql: schema.quotedPosition)"),
      presence: count.map { column(row, $0, type: .integer) })
  }

  // MARK: - Key paths

  /// Applies key-path components to a base operand.
  mutating func resolve(
    _ base: Operand, _ components: ArraySlice<SiftKeyPath.Component>, _ range: SiftSourceRange
  ) throws(SiftError) -> Operand {
    var current = base
    var i = components.startIndex
    while i < components.endIndex {
      let component = components[i]
      i += 1
      switch (current, component) {
      case (.row(let r), .key(let k)):
        current = try member(r, k, range)
      case (.collection(let c), .key(let k)):
        current = try mapElements(c, k, range)
      case (.collection(let c), .operator(let op)):
        let rest = components[i...]
        i = components.endIndex
        current = try collectionOperator(op, c, rest, range)
      case (.constant(.dictionary(let d)), .key(let k)):
        current = .constant(d[k] ?? .null)
      case (.constant(.array(let a)), .operator(.count)):
        current = .constant(.int(Int64(a.count)))
      case (.value, .key("self")), (.constant, .key("self")):
        continue
      case (_, .key(let k)):
        throw fail(.keyOnNonObject(key: k, kind: current.kindName), range)
      case (_, .operator(let op)):
        throw fail(.operatorNeedsCollection(op.spelling, kind: current.kindName), range)
      }
    }
    return current
  }

  /// `collection.key`: the key applied to every element.
  mutating func mapElements(_ c: SQLCollection, _ key: String, _ range: SiftSourceRange) throws(SiftError) -> Operand {
    switch c.element {
    case .value:
      if key == "self" { return .collection(c) }
      throw fail(.keyOnNonObject(key: key, kind: "the elements of an array attribute"), range)
    case .row(let r):
      var out = c
      switch try member(r, key, range) {
      case .value(let v): out.element = .value(v)
      case .row(let target): out.element = .row(target)
      case .collection, .list, .constant:
        throw fail(.multipleToMany(key: key), range)
      }
      return .collection(out)
    }
  }

  /// `@count`, `@sum.x`, `@avg.x`, `@min.x`, `@max.x`, `@distinctUnionOfObjects.x`, …
  /// As in memory: a nil collection gives nil; `@sum` of nothing is 0; `@avg`, `@min`,
  /// `@max` skip nil values and give nil for nothing.
  mutating func collectionOperator(
    _ op: CollectionOperator, _ c: SQLCollection, _ rest: ArraySlice<SiftKeyPath.Component>, _ range: SiftSourceRange
  ) throws(SiftError) -> Operand {
    if op == .distinctUnionOfObjects || op == .unionOfObjects {
      // The rest of the path applies to each element; nil elements are dropped.
      var mapped = c
      for component in rest {
        guard case .key(let k) = component, case .collection(let m) = try mapElements(mapped, k, range) else {
          throw fail(.operatorAfterOperator(op.spelling), range)
        }
        mapped = m
      }
      // Nil elements are dropped, values and objects (a nil to-one) alike.
      switch mapped.element {
      case .value(let e): mapped.condition = and([mapped.condition, isNotNull(e)])
      case .row(let r): mapped.condition = and([mapped.condition, isNotNull(r.key)])
      }
      mapped.distinct = mapped.distinct || op == .distinctUnionOfObjects
      mapped.filtered = true
      return .collection(mapped)
    }
    var mapped = c
    if !rest.isEmpty {
      guard op != .count else {
        throw fail(.keyAfterCount, range)
      }
      guard case .collection(let m) = try resolve(.collection(c), rest, range) else {
        throw fail(.operatorNeedsElementKeyPath(op.spelling), range)
      }
      mapped = m
    }
    switch op {
    case .count:
      if !mapped.filtered, !mapped.distinct, let p = mapped.length ?? mapped.presence {
        return .value(p.typed(.integer, nullable: true))
      }
      let fw = fromWhere(mapped)
      if mapped.distinct {
        // Distinct values; distinct objects by primary key (memory: by content, the same
        // when every object carries its primary key).
        let e: SQLExpr
        switch mapped.element {
        case .value(let v): e = v
        case .row(let r): e = r.key
        }
        let sql = SQLFragment("(SELECT COUNT(DISTINCT \(e)) \(fw))")
        return .value(guardPresence(SQLExpr(sql, type: .integer, nullable: false), mapped))
      }
      return .value(
        guardPresence(SQLExpr(SQLFragment("(SELECT COUNT(*) \(fw))"), type: .integer, nullable: false), mapped))
    case .sum, .avg, .min, .max:
      guard case .value(var e) = mapped.element else {
        throw fail(.aggregateNeedsValues(op.spelling), range)
      }
      let fw = fromWhere(mapped)
      let inner: SQLFragment
      var type = e.type
      var nullable = true
      switch op {
      case .sum, .avg:
        guard e.type.isNumeric || e.type.family == 0 else {
          throw fail(.aggregateOfNonNumbers(op.spelling, elements: e.type), range)
        }
        e = numeric(e)
        if op == .sum {
          inner = SQLFragment("COALESCE(\(sql: dialect.sumFunction)(\(e)), 0)")
          type = e.type == .double ? .double : .integer
          nullable = false
        } else {
          inner = dialect.average(of: e.sql)
          type = .double
        }
      default:
        let name = op == .min ? "MIN(" : "MAX("
        inner = SQLFragment("\(sql: name)\(e)\(sql: collation(for: e)))")
      }
      let sql = SQLFragment("(SELECT \(inner) \(fw))")
      var result = SQLExpr(sql, type: type, nullable: nullable)
      if op == .min || op == .max { result.form = e.form }  // a date keeps its column's encoding
      return .value(guardPresence(result, mapped))
    default:
      throw fail(.notCompilable(op.spelling), range)
    }
  }

  /// `CASE WHEN presence IS NULL THEN NULL ELSE e END`: nil collections give nil.
  func guardPresence(_ e: SQLExpr, _ c: SQLCollection) -> SQLExpr {
    guard let p = c.presence else { return e }
    return SQLExpr(SQLFragment("CASE WHEN \(p) IS NULL THEN NULL ELSE \(e) END"), type: e.type, nullable: true)
  }

  /// `x IS DISTINCT FROM y` in the dialect's words (`NOT (x <=> y)` on MySQL).
  func nullSafeNotEqual(_ x: SQLFragment, _ y: SQLFragment) -> SQLExpr {
    if dialect.negatesNullSafeEqual {
      return condition(SQLFragment("NOT (\(x) \(sql: dialect.nullSafeEqualOperator) \(y))"))
    }
    return condition(SQLFragment("\(x) \(sql: dialect.nullSafeNotEqualOperator) \(y)"))
  }

  /// Text as read: under `SQLDialect.textColumnCollation` where the dialect has one. A column
  /// of a table Sift made (`isColumn`, layout `.sift`) has that collation already and stays bare:
  /// MariaDB uses no index for `(col COLLATE c) = ?`, even when `c` is the column's own.
  func collated(_ e: SQLExpr, isColumn: Bool = false) -> SQLExpr {
    guard e.type == .string, let c = dialect.textColumnCollation else { return e }
    if isColumn && schema.layout == .sift { return e }
    var out = e
    out.sql = SQLFragment("(\(e) COLLATE \(sql: c))")
    // A column only: a function's or CAST's result is not what an index holds.
    if isColumn { out.uncollated = (e.sql, out.sql.text) }
    return out
  }

  /// `x = y` for a text column read under its collation (`collated`) and one bound value:
  /// `x_column = y AND x = y`. The first test is in the column's own collation, so its index
  /// serves it; every collation MySQL/MariaDB ships finds strings equal when their bytes are,
  /// so it keeps every row the exact test keeps, and the exact test decides. Without it an
  /// equality on a text column reads every row (a measured full scan on a 1,000,000-row table,
  /// `sift-bench --suite existing`). Nil when `x` is not such a column as read.
  func indexedTextEquality(_ x: SQLExpr, _ y: SQLExpr) -> SQLExpr? {
    guard let u = x.uncollated, x.sql.text == u.collatedText, y.constant != nil, y.sql.bindingCount == 1 else {
      return nil
    }
    return condition(SQLFragment("(\(u.column) = \(y) AND \(x) = \(y))"))
  }

  /// ` COLLATE "C"` for text where the dialect needs it to order by code point.
  func collation(for e: SQLExpr) -> String {
    guard e.type == .string, let c = dialect.codePointCollation else { return "" }
    return " COLLATE " + q(c)
  }

  /// Booleans cast to integers where the dialect does not treat them as numbers.
  func numeric(_ e: SQLExpr) -> SQLExpr {
    guard e.type == .boolean, !dialect.booleansAreIntegers else { return e }
    var n = e
    n.sql = SQLFragment("CAST(\(e) AS \(sql: dialect.booleanIntegerTypeName))")
    n.type = .integer
    return n
  }
}
