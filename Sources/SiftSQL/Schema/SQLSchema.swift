import Foundation
import SiftSyntax

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
        "a schema's dateEncoding must be \"secondsSince1970\" or \"secondsSince2001\"; give other encodings per attribute"
      )
    }
    try validate()
  }

  /// The entity named `name`.
  public func entity(_ name: String) -> SQLEntity? { entities[name] }

  static func invalid(_ message: String) -> SiftError {
    SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(id: .invalidSchema, message: message, range: .at(0)),
      source: "")
  }

  private func validate() throws(SiftError) {
    func check(_ identifier: String, _ what: String) throws(SiftError) {
      if identifier.isEmpty { throw SQLSchema.invalid("\(what) has an empty name") }
      if identifier.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw SQLSchema.invalid("\(what) '\(identifier)' contains a control character")
      }
      if identifier.hasPrefix("__sift") {
        throw SQLSchema.invalid("\(what) '\(identifier)' uses the reserved prefix __sift")
      }
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
          if !a.type.isArray {
            throw SQLSchema.invalid("attribute \(e.name).\(a.name) has an arrayStorage but is not an array")
          }
        }
      }
      if let f = e.rowFilter {
        try check(f.column, "row-filter column of \(e.name)")
        if layout == .sift {
          throw SQLSchema.invalid("\(e.name) has a row filter, which only a schema of layout \"existing\" may have")
        }
        if f.values.isEmpty { throw SQLSchema.invalid("the row filter of \(e.name) lists no values") }
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
        if let order = r.orderColumn {
          guard r.isToMany else {
            throw SQLSchema.invalid("relationship \(e.name).\(r.name) is to-one: it has no order column")
          }
          try check(order, "order column of \(e.name).\(r.name)")
        }
      }
    }
    try checkColumnsAreDistinct()
  }

  /// One meaning per column: an attribute, a to-one's foreign key and a to-many's inverse
  /// foreign key (on the target's table) may not share a column, or loading would write one
  /// over the other and SQL would read what memory does not (two to-many relationships to one
  /// entity both default to `<table>_id`). A to-one and the to-many that is its inverse may,
  /// and so may the copies of one relationship inherited by the entities sharing a table
  /// through row filters (`SQLRowFilter`).
  private func checkColumnsAreDistinct() throws(SiftError) {
    struct Use {
      var what: String
      /// For keys: (entity holding the foreign key, entity it points to), and whether it is a
      /// to-one's key (else a to-many's inverse key).
      var link: (from: String, to: String, toOne: Bool)?
    }
    var uses: [String: [String: Use]] = [:]  // table → column → use
    // Entities of a table that row filters divide (Core Data's hierarchies) are one family:
    // a sub-entity's inherited members claim the columns its root's members claim.
    let divided = Set(entities.values.filter { $0.rowFilter != nil }.map(\.table))
    func family(_ name: String) -> String {
      guard let e = entities[name], divided.contains(e.table) else { return "entity " + name }
      return "table " + e.table
    }
    func claim(_ table: String, _ column: String, _ use: Use) throws(SiftError) {
      if let other = uses[table]?[column] {
        if let a = other.link, let b = use.link, family(a.from) == family(b.from), family(a.to) == family(b.to),
          a.toOne != b.toOne || a.from != b.from || a.to != b.to
        {
          return  // a to-one and its inverse to-many, or one inherited by a sub-entity
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
          try claim(
            target.table, fk,
            Use(what: "the inverse foreign key of \(e.name).\(r.name)", link: (target.name, e.name, false)))
        case .manyToMany: break
        }
      }
    }
  }
}
