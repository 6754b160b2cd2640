/// A shared, immutable reference to an entity, so compiled operands pass one pointer around
/// instead of copying the entity's strings and tables (compilation speed).
final class SQLEntityRef: Sendable {
  let entity: SQLEntity
  let name: String
  let table: String
  let primaryKey: String
  let primaryKeyAttribute: SQLAttribute
  /// Quoted identifiers of the table's columns, by column name.
  let quoted: [String: String]
  /// `t0."column"` for the root alias, by column name.
  let rootColumns: [String: String]
  /// Column attributes read through the root alias `t0`, ready to use, by key.
  let rootMembers: [String: SQLExpr]

  init(_ entity: SQLEntity, dialect: any SQLDialect) {
    var q: [String: String] = [:]
    for a in entity.attributes { q[a.column] = dialect.quoteIdentifier(a.column) }
    for r in entity.relationships {
      if case .toOne(let fk) = r.kind { q[fk] = dialect.quoteIdentifier(fk) }
      if r.isToMany { q[SQLSchema.countColumn(r.name)] = dialect.quoteIdentifier(SQLSchema.countColumn(r.name)) }
    }
    for a in entity.attributes where a.type.isArray {
      q[SQLSchema.countColumn(a.column)] = dialect.quoteIdentifier(SQLSchema.countColumn(a.column))
    }
    quoted = q
    let root = q.mapValues { "t0." + $0 }
    rootColumns = root
    var members: [String: SQLExpr] = [:]
    for a in entity.attributes where !a.type.isArray {
      if let sql = root[a.column] {
        members[a.name] = SQLExpr(sql, type: SQLType(a.type), nullable: a.name != entity.primaryKey)
      }
    }
    rootMembers = members
    self.entity = entity
    self.name = entity.name
    self.table = entity.table
    self.primaryKey = entity.primaryKey
    self.primaryKeyAttribute = entity.primaryKeyAttribute
  }

  func attribute(_ name: String) -> SQLAttribute? { entity.attribute(name) }
  func relationship(_ name: String) -> SQLRelationship? { entity.relationship(name) }
  func sideTable(for a: SQLAttribute) -> String { entity.sideTable(for: a) }
}

/// The schema's entities as shared references, built once per `SQLCompiler`.
final class SQLEntityRefs: Sendable {
  let dateEncoding: SQLDateEncoding
  let byName: [String: SQLEntityRef]

  init(_ schema: SQLSchema, dialect: any SQLDialect) {
    dateEncoding = schema.dateEncoding
    var map: [String: SQLEntityRef] = [:]
    for (name, e) in schema.entities { map[name] = SQLEntityRef(e, dialect: dialect) }
    byName = map
  }

  func entity(_ name: String) -> SQLEntityRef? { byName[name] }
}
