/// A shared, immutable reference to an entity, so compiled operands pass one pointer around
/// instead of copying the entity's strings and tables (compilation speed).
final class SQLEntityRef: Sendable {
  let entity: SQLEntity
  let name: String
  let table: String
  /// The table's name, quoted.
  let quotedTable: String
  let primaryKey: String
  let primaryKeyAttribute: SQLAttribute
  /// The primary key's type as compiled SQL sees it.
  let primaryKeyType: SQLType
  /// The primary key column.
  let primaryKeyColumn: SQLColumnRef
  /// The row filter's column and values, for an entity sharing its table (`SQLRowFilter`).
  let rowFilter: (column: SQLColumnRef, values: [Int64])?
  /// Every attribute and relationship, by key, with its identifiers quoted in advance: one
  /// lookup resolves a key path step.
  let members: [String: Member]
  /// `t0."column"` (UTF-8) of each text column that leads an index under SQLite's `NOCASE`
  /// (`SQLIndex.leadsCaseless`), so `BEGINSWITH[c]` can add a range that index serves
  /// (`SQLCompilation.caselessIndexPrefilter`). Empty for almost every entity.
  let caselessIndexedColumns: [[UInt8]]

  /// What a key names, ready to compile.
  indirect enum Member: Sendable {
    /// A column attribute, with how it stores its values.
    case column(SQLColumnRef, SQLType, SQLValueForm, isPrimaryKey: Bool)
    /// An array attribute: its quoted side table and the owner's element-count column (nil
    /// in a database Sift did not create: no count column, the array is never nil).
    case array(SQLAttribute, sideTable: String, count: SQLColumnRef?)
    /// An array attribute stored in one column of the owner (a JSON array or a native
    /// PostgreSQL array, `SQLAttribute.arrayStorage`); a NULL column is a nil array.
    case arrayColumn(SQLAttribute, SQLColumnRef, SQLArrayStorage)
    /// A to-one relationship through a foreign-key column. Targets are positions in
    /// `SQLEntityRefs.all` (nil: not in the schema).
    case toOne(target: Int?, foreignKey: SQLColumnRef)
    /// A to-many relationship: the target's quoted inverse foreign key, and the owner's
    /// element-count column where Sift created the tables (nil: never nil, decision 10);
    /// `order`: the quoted order column on the target table of an ordered one.
    case toMany(target: Int?, inverse: String, count: SQLColumnRef?, order: String?)
    /// A many-to-many relationship through a join table (quoted names); `order`: the join
    /// table's quoted order column of an ordered one.
    case manyToMany(
      target: Int?, joinTable: String, sourceColumn: String, targetColumn: String, count: SQLColumnRef?,
      order: String?)
  }

