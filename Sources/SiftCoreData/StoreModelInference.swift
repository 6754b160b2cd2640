/// A `CoreDataModel` read back from a store without its model file (Grammar/notes/coredata-mapping.md,
/// section 6):
///
/// - entities, their numbers and parents from `Z_PRIMARYKEY` (`Z_SUPER`);
/// - attributes on each root entity from its table's columns (inherited by its sub-entities,
///   which share the table): the key is the column name without the leading `Z`, lower-cased
///   (`ZCREATEDAT` → `createdat`); the type from the declared column type;
/// - a to-one relationship for an integer column named after an entity (`ZPUBLISHER` →
///   `Publisher`, exactly; or ending with an entity's name, `ZPARENTFOLDER` → `Folder`, when
///   the column has Core Data's foreign-key index `<TABLE>_<COLUMN>_INDEX`);
/// - many-to-many relationships from the join tables `Z_<n><NAME>`: a column `Z_<m><REL>`
///   holds the keys of relationship `rel`'s destination, entity `m`.
///
/// Left out, with a warning: bookkeeping columns (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z_FOK_…`), columns
/// of an undeclared or unknown type, and to-many relationships whose inverse is a foreign key
/// (their name is not in the store).
struct StoreModelInference {
  var catalog: StoreCatalog
  /// What was left out or assumed (filled by `model()`).
  var warnings: [String] = []

  /// The declared column type as a Core Data attribute type; nil when Core Data never writes it.
  static func attributeType(declared: String) -> CoreDataAttributeType? {
    let t = declared.uppercased()
    if t.contains("INT") { return .integer64 }
    if t.contains("TIMESTAMP") || t.contains("DATE") { return .date }
    if t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") { return .string }
    if t.contains("BLOB") { return .binary }
    if t.contains("DECIMAL") || t.contains("NUMERIC") { return .decimal }
    if t.contains("FLOAT") || t.contains("REAL") || t.contains("DOUB") { return .double }
    return nil
  }

  /// A key from a column: `ZCREATEDAT` → `createdat`; nil for bookkeeping and companion
  /// columns (`Z_PK`, `Z_FOK_…`, `Z3AUTHOR`).
  static func key(column: String) -> String? {
    let upper = column.uppercased()
    guard upper.hasPrefix("Z"), upper.count > 1, !upper.hasPrefix("Z_") else { return nil }
    let rest = column.dropFirst()
    guard let first = rest.first, first.isLetter,
      rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    else { return nil }
    return rest.lowercased()
  }

  mutating func model() throws -> CoreDataModel {
    let byNumber = Dictionary(catalog.entities.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
    let upperNames = Dictionary(
      catalog.entities.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
    var entities: [String: CoreDataEntity] = [:]
    var order: [String] = []
    for r in catalog.entities {
      let parent = r.parent == 0 ? nil : byNumber[r.parent]?.name
      if r.parent != 0 && parent == nil {
        warnings.append("entity \(r.name): Z_SUPER \(r.parent) is no entity of the store; treated as a root")
      }
      entities[r.name] = CoreDataEntity(name: r.name, parentName: parent)
      order.append(r.name)
    }
    // Attributes and to-ones on each root, from its table.
    for r in catalog.entities where entities[r.name]?.parentName == nil {
      let tableName = "Z" + r.name.uppercased()
      guard let columns = catalog.table(forRoot: r.name) else {
        warnings.append("entity \(r.name): the store has no table \(tableName); left out")
        entities[r.name] = nil
        continue
      }
      let indexes = catalog.indexes[tableName] ?? []
      var attributes: [CoreDataAttribute] = []
      var relationships: [CoreDataRelationship] = []
      for c in columns {
        guard let key = Self.key(column: c.name) else { continue }
        guard let type = Self.attributeType(declared: c.type) else {
          warnings.append("\(tableName).\(c.name): declared type '\(c.type)' is not one Core Data writes; left out")
          continue
        }
        if type == .integer64,
          let target = foreignKeyTarget(c.name, table: tableName, indexes: indexes, names: upperNames)
        {
          relationships.append(CoreDataRelationship(name: key, destination: target, maxCount: 1))
        } else {
          if type == .integer64 && indexes.contains("\(tableName)_\(c.name.uppercased())_INDEX") {
            warnings.append(
              "\(tableName).\(c.name) has Core Data's foreign-key index but no entity is named after it: "
                + "read as the integer '\(key)' (pass the model to follow it as a relationship)")
          }
          attributes.append(CoreDataAttribute(name: key, type: type))
        }
      }
      entities[r.name]?.attributes = attributes
      entities[r.name]?.relationships = relationships
    }
    // Many-to-many relationships from the join tables.
    for j in catalog.joinTables {
      guard let a = byNumber[j.sides[0].entity]?.name, let b = byNumber[j.sides[1].entity]?.name,
        entities[a] != nil, entities[b] != nil
      else {
        warnings.append("\(j.name): a join table whose columns name no entity of the store; left out")
        continue
      }
      let x = j.sides[0].name.lowercased(), y = j.sides[1].name.lowercased()
      // Column Z_<a><X> holds the keys of x's destination (a); x is declared on b.
      let ordered = { (column: String) in j.orderColumns.contains("Z_FOK_" + column.uppercased().dropFirst(2)) }
      add(
        CoreDataRelationship(
          name: x, destination: a, inverseName: y, inverseEntity: a, isToMany: true,
          isOrdered: ordered(j.sides[0].column)), to: b, from: j.name, into: &entities)
      add(
        CoreDataRelationship(
          name: y, destination: b, inverseName: x, inverseEntity: b, isToMany: true,
          isOrdered: ordered(j.sides[1].column)), to: a, from: j.name, into: &entities)
    }
    let list = order.compactMap { entities[$0] }
    warnings.append(
      "no model given: keys are the store's column names without Z, lower-cased; "
        + "to-many relationships whose inverse is a foreign key are not listed (pass the model to get them)")
    do {
      return try CoreDataModel(entities: list, file: catalog.label)
    } catch {
      throw CoreDataStoreError("\(catalog.label): cannot infer a model from the store: \(error.message)")
    }
  }

  /// The entity an integer column points at, or nil when it is a plain integer.
  private func foreignKeyTarget(_ column: String, table: String, indexes: Set<String>, names: [String: String])
    -> String?
  {
    var stem = String(column.uppercased().dropFirst())
    while let last = stem.last, last.isNumber { stem.removeLast() }
    if let exact = names[stem] { return exact }
    guard indexes.contains("\(table)_\(column.uppercased())_INDEX") else { return nil }
    let candidates = names.keys.filter { stem.hasSuffix($0) }.sorted { $0.count > $1.count }
    return candidates.first.flatMap { names[$0] }
  }

  private mutating func add(
    _ r: CoreDataRelationship, to entity: String, from table: String, into entities: inout [String: CoreDataEntity]
  ) {
    let taken = inheritedKeys(of: entity, in: entities)
    guard !taken.contains(r.name) else {
      warnings.append("\(table): \(entity).\(r.name) collides with a column's key; left out")
      return
    }
    entities[entity]?.relationships.append(r)
  }

  private func inheritedKeys(of name: String, in entities: [String: CoreDataEntity]) -> Set<String> {
    var out = Set<String>()
    var next = entities[name]
    var seen = Set<String>()
    while let e = next, seen.insert(e.name).inserted {
      out.formUnion(e.attributes.map(\.name) + e.relationships.map(\.name))
      next = e.parentName.flatMap { entities[$0] }
    }
    return out
  }
}
