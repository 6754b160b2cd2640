/// CREATE TABLE / CREATE INDEX statements for a schema, per dialect.
///
/// Each entity gets its columns, its to-one foreign keys, the inverse foreign keys of
/// to-many relationships pointing at it, and the hidden `__sift_index` column. Scalar arrays
/// get a side table `<table>__<column>(owner, position, value)`; many-to-many relationships
/// get their join table. Foreign-key columns and `indexed` attributes get an index.
///
/// ```swift
/// for sql in SQLDDL(schema: schema, dialect: SQLiteDialect()).createStatements() {
///   try db.executeScript(sql)
/// }
/// ```
package struct SQLDDL: Sendable {
  /// The schema.
  public let schema: SQLSchema
  /// The dialect.
  public let dialect: any SQLDialect

  /// Creates a DDL generator.
  public init(schema: SQLSchema, dialect: any SQLDialect) {
    self.schema = schema
    self.dialect = dialect
  }

  /// Inverse foreign-key columns other entities' to-many relationships put on `entity`.
  func inverseForeignKeys(of entity: SQLEntity) -> [(column: String, type: SQLAttributeType)] {
    var out: [(String, SQLAttributeType)] = []
    var seen = Set<String>()
    for name in schema.entityNames {
      guard let source = schema.entity(name) else { continue }
      for r in source.relationships where r.target == entity.name {
        if case .toMany(let fk) = r.kind, seen.insert(fk).inserted {
          out.append((fk, source.primaryKeyAttribute.type))
        }
      }
    }
    return out
  }

  /// Names whose element counts the owner table stores: array attributes' columns and
  /// to-many relationships' names (see `SQLSchema.countColumn`).
  static func countedCollections(of e: SQLEntity) -> [String] {
    e.attributes.filter(\.type.isArray).map(\.column) + e.relationships.filter(\.isToMany).map(\.name)
  }

  /// Every CREATE statement, tables first, in a stable order.
  ///
  /// ```swift
  /// SQLDDL(schema: schema, dialect: PostgreSQLDialect()).createStatements().first
  /// ```
  public func createStatements() -> [String] {
    let q = dialect.quoteIdentifier
    var tables: [String] = []
    var indexes: [String] = []
    var joins = Set<String>()
    func index(_ table: String, _ column: String) {
      indexes.append(
        "CREATE INDEX IF NOT EXISTS " + q(table + "__" + column + "__idx") + " ON " + q(table) + " (" + q(column) + ")")
    }
    for name in schema.entityNames {
      guard let e = schema.entity(name) else { continue }
      var columns: [String] = []
      var seen = Set<String>()
      for a in e.columnAttributes where seen.insert(a.column).inserted {
        let keyed = a.name == e.primaryKey || a.indexed
        var def = q(a.column) + " " + (keyed ? dialect.keyColumnType(a.type) : dialect.columnType(a.type))
        if a.name == e.primaryKey { def += " PRIMARY KEY" }
        columns.append(def)
        if a.indexed && a.name != e.primaryKey { index(e.table, a.column) }
      }
      for r in e.relationships {
        guard case .toOne(let fk) = r.kind, let target = schema.entity(r.target), seen.insert(fk).inserted else {
          continue
        }
        columns.append(q(fk) + " " + dialect.keyColumnType(target.primaryKeyAttribute.type))
        index(e.table, fk)
      }
      for (fk, type) in inverseForeignKeys(of: e) where seen.insert(fk).inserted {
        columns.append(q(fk) + " " + dialect.keyColumnType(type))
        index(e.table, fk)
      }
      for name in SQLDDL.countedCollections(of: e) where seen.insert(SQLSchema.countColumn(name)).inserted {
        columns.append(q(SQLSchema.countColumn(name)) + " " + dialect.columnType(.integer))
      }
      columns.append(q(SQLSchema.indexColumn) + " " + dialect.columnType(.integer))
      tables.append("CREATE TABLE IF NOT EXISTS " + q(e.table) + " (" + columns.joined(separator: ", ") + ")")
      let pkType = dialect.keyColumnType(e.primaryKeyAttribute.type)
      for a in e.attributes where a.type.isArray {
        tables.append(
          "CREATE TABLE IF NOT EXISTS " + q(e.sideTable(for: a)) + " (" + q(SQLSchema.ownerColumn) + " " + pkType
            + " NOT NULL, " + q(SQLSchema.positionColumn) + " " + dialect.columnType(.integer) + " NOT NULL, "
            + q(SQLSchema.valueColumn) + " " + (a.indexed ? dialect.keyColumnType(a.type) : dialect.columnType(a.type))
            + ", PRIMARY KEY (" + q(SQLSchema.ownerColumn)
            + ", " + q(SQLSchema.positionColumn) + "))")
        if a.indexed { index(e.sideTable(for: a), SQLSchema.valueColumn) }
      }
      for r in e.relationships {
        guard case .manyToMany(let table, let s, let d) = r.kind, let target = schema.entity(r.target),
          joins.insert(table).inserted
        else { continue }
        tables.append(
          "CREATE TABLE IF NOT EXISTS " + q(table) + " (" + q(s) + " " + pkType + " NOT NULL, " + q(d) + " "
            + dialect.keyColumnType(target.primaryKeyAttribute.type) + " NOT NULL)")
        index(table, s)
      }
    }
    return tables + indexes
  }

  /// DROP TABLE statements for everything `createStatements` creates.
  ///
  /// ```swift
  /// SQLDDL(schema: schema, dialect: SQLiteDialect()).dropStatements()
  /// ```
  public func dropStatements() -> [String] {
    let q = dialect.quoteIdentifier
    var out: [String] = []
    for name in schema.entityNames {
      guard let e = schema.entity(name) else { continue }
      out.append("DROP TABLE IF EXISTS " + q(e.table))
      for a in e.attributes where a.type.isArray { out.append("DROP TABLE IF EXISTS " + q(e.sideTable(for: a))) }
      for r in e.relationships {
        if case .manyToMany(let t, _, _) = r.kind { out.append("DROP TABLE IF EXISTS " + q(t)) }
      }
    }
    var seen = Set<String>()
    return out.filter { seen.insert($0).inserted }
  }
}