  /// `targets`: the position of each entity in `SQLEntityRefs.all`, by name.
  /// `layout`: `.existing` references no `__sift_count_*` column.
  /// `dateEncoding`: the schema's, for date attributes without their own.
  init(
    _ entity: SQLEntity, dialect: any SQLDialect, targets: [String: Int] = [:], layout: SQLStorageLayout = .sift,
    dateEncoding: SQLDateEncoding = .unixSeconds
  ) {
    func column(_ name: String) -> SQLColumnRef { SQLColumnRef(name, dialect: dialect) }
    func count(_ name: String) -> SQLColumnRef? { layout == .sift ? column(SQLSchema.countColumn(name)) : nil }
    var members: [String: Member] = [:]
    for a in entity.attributes {
      if a.type.isArray {
        let storage = a.effectiveArrayStorage
        if storage == .sideTable {
          members[a.name] = .array(
            a, sideTable: dialect.quoteIdentifier(entity.sideTable(for: a)), count: count(a.column))
        } else {
          members[a.name] = .arrayColumn(a, column(a.column), storage)
        }
      } else {
        members[a.name] = .column(
          column(a.column), SQLType(a.type), SQLValueForm(a, schemaDates: dateEncoding, dialect: dialect),
          isPrimaryKey: a.name == entity.primaryKey)
      }
    }
    for r in entity.relationships where members[r.name] == nil {
      switch r.kind {
      case .toOne(let fk):
        members[r.name] = .toOne(target: targets[r.target], foreignKey: column(fk))
      case .toMany(let inverse):
        members[r.name] = .toMany(
          target: targets[r.target], inverse: dialect.quoteIdentifier(inverse), count: count(r.name),
          order: r.orderColumn.map(dialect.quoteIdentifier))
      case .manyToMany(let table, let sourceColumn, let targetColumn):
        members[r.name] = .manyToMany(
          target: targets[r.target], joinTable: dialect.quoteIdentifier(table),
          sourceColumn: dialect.quoteIdentifier(sourceColumn),
          targetColumn: dialect.quoteIdentifier(targetColumn), count: count(r.name),
          order: r.orderColumn.map(dialect.quoteIdentifier))
      }
    }
    self.members = members
    var caseless: [[UInt8]] = []
    // An expression index may be sift_fold's, which serves the exact test alone better (the
    // NOCASE range in front measured 0.71 of the hand-written LIKE against 0.55 without it,
    // sift-bench --suite existing): then no NOCASE range.
    let foldIndexMayExist = entity.indexes.contains { $0.hasExpressions && !$0.isPartial }
    for a in entity.attributes
    where !foldIndexMayExist && a.type == .string && SQLEntityRef.hasTextAffinity(a.nativeType) {
      if entity.indexes.contains(where: { $0.leadsCaseless(a.column) }) { caseless.append(column(a.column).rootUTF8) }
    }
    self.caselessIndexedColumns = caseless
    self.rowFilter = entity.rowFilter.map { (column($0.column), $0.values) }
    self.entity = entity
    self.name = entity.name
    self.table = entity.table
    self.quotedTable = dialect.quoteIdentifier(entity.table)
    self.primaryKey = entity.primaryKey
    self.primaryKeyAttribute = entity.primaryKeyAttribute
    self.primaryKeyType = SQLType(entity.primaryKeyAttribute.type)
    self.primaryKeyColumn = column(entity.primaryKeyAttribute.column)
  }
}

extension SQLEntityRef {
  /// SQLite's rule for TEXT affinity (a declared type naming CHAR, CLOB or TEXT, and not INT):
  /// such a column stores numbers as text, so every value but a blob compares as text.
  static func hasTextAffinity(_ declared: String?) -> Bool {
    guard let t = declared?.uppercased(), !t.contains("INT") else { return false }
    return t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT")
  }
}

/// A column's name, quoted, and as read through the root alias (`t0."name"`).
final class SQLColumnRef: Sendable {
  let name: String
  let quoted: String
  let root: String
  /// `root` as UTF-8, shared by every fragment that starts as this column (no copy until one
  /// is appended to).
  let rootUTF8: [UInt8]

  init(_ name: String, dialect: any SQLDialect) {
    self.name = name
    quoted = dialect.quoteIdentifier(name)
    root = "t0." + quoted
    rootUTF8 = Array(root.utf8)
  }
}

/// The schema's entities as shared references, built once per `SQLCompiler`.
final class SQLEntityRefs: Sendable {
  let dateEncoding: SQLDateEncoding
  let layout: SQLStorageLayout
  let byName: [String: SQLEntityRef]
  /// Every entity, in name order (relationship targets refer to these positions).
  let all: [SQLEntityRef]

  /// Quoted side-table column names.
  let quotedOwner: String
  let quotedValue: String
  let quotedPosition: String

  init(_ schema: SQLSchema, dialect: any SQLDialect) {
    dateEncoding = schema.dateEncoding
    layout = schema.layout
    quotedOwner = dialect.quoteIdentifier(SQLSchema.ownerColumn)
    quotedValue = dialect.quoteIdentifier(SQLSchema.valueColumn)
    quotedPosition = dialect.quoteIdentifier(SQLSchema.positionColumn)
    let names = schema.entities.keys.sorted()
    let positions = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    all = names.compactMap { name in
      schema.entities[name].map {
        SQLEntityRef($0, dialect: dialect, targets: positions, layout: schema.layout, dateEncoding: schema.dateEncoding)
      }
    }
    byName = Dictionary(uniqueKeysWithValues: zip(names, all))
  }

  func entity(_ name: String) -> SQLEntityRef? { byName[name] }

  /// The entity at `position` in `all`.
  func entity(at position: Int?) -> SQLEntityRef? {
    guard let position, all.indices.contains(position) else { return nil }
    return all[position]
  }
}
