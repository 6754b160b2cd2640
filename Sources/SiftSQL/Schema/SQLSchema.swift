import Foundation
import SiftSyntax

/// The type of an entity attribute. Scalar arrays are stored in a side table
/// `<table>__<column>(owner, position, value)` on both databases.
///
/// ```swift
/// SQLAttributeType(rawValue: "stringArray")?.elementType   // .string
/// ```
public enum SQLAttributeType: String, Sendable, Hashable, CaseIterable {
  case string, integer, double, boolean, date, data, stringArray, integerArray, doubleArray

  /// True for the `…Array` types.
  public var isArray: Bool { self == .stringArray || self == .integerArray || self == .doubleArray }

  /// The element type of an array type; the type itself otherwise.
  public var elementType: SQLAttributeType {
    switch self {
    case .stringArray: return .string
    case .integerArray: return .integer
    case .doubleArray: return .double
    default: return self
    }
  }
}

/// How dates are stored and bound. The default is seconds since 1970-01-01 UTC as a double
/// (`REAL` / `double precision`); Core Data's seconds since 2001-01-01 is offered too.
///
/// ```swift
/// SQLDateEncoding.referenceDateSeconds.encode(Date(timeIntervalSinceReferenceDate: 5))   // 5.0
/// ```
public enum SQLDateEncoding: String, Sendable, Hashable {
  /// Seconds since 1970-01-01 00:00 UTC (the default).
  case unixSeconds = "secondsSince1970"
  /// Seconds since 2001-01-01 00:00 UTC (Core Data).
  case referenceDateSeconds = "secondsSince2001"

  /// The stored number for a date.
  public func encode(_ date: Date) -> Double {
    switch self {
    case .unixSeconds: return date.timeIntervalSince1970
    case .referenceDateSeconds: return date.timeIntervalSinceReferenceDate
    }
  }
}

/// A typed attribute of an entity, stored in one column (or a side table for arrays).
///
/// ```swift
/// let price = SQLAttribute(name: "price", type: .double, indexed: true)
/// ```
public struct SQLAttribute: Sendable, Hashable {
  /// The key used in predicates.
  public var name: String
  /// The column (or, for arrays, the side-table suffix); defaults to `name`.
  public var column: String
  /// The type.
  public var type: SQLAttributeType
  /// Whether the DDL creates an index on the column.
  public var indexed: Bool

  /// Creates an attribute.
  public init(name: String, column: String? = nil, type: SQLAttributeType, indexed: Bool = false) {
    self.name = name
    self.column = column ?? name
    self.type = type
    self.indexed = indexed
  }
}

/// A relationship from one entity to another.
///
/// ```swift
/// let location = SQLRelationship(name: "location", target: "Location", kind: .toOne(foreignKey: "location_id"))
/// ```
public struct SQLRelationship: Sendable, Hashable {
  /// How the relationship is stored.
  public enum Kind: Sendable, Hashable {
    /// A foreign-key column on the source table holding the target's primary key.
    case toOne(foreignKey: String)
    /// A column on the target table holding the source's primary key.
    case toMany(inverseForeignKey: String)
    /// A join table with one column per side.
    case manyToMany(joinTable: String, sourceColumn: String, targetColumn: String)
  }

  /// The key used in predicates.
  public var name: String
  /// The target entity's name.
  public var target: String
  /// Storage.
  public var kind: Kind

  /// Creates a relationship.
  public init(name: String, target: String, kind: Kind) {
    self.name = name
    self.target = target
    self.kind = kind
  }

  /// True for to-many and many-to-many.
  public var isToMany: Bool {
    if case .toOne = kind { return false }
    return true
  }
}

/// An entity: a table with a primary key, typed attributes and relationships.
///
/// ```swift
/// let venue = SQLEntity(name: "Venue", table: "venue", attributes: [
///   SQLAttribute(name: "name", type: .string), SQLAttribute(name: "tags", type: .stringArray)])
/// ```
public struct SQLEntity: Sendable, Hashable {
  /// The entity name used in fetch requests.
  public var name: String
  /// The table.
  public var table: String
  /// The primary-key attribute's name (an integer or string attribute).
  public var primaryKey: String
  /// Attributes, primary key first, then in the order given.
  public private(set) var attributes: [SQLAttribute]
  /// Relationships, in the order given.
  public private(set) var relationships: [SQLRelationship]
  private var attributeIndex: [String: Int] = [:]
  private var relationshipIndex: [String: Int] = [:]

