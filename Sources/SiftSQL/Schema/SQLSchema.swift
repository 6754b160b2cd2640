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
/// A schema's own `dateEncoding` (every date attribute of a database Sift created) is one of
/// the two seconds encodings. The others describe a single column of a database Sift did not
/// create (`SQLAttribute.dateEncoding`, read by introspection or set in a schema file):
/// integer milliseconds, three text shapes, and PostgreSQL's native date types.
///
/// ```swift
/// SQLDateEncoding.referenceDateSeconds.encode(Date(timeIntervalSinceReferenceDate: 5))   // 5.0
/// SQLDateEncoding.iso8601.sqlValue(Date(timeIntervalSince1970: 0))   // .text("1970-01-01T00:00:00.000Z")
/// ```
public enum SQLDateEncoding: String, Sendable, Hashable, CaseIterable {
  /// Seconds since 1970-01-01 00:00 UTC (the default).
  case unixSeconds = "secondsSince1970"
  /// Seconds since 2001-01-01 00:00 UTC (Core Data).
  case referenceDateSeconds = "secondsSince2001"
  /// Milliseconds since 1970-01-01 00:00 UTC, usually an INTEGER column.
  case unixMilliseconds = "millisecondsSince1970"
  /// ISO-8601 text with a `T` and a UTC `Z`: `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250Z`.
  case iso8601 = "iso8601"
  /// SQLite's own text shape (`datetime()`, `CURRENT_TIMESTAMP`), UTC without a zone:
  /// `2024-03-01 09:30:00`, `2024-03-01 09:30:00.250`.
  case sqliteDateTime = "sqliteDateTime"
  /// A calendar date as text, `2024-03-01` (midnight UTC).
  case isoDate = "isoDate"
  /// The database's own date type (PostgreSQL `timestamptz`, `timestamp`, `date`; the
  /// attribute's `nativeType` says which). Bound as ISO-8601 text and cast to that type.
  case native = "native"

  /// True for the encodings stored as a number (seconds or milliseconds).
  public var isNumeric: Bool {
    switch self {
    case .unixSeconds, .referenceDateSeconds, .unixMilliseconds: return true
    case .iso8601, .sqliteDateTime, .isoDate, .native: return false
    }
  }

  /// The text encoding whose shape `text` has, or nil (offsets, a `T` without `Z`, other
  /// formats): what introspection reads from a sample of a date column.
  ///
  /// ```swift
  /// SQLDateEncoding.textEncoding(of: "2024-01-05 10:30:00")   // .sqliteDateTime
  /// ```
  public static func textEncoding(of text: String) -> SQLDateEncoding? { IntrospectedColumn.textShape(text) }

  /// True for the encodings stored as text.
  public var isText: Bool { self == .iso8601 || self == .sqliteDateTime || self == .isoDate }

  /// The stored number for a date: seconds (or milliseconds for `.unixMilliseconds`). For the
  /// text and native encodings, which store no number, the seconds since 1970; use `sqlValue`.
  public func encode(_ date: Date) -> Double {
    switch self {
    case .unixSeconds: return date.timeIntervalSince1970
    case .referenceDateSeconds: return date.timeIntervalSinceReferenceDate
    case .unixMilliseconds: return date.timeIntervalSince1970 * 1000
    case .iso8601, .sqliteDateTime, .isoDate, .native: return date.timeIntervalSince1970
    }
  }

  /// The value a date is bound as in a column of this encoding: a double for the numeric
  /// encodings, text in the column's own shape for the text encodings, ISO-8601 text with
  /// milliseconds and `Z` for `.native` (to be cast to the column's type in SQL).
  public func sqlValue(_ date: Date) -> SQLValue {
    switch self {
    case .unixSeconds, .referenceDateSeconds, .unixMilliseconds: return .double(encode(date))
    case .iso8601, .native: return .text(SQLDateEncoding.text(date, separator: "T", zone: "Z"))
    case .sqliteDateTime: return .text(SQLDateEncoding.text(date, separator: " ", zone: ""))
    case .isoDate: return .text(String(SQLDateEncoding.text(date, separator: "T", zone: "").prefix(10)))
    }
  }

  /// `yyyy-MM-dd<separator>HH:mm:ss[.SSS]<zone>` in UTC; milliseconds only when non-zero.
  static func text(_ date: Date, separator: String, zone: String) -> String {
    let seconds = date.timeIntervalSince1970
    let whole = seconds.rounded(.down)
    var millis = Int(((seconds - whole) * 1000).rounded())
    var day = Int64(whole) / 86_400
    var rest = Int64(whole) % 86_400
    if rest < 0 { rest += 86_400; day -= 1 }
    if millis == 1000 { millis = 0; rest += 1 }
    // Civil-from-days (Howard Hinnant), proleptic Gregorian.
    let z = day + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    func pad(_ n: Int64, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))\(separator)"
    out += "\(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2))"
    if millis != 0 { out += "." + pad(Int64(millis), 3) }
    return out + zone
  }
}

