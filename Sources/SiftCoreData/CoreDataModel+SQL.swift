import SiftSQL
import SiftSyntax

/// How a Core Data model maps onto a store Core Data wrote: a plain `SQLSchema` (layout
/// `.existing`) over the store's own tables, queried on a read-only connection with no setup.
///
/// Core Data keeps a whole inheritance hierarchy in its root's table and tells rows apart by
/// `Z_ENT`: each sub-entity's `SQLEntity` names its root's table with a row filter
/// (`SQLRowFilter`, `Z_ENT IN (the entity and its descendants)`). A Core Data to-many is never
/// nil, which is what layout `.existing` compiles (`@count` a `COUNT` subquery). Dates are
/// seconds since 2001 per column (`SQLAttribute.dateEncoding`).
///
/// ```swift
/// let mapping = try model.sqlMapping(entityNumbers: numbersFromZPrimaryKey)
/// let db = try SQLiteDatabase(untouched: "Library.sqlite")
/// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: mapping.schema)
/// ```
public struct CoreDataSQLMapping: Sendable {
  /// One entity per model entity (abstract ones too); attributes and relationships keyed by
  /// their model names; primary key `Z_PK`; dates as seconds since 2001.
  public var schema: SQLSchema
  /// `Z_ENT` of each entity.
  public var entityNumbers: [String: Int]
  /// Per entity: the store's table (its root's `Z<ROOT>`).
  public var storeTables: [String: String]
  /// Per entity: the `Z_ENT` values its rows may have (itself and its descendants).
  public var entityFilters: [String: [Int]]
  /// Per entity: property name → column in `storeTables[entity]` (attributes and to-one keys).
  public var columns: [String: [String: String]]
  /// What the schema leaves out and why (to-many relationships without an inverse, …).
  public var unmapped: [String]
}

extension CoreDataModel {
  /// The store table of an entity: `Z` + its root entity's name upper-cased.
  ///
  /// ```swift
  /// model.storeTable(of: "Novel")   // "ZITEM"
  /// ```
  public func storeTable(of entity: String) -> String? {
    rootEntity(of: entity).map { "Z" + $0.name.uppercased() }
  }

  /// Columns of every stored attribute and to-one relationship, per entity (inherited
  /// properties included, with the column their declaring entity got). Core Data names a
  /// column `Z` + the property name upper-cased and numbers later duplicates within one root
  /// table (`ZTITLE`, `ZTITLE1`, …); the order it numbers them in is not documented, so here
  /// it is entity-number order, then property name — check against the store when it matters.
  ///
  /// ```swift
  /// model.columnNames()["Novel"]?["title"]   // "ZTITLE"
  /// ```
  public func columnNames(entityNumbers: [String: Int]? = nil) -> [String: [String: String]] {
    let numbers = entityNumbers ?? self.entityNumbers()
    var own: [String: [String: String]] = [:]  // declaring entity → property → column
    for root in rootEntityNames {
      var used = Set<String>()
      let members = hierarchy(of: root).sorted { (numbers[$0] ?? 0, $0) < (numbers[$1] ?? 0, $1) }
      for name in members {
        guard let e = entity(name) else { continue }
        var props = e.attributes.filter(\.isStored).map(\.name)
        props += e.relationships.filter { !$0.isToMany && !$0.isTransient }.map(\.name)
        for p in props.sorted() {
          let base = "Z" + p.uppercased()
          var column = base
          var n = 0
          while used.contains(column) {
            n += 1
            column = base + String(n)
          }
          used.insert(column)
          own[name, default: [:]][p] = column
        }
      }
    }
    var out: [String: [String: String]] = [:]
    for e in entities {
      var map: [String: String] = [:]
      for ancestor in lineage(of: e.name) {
        for (p, c) in own[ancestor.name] ?? [:] where map[p] == nil { map[p] = c }
      }
      out[e.name] = map
    }
    return out
  }

  /// The `SQLSchema` of `sqlMapping(entityNumbers:)`.
  ///
  /// ```swift
  /// let schema = try model.sqlSchema()
  /// ```
  public func sqlSchema(entityNumbers: [String: Int]? = nil) throws(SiftError) -> SQLSchema {
    try sqlMapping(entityNumbers: entityNumbers).schema
  }

