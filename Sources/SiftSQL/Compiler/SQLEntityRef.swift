/// A shared, immutable reference to an entity, so compiled operands pass one pointer around
/// instead of copying the entity's strings and tables (compilation speed).
final class SQLEntityRef: Sendable {
  let entity: SQLEntity
  let name: String
  let table: String
  let primaryKey: String
  let primaryKeyAttribute: SQLAttribute

  init(_ entity: SQLEntity) {
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

  init(_ schema: SQLSchema) {
    dateEncoding = schema.dateEncoding
    var map: [String: SQLEntityRef] = [:]
    for (name, e) in schema.entities { map[name] = SQLEntityRef(e) }
    byName = map
  }

  func entity(_ name: String) -> SQLEntityRef? { byName[name] }
}