/// How the elements of a scalar-array attribute are stored.
///
/// ```swift
/// SQLArrayStorage(rawValue: "json")   // .json
/// ```
public enum SQLArrayStorage: String, Sendable, Hashable, CaseIterable {
  /// Sift's side table `<table>__<column>(owner, position, value)` (the default: the only
  /// storage of a database Sift created).
  case sideTable
  /// A native array column (PostgreSQL `text[]`, `integer[]`, `double precision[]`).
  case nativeArray = "array"
  /// A JSON array in one column (PostgreSQL `jsonb`, SQLite TEXT read with `json_each`).
  case json
}

/// Who made the tables a schema describes, and so which storage conventions SQL may rely on.
///
/// ```swift
/// try SQLSchema(entities: entities, layout: .existing)
/// ```
public enum SQLStorageLayout: String, Sendable, Hashable, CaseIterable {
  /// Sift created the tables (`createTables`, `load`): the hidden `__sift_index` and
  /// `__sift_count_*` columns and the array side tables exist. Today's behaviour.
  case sift
  /// The tables exist already (introspected, or described by a schema file for a user's
  /// database): SQL may reference only the columns and tables the schema names — no `__sift_*`
  /// column, no side table unless an attribute's `arrayStorage` says so; a to-many's count is
  /// a `COUNT` subquery and a to-many is never nil. Nothing is ever created or loaded.
  case existing
}

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

  /// Creates an index description.
  public init(name: String, columns: [String], isUnique: Bool = false, hasExpressions: Bool = false, isPartial: Bool = false) {
    self.name = name
    self.columns = columns
    self.isUnique = isUnique
    self.hasExpressions = hasExpressions
    self.isPartial = isPartial
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
  /// Whether the DDL creates an index on the column; for an introspected schema, whether an
  /// index of the table has this column first.
  public var indexed: Bool
  /// The column's type as the database declares it (`TIMESTAMPTZ`, `text[]`, `numeric(10,2)`,
  /// `DATETIME`, `jsonb`), or nil for a column Sift created from `type`. The compiler chooses
  /// casts and operators from it (e.g. `numeric`, `uuid`, `timestamptz`).
  public var nativeType: String?
  /// False when the column is `NOT NULL` (a primary key is never null); true by default.
  public var isNullable: Bool
  /// How this date column is stored, when it differs from the schema's `dateEncoding`; nil
  /// for the schema's (and for non-date attributes).
  public var dateEncoding: SQLDateEncoding?
  /// How this array attribute is stored; nil for Sift's side table (and for non-arrays).
  public var arrayStorage: SQLArrayStorage?

  /// Creates an attribute.
  public init(
    name: String, column: String? = nil, type: SQLAttributeType, indexed: Bool = false,
    nativeType: String? = nil, isNullable: Bool = true, dateEncoding: SQLDateEncoding? = nil,
    arrayStorage: SQLArrayStorage? = nil
  ) {
    self.name = name
    self.column = column ?? name
    self.type = type
    self.indexed = indexed
    self.nativeType = nativeType
    self.isNullable = isNullable
    self.dateEncoding = dateEncoding
    self.arrayStorage = arrayStorage
  }

  /// The date encoding of this attribute in `schema`: its own, else the schema's.
  public func dateEncoding(in schema: SQLSchema) -> SQLDateEncoding { dateEncoding ?? schema.dateEncoding }

  /// The array storage of this attribute: its own, else Sift's side table.
  public var effectiveArrayStorage: SQLArrayStorage { arrayStorage ?? .sideTable }
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
  /// The primary-key attribute's name (an integer or string attribute). For an entity
  /// without a single-column key (see `primaryKeyColumns`) the first column, which then
  /// identifies nothing.
  public var primaryKey: String
  /// The primary key's columns: `[primaryKey]` for every entity Sift creates; several for a
  /// composite key, none for a view or a table without a key. Only an entity with exactly one
  /// (`hasSingleColumnKey`) can be the target of a relationship, the source of a to-many or
  /// many-to-many, or answer with row keys.
  public var primaryKeyColumns: [String]
  /// True for a view (an introspected entity that cannot be written).
  public var isView: Bool
  /// The table's indexes, as read from the database (empty for a schema Sift created: its
  /// indexes follow from `SQLAttribute.indexed`).
  public var indexes: [SQLIndex]
  /// Attributes, primary key first, then in the order given.
  public private(set) var attributes: [SQLAttribute]
  /// Relationships, in the order given.
  public private(set) var relationships: [SQLRelationship]
  private var attributeIndex: [String: Int] = [:]
  private var relationshipIndex: [String: Int] = [:]

  /// Creates an entity. A primary key missing from `attributes` is added as an integer.
  /// `primaryKeyColumns` defaults to `[primaryKey]`; pass several for a composite key or none
  /// for a view or keyless table (then `primaryKey` should name an existing attribute).
  public init(
    name: String, table: String? = nil, primaryKey: String = "id",
    attributes: [SQLAttribute], relationships: [SQLRelationship] = [],
    primaryKeyColumns: [String]? = nil, isView: Bool = false, indexes: [SQLIndex] = []
  ) {
    self.name = name
    self.table = table ?? name.lowercased()
    self.primaryKey = primaryKey
    self.primaryKeyColumns = primaryKeyColumns ?? [primaryKey]
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

  /// True when one column identifies a row: `primaryKeyColumns == [primaryKey]`.
  public var hasSingleColumnKey: Bool { primaryKeyColumns.count == 1 && primaryKeyColumns[0] == primaryKey }

  /// A copy with `relationships` in place of the current ones.
  public func replacingRelationships(_ relationships: [SQLRelationship]) -> SQLEntity {
    SQLEntity(
      name: name, table: table, primaryKey: primaryKey, attributes: attributes, relationships: relationships,
      primaryKeyColumns: primaryKeyColumns, isView: isView, indexes: indexes)
  }

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
  /// How dates are stored (`.unixSeconds` or `.referenceDateSeconds`; a single column of an
  /// existing database may differ: `SQLAttribute.dateEncoding`).
  public var dateEncoding: SQLDateEncoding
  /// Who made the tables: `.sift` (the default) or `.existing` (a user's database; no
  /// `__sift_*` columns or side tables may be referenced).
  public var layout: SQLStorageLayout

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
  public init(
    entities: [SQLEntity], dateEncoding: SQLDateEncoding = .unixSeconds, layout: SQLStorageLayout = .sift
  ) throws(SiftError) {
    var map: [String: SQLEntity] = [:]
    for e in entities {
      if map[e.name] != nil { throw SQLSchema.invalid("entity '\(e.name)' is defined twice") }
      map[e.name] = e
    }
    self.entities = map
    self.entityNames = map.keys.sorted()
    self.dateEncoding = dateEncoding
    self.layout = layout
    guard dateEncoding == .unixSeconds || dateEncoding == .referenceDateSeconds else {
      throw SQLSchema.invalid(
        "a schema's dateEncoding must be \"secondsSince1970\" or \"secondsSince2001\"; give other encodings per attribute")
    }
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
      if e.hasSingleColumnKey && pk.type != .integer && pk.type != .string {
        throw SQLSchema.invalid("primary key \(e.name).\(pk.name) must be an integer or a string")
      }
      var seen = Set<String>()
      for a in e.attributes {
        try check(a.name, "attribute of \(e.name)")
        try check(a.column, "column of \(e.name).\(a.name)")
        if !seen.insert(a.name).inserted { throw SQLSchema.invalid("key '\(a.name)' is defined twice in \(e.name)") }
        if a.dateEncoding != nil && a.type != .date {
          throw SQLSchema.invalid("attribute \(e.name).\(a.name) has a dateEncoding but is not a date")
        }
        if let storage = a.arrayStorage, storage != .sideTable {
          if !a.type.isArray { throw SQLSchema.invalid("attribute \(e.name).\(a.name) has an arrayStorage but is not an array") }
        }
      }
      for column in e.primaryKeyColumns where !e.attributes.contains(where: { $0.column == column }) {
        throw SQLSchema.invalid("primary-key column '\(column)' of \(e.name) is not an attribute's column")
      }
      for r in e.relationships {
        try check(r.name, "relationship of \(e.name)")
        if !seen.insert(r.name).inserted { throw SQLSchema.invalid("key '\(r.name)' is defined twice in \(e.name)") }
        guard let target = entities[r.target] else {
          throw SQLSchema.invalid("relationship \(e.name).\(r.name) targets unknown entity '\(r.target)'")
        }
        if !target.hasSingleColumnKey {
          throw SQLSchema.invalid(
            "relationship \(e.name).\(r.name) targets \(target.name), which has no single-column primary key")
        }
        if r.isToMany && !e.hasSingleColumnKey {
          throw SQLSchema.invalid(
            "to-many relationship \(e.name).\(r.name) needs a single-column primary key on \(e.name)")
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
    // In a database Sift did not create nothing is written, so a column may be read both as
    // an attribute and as a foreign key (`category_id` and `category`); keys must still differ.
    if layout == .sift {
      for name in entityNames {
        guard let e = entities[name] else { continue }
        for a in e.attributes where !a.type.isArray {
          try claim(e.table, a.column, Use(what: "the attribute \(e.name).\(a.name)"))
        }
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
