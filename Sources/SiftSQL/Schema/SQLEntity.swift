import Foundation
import SiftSyntax

/// An index of a table, as read from the database (`SQLEntity.indexes`).
///
/// ```swift
/// SQLIndex(name: "note_title_idx", columns: ["title"], isUnique: false)
/// ```
public struct SQLIndex: Sendable, Hashable {
  /// The index's name.
  public var name: String
  /// The indexed columns in order; nil entries (expressions) are left out, so an expression
  /// index has `hasExpressions` set and only its plain columns here.
  public var columns: [String]
  /// Whether the index enforces uniqueness.
  public var isUnique: Bool
  /// Whether some key of the index is an expression rather than a column.
  public var hasExpressions: Bool
  /// Whether the index is partial (`WHERE …`).
  public var isPartial: Bool
  /// The collating sequence of each of `columns`, in the same order, as SQLite reports it
  /// (`pragma_index_xinfo`: `"BINARY"`, `"NOCASE"`, `"RTRIM"` or a custom name); empty when
  /// not known (PostgreSQL, a schema file that gives none). A non-partial SQLite index led by a
  /// `NOCASE` column lets `BEGINSWITH[c]` of some constants use it (see ExistingDatabases).
  public var collations: [String]

  /// Creates an index description.
  public init(
    name: String, columns: [String], isUnique: Bool = false, hasExpressions: Bool = false, isPartial: Bool = false,
    collations: [String] = []
  ) {
    self.name = name
    self.columns = columns
    self.isUnique = isUnique
    self.hasExpressions = hasExpressions
    self.isPartial = isPartial
    self.collations = collations
  }

  /// True when this index orders by `column` under SQLite's `NOCASE` first and covers every
  /// row (not partial, no expression key that could come first).
  func leadsCaseless(_ column: String) -> Bool {
    !isPartial && !hasExpressions && columns.first == column
      && collations.first?.uppercased() == "NOCASE"
  }
}

/// Which rows of a shared table belong to an entity: those whose `column` holds one of
/// `values` (Core Data's `Z_ENT IN (3, 4, 5)`: an entity and its sub-entities, stored in their
/// root entity's table). The compiler adds `t0."column" IN (?, …)` to every WHERE on the
/// entity and to every to-many subquery into it; values are bound.
///
/// ```swift
/// SQLRowFilter(column: "Z_ENT", values: [3, 4, 5])
/// ```
public struct SQLRowFilter: Sendable, Hashable {
  /// The column telling the entities of a shared table apart.
  public var column: String
  /// The values of `column` that are rows of this entity (never empty).
  public var values: [Int64]

  /// Creates a row filter.
  public init(column: String, values: [Int64]) {
    self.column = column
    self.values = values
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
  /// For an ordered to-many (Core Data's `ordered="YES"`): the integer column whose ascending
  /// values give the order — on the target table beside the inverse foreign key
  /// (`.toMany`), or on the join table (`.manyToMany`); Core Data's `Z_FOK_…`. Its values may
  /// be sparse: only their order counts. Nil for an unordered relationship.
  public var orderColumn: String?

  /// Creates a relationship.
  public init(name: String, target: String, kind: Kind, orderColumn: String? = nil) {
    self.name = name
    self.target = target
    self.kind = kind
    self.orderColumn = orderColumn
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
  /// The primary-key attribute's name (an integer or string attribute). For an entity
  /// without a single-column key (see `primaryKeyColumns`) the first column, which then
  /// identifies nothing.
  public var primaryKey: String
  /// The primary key's columns: the key attribute's column for every entity Sift creates; several for a
  /// composite key, none for a view or a table without a key. Only an entity with exactly one
  /// (`hasSingleColumnKey`) can be the target of a relationship, the source of a to-many or
  /// many-to-many, or answer with row keys.
  public var primaryKeyColumns: [String]
  /// True for a view (an introspected entity that cannot be written).
  public var isView: Bool
  /// The table's indexes, as read from the database (empty for a schema Sift created: its
  /// indexes follow from `SQLAttribute.indexed`).
  public var indexes: [SQLIndex]
  /// Which rows of `table` are this entity's, when the table is shared with other entities
  /// (layout `.existing` only); nil: every row.
  public var rowFilter: SQLRowFilter?
  /// The rows of this entity alone, none of its sub-entities' (`includesSubentities = false`),
  /// when its table also holds sub-entities' rows (Core Data's own `Z_ENT`); nil: every row
  /// `rowFilter` selects is the entity's own.
  public var ownRows: SQLRowFilter? = nil
  /// Attributes, primary key first, then in the order given.
  public private(set) var attributes: [SQLAttribute]
  /// Relationships, in the order given.
  public private(set) var relationships: [SQLRelationship]
  private var attributeIndex: [String: Int] = [:]
  private var relationshipIndex: [String: Int] = [:]

  /// Creates an entity. A primary key missing from `attributes` is added as an integer.
  /// `primaryKeyColumns` defaults to the primary-key attribute's column (`SQLAttribute.column`,
  /// which may differ from `primaryKey`); pass several for a composite key or none
  /// for a view or keyless table (then `primaryKey` should name an existing attribute).
  public init(
    name: String, table: String? = nil, primaryKey: String = "id",
    attributes: [SQLAttribute], relationships: [SQLRelationship] = [],
    primaryKeyColumns: [String]? = nil, isView: Bool = false, indexes: [SQLIndex] = [],
    rowFilter: SQLRowFilter? = nil
  ) {
    self.rowFilter = rowFilter
    self.name = name
    self.table = table ?? name.lowercased()
    self.primaryKey = primaryKey
    self.isView = isView
    self.indexes = indexes
    var attrs = attributes
    if let i = attrs.firstIndex(where: { $0.name == primaryKey }) {
      let pk = attrs.remove(at: i)
      attrs.insert(pk, at: 0)
    } else {
      attrs.insert(SQLAttribute(name: primaryKey, type: .integer), at: 0)
    }
    self.attributes = attrs
    // The key's column, which may differ from its name (`categoryID` stored in `id`).
    self.primaryKeyColumns = primaryKeyColumns ?? [attrs[0].column]
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

  /// True when one column identifies a row: `primaryKeyColumns` is the primary-key attribute's
  /// column alone (whatever the attribute is named).
  public var hasSingleColumnKey: Bool {
    primaryKeyColumns.count == 1 && primaryKeyColumns[0] == primaryKeyAttribute.column
  }

  /// A copy with `relationships` in place of the current ones.
  package func replacingRelationships(_ relationships: [SQLRelationship]) -> SQLEntity {
    var copy = SQLEntity(
      name: name, table: table, primaryKey: primaryKey, attributes: attributes, relationships: relationships,
      primaryKeyColumns: primaryKeyColumns, isView: isView, indexes: indexes, rowFilter: rowFilter)
    copy.ownRows = ownRows
    return copy
  }

  /// Every key a predicate may use (attributes and relationships), for suggestions.
  public var keys: [String] { attributes.map(\.name) + relationships.map(\.name) }

  /// Attributes stored in the entity's own table (not arrays), primary key first.
  public var columnAttributes: [SQLAttribute] { attributes.filter { !$0.type.isArray } }

  /// The side table holding an array attribute's elements: `<table>__<column>`.
  public func sideTable(for attribute: SQLAttribute) -> String { table + "__" + attribute.column }
}