  /// Maps the model onto Core Data's store layout (Grammar/notes/coredata-mapping.md, section 5).
  /// `entityNumbers` should come from the store's `Z_PRIMARYKEY` (`Z_NAME` → `Z_ENT`); without
  /// it, `entityNumbers()` is used.
  ///
  /// ```swift
  /// let m = try model.sqlMapping(entityNumbers: ["Author": 1, "Item": 2, "Book": 3])
  /// m.entityFilters["Book"]   // [3, 4, 5]
  /// ```
  /// - Throws: `SiftError`: stage `.model` when an entity has no number, `.sql` when the
  ///   resulting schema is invalid.
  public func sqlMapping(entityNumbers given: [String: Int]? = nil) throws(SiftError) -> CoreDataSQLMapping {
    do { return try mapping(entityNumbers: given) } catch { throw SiftError.model(error) }
  }

  /// `leavingOut`: attributes (`"Root.name"`, by their root entity) the store has no column
  /// for — a derived attribute of a store written before Core Data kept its column.
  func mapping(entityNumbers given: [String: Int]?, leavingOut: Set<String> = []) throws -> CoreDataSQLMapping {
    let numbers = given ?? entityNumbers()
    for e in entities where numbers[e.name] == nil {
      throw CoreDataModelError(
        file: file, line: e.line, element: "entity", message: "entity '\(e.name)' has no entity number (Z_ENT)")
    }
    let columns = columnNames(entityNumbers: numbers)
    var unmapped: [String] = []
    var sqlEntities: [SQLEntity] = []
    var storeTables: [String: String] = [:]
    var filters: [String: [Int]] = [:]

    /// The entity declaring `relationship` among `entity` and its ancestors.
    func declaringEntity(of relationship: CoreDataRelationship, from entity: String) -> String {
      lineage(of: entity).first { $0.relationships.contains(relationship) }?.name ?? entity
    }

    for e in entities {
      guard let table = storeTable(of: e.name) else { continue }
      storeTables[e.name] = table
      let filter = hierarchy(of: e.name).compactMap { numbers[$0] }.sorted()
      filters[e.name] = filter
      let cols = columns[e.name] ?? [:]
      var attributes: [SQLAttribute] = []
      let root = rootEntity(of: e.name)?.name ?? e.name
      for a in allAttributes(of: e.name) where a.isStored && !leavingOut.contains("\(root).\(a.name)") {
        guard let column = cols[a.name] else { continue }
        let type = Self.sqlType(a.type)
        attributes.append(
          SQLAttribute(
            name: a.name, column: column, type: type, indexed: false,
            dateEncoding: type == .date ? .referenceDateSeconds : nil))
      }
      var relationships: [SQLRelationship] = []
      for r in allRelationships(of: e.name) where !r.isTransient {
        switch cardinality(of: r) {
        case .toOne, .oneToOne, .manyToOne:
          guard let fk = cols[r.name] else {
            unmapped.append("\(e.name).\(r.name): a to-one relationship with no foreign-key column; left out")
            continue
          }
          relationships.append(SQLRelationship(name: r.name, target: r.destination, kind: .toOne(foreignKey: fk)))
        case .oneToMany:
          let invOwner = r.inverseEntity ?? r.destination
          guard let inv = inverse(of: r), let fk = columns[invOwner]?[inv.name] else {
            unmapped.append(
              "\(e.name).\(r.name): a to-many relationship whose inverse has no foreign-key column; left out")
            continue
          }
          // Inherited by sub-entities too: entities sharing a table through row filters may
          // claim the one foreign-key column (SQLSchema's column check).
          // An ordered one keeps its order key beside the inverse's column: ZVENUE, Z_FOK_VENUE.
          relationships.append(
            SQLRelationship(
              name: r.name, target: r.destination, kind: .toMany(inverseForeignKey: fk),
              orderColumn: r.isOrdered ? "Z_FOK_" + fk.dropFirst() : nil))
        case .manyToMany:
          guard let inv = inverse(of: r) else {
            unmapped.append("\(e.name).\(r.name): a many-to-many relationship without its inverse; left out")
            continue
          }
          let rOwner = declaringEntity(of: r, from: e.name)
          let iOwner = declaringEntity(of: inv, from: r.inverseEntity ?? r.destination)
          guard let nr = numbers[rOwner], let ni = numbers[iOwner], let nDest = numbers[r.destination],
            let nSource = numbers[inv.destination]
          else {
            unmapped.append("\(e.name).\(r.name): a many-to-many relationship whose entities have no number; left out")
            continue
          }
          // Named after one side: the lower entity number, and between two relationships of one
          // entity the later name (observed in real stores; notes, section 1).
          let rNamesTable = nr != ni ? nr < ni : r.name.uppercased() >= inv.name.uppercased()
          let joinTable = rNamesTable ? "Z_\(nr)\(r.name.uppercased())" : "Z_\(ni)\(inv.name.uppercased())"
          let target = "Z_\(nDest)\(r.name.uppercased())"
          var source = "Z_\(nSource)\(inv.name.uppercased())"
          if source == target {
            source += "1"  // a relationship that is its own inverse: a guess (notes, section 4)
            unmapped.append("\(e.name).\(r.name): is its own inverse; join columns \(target)/\(source) are a guess")
          }
          // An ordered one's order key names its target column: Z_3SONGS, Z_FOK_3SONGS.
          relationships.append(
            SQLRelationship(
              name: r.name, target: r.destination,
              kind: .manyToMany(joinTable: joinTable, sourceColumn: source, targetColumn: target),
              orderColumn: r.isOrdered ? "Z_FOK_" + target.dropFirst(2) : nil))
        case .toManyWithoutInverse:
          unmapped.append(
            "\(e.name).\(r.name): a to-many relationship without an inverse; left out (Core Data's storage for it is not "
              + "described publicly: give it an inverse in the model, or describe it in a schema file)")
        }
      }
      // A root's table holds only its hierarchy: no filter. A sub-entity sees its own rows.
      let isRoot = rootEntity(of: e.name)?.name == e.name
      var sqlEntity = SQLEntity(
        name: e.name, table: table, primaryKey: "Z_PK", attributes: attributes, relationships: relationships,
        indexes: uniquenessIndexes(of: e.name, columns: cols),
        rowFilter: isRoot ? nil : SQLRowFilter(column: "Z_ENT", values: filter.map { Int64($0) }))
      // `includesSubentities = false`: the entity's own rows, when it has sub-entities.
      if filter.count > 1, let own = numbers[e.name] {
        sqlEntity.ownRows = SQLRowFilter(column: "Z_ENT", values: [Int64(own)])
      }
      sqlEntities.append(sqlEntity)
    }
    let schema = try SQLSchema(entities: sqlEntities, dateEncoding: .referenceDateSeconds, layout: .existing)
    return CoreDataSQLMapping(
      schema: schema, entityNumbers: numbers, storeTables: storeTables, entityFilters: filters, columns: columns,
      unmapped: unmapped)
  }

