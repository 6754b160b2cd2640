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
  /// Quoted side tables of array attributes, by attribute name.
  let quotedSideTables: [String: String]
  /// Count columns of array attributes and to-many relationships, by key.
  let countColumns: [String: String]
  /// Column attributes read through the root alias `t0`, ready to use, by key.
  let rootMembers: [String: RootMember]

  /// A column attribute of the root row: its text (`t0."name"`) and what is known of it.
  struct RootMember: Sendable {
    let sql: String
    let type: SQLType
    let nullable: Bool
  }

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
    var sides: [String: String] = [:]
    var counts: [String: String] = [:]
    for a in entity.attributes where a.type.isArray {
      sides[a.name] = dialect.quoteIdentifier(entity.sideTable(for: a))
      counts[a.name] = SQLSchema.countColumn(a.column)
    }
    for r in entity.relationships where r.isToMany { counts[r.name] = SQLSchema.countColumn(r.name) }
    quotedSideTables = sides
    countColumns = counts
    let root = q.mapValues { "t0." + $0 }
    rootColumns = root
    var members: [String: RootMember] = [:]
    for a in entity.attributes where !a.type.isArray {
      if let sql = root[a.column] {
        members[a.name] = RootMember(sql: sql, type: SQLType(a.type), nullable: a.name != entity.primaryKey)
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

  /// Quoted side-table column names.
  let quotedOwner: String
  let quotedValue: String
  let quotedPosition: String

  init(_ schema: SQLSchema, dialect: any SQLDialect) {
    dateEncoding = schema.dateEncoding
    quotedOwner = dialect.quoteIdentifier(SQLSchema.ownerColumn)
    quotedValue = dialect.quoteIdentifier(SQLSchema.valueColumn)
    quotedPosition = dialect.quoteIdentifier(SQLSchema.positionColumn)
    var map: [String: SQLEntityRef] = [:]
    for (name, e) in schema.entities { map[name] = SQLEntityRef(e, dialect: dialect) }
    byName = map
  }

  func entity(_ name: String) -> SQLEntityRef? { byName[name] }
}