  /// Creates an entity. A primary key missing from `attributes` is added as an integer.
  public init(
    name: String, table: String? = nil, primaryKey: String = "id",
    attributes: [SQLAttribute], relationships: [SQLRelationship] = []
  ) {
    self.name = name
    self.table = table ?? name.lowercased()
    self.primaryKey = primaryKey
    var attrs = attributes
    if let i = attrs.firstIndex(where: { $0.name == primaryKey }) {
      let pk = attrs.remove(at: i)
      attrs.insert(pk, at: 0)
    } else {
      attrs.insert(SQLAttribute(name: primaryKey, type: .integer), at: 0)
    }
    self.attributes = attrs
    self.relationships = relationships
    for (i, a) in attrs.enumerated() where attributeIndex[a.name] == nil { attributeIndex[a.name] = i }
    for (i, r) in relationships.enumerated() where relationshipIndex[r.name] == nil {
      relationshipIndex[r.name] = i
    }
  }

  /// The attribute named `name`, if any.
  public func attribute(_ name: String) -> SQLAttribute? {
    attributeIndex[name].map { attributes[$0] }
  }

  /// The relationship named `name`, if any.
  public func relationship(_ name: String) -> SQLRelationship? {
    relationshipIndex[name].map { relationships[$0] }
  }

  /// The primary-key attribute.
  public var primaryKeyAttribute: SQLAttribute { attributes[0] }

  /// Every key a predicate may use (attributes and relationships), for suggestions.
  public var keys: [String] { attributes.map(\.name) + relationships.map(\.name) }

  /// Attributes stored in the entity's own table (not arrays), primary key first.
  public var columnAttributes: [SQLAttribute] { attributes.filter { !$0.type.isArray } }

  /// The side table holding an array attribute's elements: `<table>__<column>`.
  public func sideTable(for attribute: SQLAttribute) -> String { table + "__" + attribute.column }
}

/// The entities a predicate's key paths resolve against, plus storage conventions.
///
/// ```swift
/// let schema = try SQLSchema(entities: [venue, location])
/// let schema2 = try SQLSchema(json: String(contentsOfFile: "venues.schema.json", encoding: .utf8))
/// ```
public struct SQLSchema: Sendable, Hashable {
  /// Entities by name.
  public private(set) var entities: [String: SQLEntity]
  /// Entity names in a stable order (sorted).
  public private(set) var entityNames: [String]
  /// How dates are stored.
  public var dateEncoding: SQLDateEncoding

  /// Hidden column holding a root record's position in the loaded JSON array.
  public static let indexColumn = "__sift_index"
  /// The owner-table column holding the element count of an array attribute or to-many
  /// relationship, NULL when the record's value is nil or missing, so nil and empty stay
  /// distinct as in memory (`nil.@count` is nil, `[].@count` is 0).
  public static func countColumn(_ name: String) -> String { "__sift_count_" + name }
  /// Side-table columns.
  public static let ownerColumn = "owner"
  /// See `ownerColumn`.
  public static let positionColumn = "position"
  /// See `ownerColumn`.
  public static let valueColumn = "value"

  /// Creates a schema and checks it: unique names, relationship targets exist, primary keys
  /// are integer or string, identifiers are non-empty without control characters, and no
  /// name starts with the reserved `__sift`.
  /// - Throws: `SiftError` (stage `.sql`, id `invalid-schema`).
  public init(entities: [SQLEntity], dateEncoding: SQLDateEncoding = .unixSeconds) throws(SiftError) {
    var map: [String: SQLEntity] = [:]
    for e in entities {
      if map[e.name] != nil { throw SQLSchema.invalid("entity '\(e.name)' is defined twice") }
      map[e.name] = e
    }
    self.entities = map
    self.entityNames = map.keys.sorted()
    self.dateEncoding = dateEncoding
    try validate()
  }

  /// The entity named `name`.
  public func entity(_ name: String) -> SQLEntity? { entities[name] }