  /// The uniqueness constraints of `entity` and its ancestors as the unique indexes Core Data
  /// creates for them, `Z_<Entity>_UNIQUE_<property>_<property>` (as in stores Core Data
  /// wrote; Grammar/notes/coredata-mapping.md, section 8), on the properties' columns; a
  /// constraint naming a property without a column (a to-many) is left out.
  ///
  /// ```swift
  /// model.uniquenessIndexes(of: "Tag", columns: model.columnNames()["Tag"] ?? [:]).map(\.name)
  /// // ["Z_Tag_UNIQUE_name"]
  /// ```
  public func uniquenessIndexes(of entity: String, columns: [String: String]) -> [SQLIndex] {
    var out: [SQLIndex] = []
    for e in lineage(of: entity).reversed() {
      for constraint in e.uniquenessConstraints {
        let cols = constraint.compactMap { columns[$0] }
        guard cols.count == constraint.count else { continue }
        out.append(
          SQLIndex(name: "Z_\(e.name)_UNIQUE_" + constraint.joined(separator: "_"), columns: cols, isUnique: true))
      }
    }
    return out
  }

  /// The `SQLAttributeType` an attribute type is read as.
  ///
  /// ```swift
  /// CoreDataModel.sqlType(.integer16)   // .integer
  /// ```
  public static func sqlType(_ type: CoreDataAttributeType) -> SQLAttributeType {
    switch type {
    case .integer16, .integer32, .integer64: return .integer
    case .decimal, .double, .float: return .double
    case .string, .uri: return .string
    case .boolean: return .boolean
    case .date: return .date
    case .binary, .transformable, .uuid, .undefined, .objectID: return .data
    }
  }
}