  static func invalid(_ message: String) -> SiftError {
    SiftError(
      stage: .sql,
      diagnostic: Diagnostic(id: "invalid-schema", message: message, range: .at(0)),
      source: "")
  }

  private func validate() throws(SiftError) {
    func check(_ identifier: String, _ what: String) throws(SiftError) {
      if identifier.isEmpty { throw SQLSchema.invalid("\(what) has an empty name") }
      if identifier.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw SQLSchema.invalid("\(what) '\(identifier)' contains a control character")
      }
      if identifier.hasPrefix("__sift") { throw SQLSchema.invalid("\(what) '\(identifier)' uses the reserved prefix __sift") }
    }
    for name in entityNames {
      guard let e = entities[name] else { continue }
      try check(e.name, "entity")
      try check(e.table, "table of \(e.name)")
      let pk = e.primaryKeyAttribute
      if pk.type != .integer && pk.type != .string {
        throw SQLSchema.invalid("primary key \(e.name).\(pk.name) must be an integer or a string")
      }
      var seen = Set<String>()
      for a in e.attributes {
        try check(a.name, "attribute of \(e.name)")
        try check(a.column, "column of \(e.name).\(a.name)")
        if !seen.insert(a.name).inserted { throw SQLSchema.invalid("key '\(a.name)' is defined twice in \(e.name)") }
      }
      for r in e.relationships {
        try check(r.name, "relationship of \(e.name)")
        if !seen.insert(r.name).inserted { throw SQLSchema.invalid("key '\(r.name)' is defined twice in \(e.name)") }
        guard entities[r.target] != nil else {
          throw SQLSchema.invalid("relationship \(e.name).\(r.name) targets unknown entity '\(r.target)'")
        }
        switch r.kind {
        case .toOne(let fk): try check(fk, "foreign key of \(e.name).\(r.name)")
        case .toMany(let fk): try check(fk, "inverse foreign key of \(e.name).\(r.name)")
        case .manyToMany(let t, let s, let d):
          try check(t, "join table of \(e.name).\(r.name)")
          try check(s, "join column of \(e.name).\(r.name)")
          try check(d, "join column of \(e.name).\(r.name)")
        }
      }
    }
    try checkColumnsAreDistinct()
  }

  /// One meaning per column: an attribute, a to-one's foreign key and a to-many's inverse
  /// foreign key (on the target's table) may not share a column, or loading would write one
  /// over the other and SQL would read what memory does not (two to-many relationships to one
  /// entity both default to `<table>_id`). A to-one and the to-many that is its inverse may.
  private func checkColumnsAreDistinct() throws(SiftError) {
    struct Use {
      var what: String
      /// For keys: (entity holding the foreign key, entity it points to), and whether it is a
      /// to-one's key (else a to-many's inverse key).
      var link: (from: String, to: String, toOne: Bool)?
    }
    var uses: [String: [String: Use]] = [:]  // table → column → use
    func claim(_ table: String, _ column: String, _ use: Use) throws(SiftError) {
      if let other = uses[table]?[column] {
        if let a = other.link, let b = use.link, a.from == b.from, a.to == b.to, a.toOne != b.toOne {
          return  // a to-one and its inverse to-many
        }
        throw SQLSchema.invalid(
          "column '\(column)' of table '\(table)' holds both \(other.what) and \(use.what); give one its own column"
            + " (\"column\", \"foreignKey\" or \"inverseForeignKey\")")
      }
      uses[table, default: [:]][column] = use
    }
    for name in entityNames {
      guard let e = entities[name] else { continue }
      for a in e.attributes where !a.type.isArray {
        try claim(e.table, a.column, Use(what: "the attribute \(e.name).\(a.name)"))
      }
    }
    for name in entityNames {
      guard let e = entities[name] else { continue }
      for r in e.relationships {
        guard let target = entities[r.target] else { continue }
        switch r.kind {
        case .toOne(let fk):
          try claim(e.table, fk, Use(what: "the foreign key of \(e.name).\(r.name)", link: (e.name, target.name, true)))
        case .toMany(let fk):
          try claim(target.table, fk, Use(what: "the inverse foreign key of \(e.name).\(r.name)", link: (target.name, e.name, false)))
        case .manyToMany: break
        }
      }
    }
  }
}
