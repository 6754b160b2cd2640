import SiftSyntax

/// Turns JSON records (`[SiftValue]` from `SiftJSON`) into table rows, so a database holds
/// the same data as memory: nested objects become to-one rows, arrays of objects to-many (or
/// many-to-many) rows, scalar arrays side-table rows, and each root record's position in the
/// array goes into `__sift_index`.
///
/// A missing key and JSON null both store NULL. Values must match the attribute type (an
/// integer is accepted for a double, 0/1 for a boolean, a boolean for an integer); anything
/// else is an error naming the record and key, never a silent conversion. Keys the schema
/// does not know are ignored. A record without a primary key gets the next free integer.
///
/// Rows stream out (`forEachRow`) in the order they are inserted — parents before children —
/// each with the table it goes to (`SQLLoadTable`: its INSERT and columns, worked out once per
/// table); `SQLDatabase.load` runs them on a database, `insertStatements` collects them.
///
/// ```swift
/// let records = try SiftJSON.parse(json)
/// guard case .array(let list) = records else { return }
/// let inserts = try SQLDataLoader(schema: schema, dialect: SQLiteDialect())
///   .insertStatements(for: list, entity: "Venue")
/// ```
public struct SQLDataLoader: Sendable {
  /// The schema.
  public let schema: SQLSchema
  /// The dialect.
  public let dialect: any SQLDialect
  /// Deepest nesting of objects accepted.
  public static let maxDepth = 32

  /// Creates a loader.
  public init(schema: SQLSchema, dialect: any SQLDialect) {
    self.schema = schema
    self.dialect = dialect
  }

  /// One INSERT per row, parents before children.
  /// - Throws: `SiftError` (stage `.sql`, id `load-error`) naming the record and key.
  public func insertStatements(for records: [SiftValue], entity name: String) throws(SiftError) -> [SQLStatement] {
    var out: [SQLStatement] = []
    let tables = try tables(for: name)
    try forEachRow(in: records, entity: name) { table, values in
      out.append(SQLStatement(sql: tables[table].insertSQL, bindings: values))
    }
    return out
  }

  /// The tables rows of `entity` (and of everything it reaches) go to, in a fixed order:
  /// `forEachRow` names them by their `index` in this list.
  /// - Throws: `SiftError` (stage `.sql`, id `load-error`) when the entity is unknown.
  public func tables(for name: String) throws(SiftError) -> [SQLLoadTable] {
    guard schema.entity(name) != nil else { throw SQLDataLoader.error("entity '\(name)' not found in the schema") }
    return Plan(loader: self).tables
  }

  /// Hands every row for `records` (rows of `entity`) to `row`, parents before children, with
  /// the table it goes to (its index in `tables(for:)`). The records are read once, in order, each by the keys the schema
  /// knows (`SQLLoadRecord`), so a caller holding records in another form need not convert
  /// them to dictionaries first.
  /// - Throws: `SiftError` (stage `.sql`, id `load-error`) naming the record and key, or
  ///   whatever `row` throws.
  @inlinable
  public func forEachRow<Records: Collection>(
    in records: Records, entity name: String, _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
  ) throws(SiftError) where Records.Element: SQLLoadRecord {
    do { try forEachRowUntyped(in: records, entity: name, row) } catch { throw SQLDataLoader.caught(error) }
  }

  /// `forEachRow`'s body; what `row` throws passes through untouched.
  @inlinable
  func forEachRowUntyped<Records: Collection>(
    in records: Records, entity name: String, _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
  ) throws where Records.Element: SQLLoadRecord {
    // Generic only this far (inlined into the caller, so specialized for its record type); the
    // rest reads each record through a closure. Left generic across the module boundary, the
    // loop went through the runtime's generic metadata per record (a sixth of the copy time).
    let load = try SQLLoadRun(loader: self, entity: name)
    if let key = load.integerPrimaryKey {
      for r in records where r.sqlLoadKind == nil {
        if let v = r.sqlLoadValue(forKey: key) { load.notePrimaryKey(v) }
      }
    }
    var i = 0
    for r in records {
      try load.insertRecord(i, kind: r.sqlLoadKind, value: { r.sqlLoadValue(forKey: $0) }, row)
      i += 1
    }
  }

  static func error(_ message: String) -> SiftError {
    SiftError(stage: .sql, diagnostic: SiftDiagnostic(id: .loadError, message: message, range: .at(0)), source: "")
  }

  /// An error met while loading as Sift's one error type: a `SiftError` as it is, any other
  /// (a row callback's own) as stage `.sql`, id `load-error`, kept as `underlying`.
  @usableFromInline
  static func caught(_ error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    return SiftError(stage: .sql, id: .loadError, message: "\(error)", underlying: error)
  }

  /// The columns an entity's INSERT lists, in DDL order.
  func columns(of e: SQLEntity) -> [String] {
    var out: [String] = []
    var seen = Set<String>()
    for a in e.columnAttributes where seen.insert(a.column).inserted { out.append(a.column) }
    for r in e.relationships {
      if case .toOne(let fk) = r.kind, seen.insert(fk).inserted { out.append(fk) }
    }
    for (fk, _) in SQLDDL(schema: schema, dialect: dialect).inverseForeignKeys(of: e) where seen.insert(fk).inserted {
      out.append(fk)
    }
    for name in SQLDDL.countedCollections(of: e) where seen.insert(SQLSchema.countColumn(name)).inserted {
      out.append(SQLSchema.countColumn(name))
    }
    out.append(SQLSchema.indexColumn)
    return out
  }

  /// Converts one JSON value with its column's codec (`SQLColumnCodec`: dates in the
  /// column's encoding, booleans in the dialect's form); `path` names it in the error.
  func convert(_ v: SiftValue, _ codec: SQLColumnCodec, _ path: () -> String) throws(SiftError) -> SQLValue {
    do {
      return try codec.encodeValue(v)
    } catch {
      throw SQLDataLoader.error("\(path()): \(error.diagnostic.message)")
    }
  }

  /// Every table's INSERT and each entity's row layout, worked out once per load: building
  /// the column list, the INSERT text and a dictionary of values per row was most of the copy
  /// time (`sift-bench --suite scale`, `sqlite_copy_vs_baseline` 0.25 before).
  struct Plan {
    /// Where one entity's values go in its rows. A class, so reading it per row retains one
    /// object instead of copying every field (and the slots are structs, not tuples: arrays of
    /// tuples went through the runtime's generic metadata on every access). The slots holding
    /// a codec are classes too: a struct slot was copied out of its array codec and all, every
    /// field retained and released, once per value (0.26 of 3.1 G instructions making the rows
    /// of 20,000 venues five times; callgrind, issue 35).
    final class EntityLayout {
      final class Scalar {
        let key: String
        let codec: SQLColumnCodec
        let position: Int
        init(key: String, codec: SQLColumnCodec, position: Int) {
          self.key = key
          self.codec = codec
          self.position = position
        }
      }
      struct ToOne { let key: String; let target: Int; let position: Int? }
      final class Array {
        let key: String
        let codec: SQLColumnCodec
        let count: Int?
        let side: Int
        init(key: String, codec: SQLColumnCodec, count: Int?, side: Int) {
          self.key = key
          self.codec = codec
          self.count = count
          self.side = side
        }
      }
      struct ToMany { let key: String; let inverse: String?; let target: Int; let count: Int?; let join: Int? }

      /// The entity name, its primary key's name and type.
      let name: String
      let pkKey: String
      let pkType: SQLAttributeType
      let pkCodec: SQLColumnCodec
      let table: Int
      let width: Int
      var primaryKey: Int?
      /// Scalar attributes other than the primary key, with their column positions.
      var scalars: [Scalar] = []
      /// To-one relationships: name, target entity, foreign-key position.
      var toOne: [ToOne] = []
      /// Array attributes: count-column position and side table.
      var arrays: [Array] = []
      /// To-many relationships: inverse foreign key (nil: many-to-many, through `join`).
      var toMany: [ToMany] = []
      var index: Int?
      /// Column positions by name (for the foreign keys parents fill in).
      var position: [String: Int] = [:]

      init(entity: SQLEntity, table: Int, width: Int, codec: SQLColumnCodec) {
        name = entity.name
        pkKey = entity.primaryKeyAttribute.name
        pkType = entity.primaryKeyAttribute.type
        pkCodec = codec
        self.table = table
        self.width = width
      }
    }

    var tables: [SQLLoadTable] = []
    var entities: [EntityLayout] = []
    var entityIndex: [String: Int] = [:]
    let loader: SQLDataLoader

    init(loader: SQLDataLoader) {
      self.loader = loader
      let q = loader.dialect.quoteIdentifier
      func add(_ table: String, _ columns: [String]) -> Int {
        let marks = (0..<columns.count).map { loader.dialect.placeholder($0 + 1) }
        let sql =
          "INSERT INTO " + q(table) + " (" + columns.map(q).joined(separator: ", ") + ") VALUES ("
          + marks.joined(separator: ", ") + ")"
        tables.append(SQLLoadTable(index: tables.count, name: table, columns: columns, insertSQL: sql))
        return tables.count - 1
      }
      let schema = loader.schema
      let all = schema.entityNames.compactMap { schema.entity($0) }
      for (i, e) in all.enumerated() { entityIndex[e.name] = i }
      var joins: [String: Int] = [:]
      for e in all {
        let columns = loader.columns(of: e)
        var position: [String: Int] = [:]
        for (i, c) in columns.enumerated() where position[c] == nil { position[c] = i }
        let codec = { (a: SQLAttribute) in SQLColumnCodec(a, schema: schema, dialect: loader.dialect) }
        let layout = EntityLayout(
          entity: e, table: add(e.table, columns), width: columns.count, codec: codec(e.primaryKeyAttribute))
        layout.position = position
        layout.primaryKey = position[e.primaryKeyAttribute.column]
        layout.index = position[SQLSchema.indexColumn]
        for a in e.attributes where !a.type.isArray && a.name != e.primaryKey {
          if let p = position[a.column] { layout.scalars.append(.init(key: a.name, codec: codec(a), position: p)) }
        }
        for r in e.relationships {
          guard case .toOne(let fk) = r.kind, let t = entityIndex[r.target] else { continue }
          layout.toOne.append(.init(key: r.name, target: t, position: position[fk]))
        }
        for a in e.attributes where a.type.isArray {
          let side = add(e.sideTable(for: a), [SQLSchema.ownerColumn, SQLSchema.positionColumn, SQLSchema.valueColumn])
          layout.arrays.append(
            .init(
              key: a.name, codec: codec(a).elementCodec, count: position[SQLSchema.countColumn(a.column)], side: side))
        }
        for r in e.relationships where r.isToMany {
          guard let t = entityIndex[r.target] else { continue }
          var join: Int?
          if case .manyToMany(let table, let s, let d) = r.kind {
            if let known = joins[table] {
              join = known
            } else {
              join = add(table, [s, d])
              joins[table] = join
            }
          }
          var inverse: String?
          if case .toMany(let fk) = r.kind { inverse = fk }
          layout.toMany.append(
            .init(key: r.name, inverse: inverse, target: t, count: position[SQLSchema.countColumn(r.name)], join: join))
        }
        entities.append(layout)
      }
    }
  }

  struct State {
    let plan: Plan
    let loader: SQLDataLoader
    /// Largest key seen per entity (by plan index).
    var maxKey: [Int64]

    init(plan: Plan) {
      self.plan = plan
      loader = plan.loader
      maxKey = Array(repeating: 0, count: plan.entities.count)
    }

    mutating func note(_ entity: Int, _ key: Int64) {
      if key > maxKey[entity] { maxKey[entity] = key }
    }

    mutating func nextKey(_ entity: Int) -> Int64 {
      maxKey[entity] = maxKey[entity] &+ 1
      return maxKey[entity]
    }

    mutating func insert(
      _ record: SiftValue, entity: Int, index: Int?, parent: (column: String, key: SQLValue)?, depth: Int,
      path: () -> String, _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
    ) throws -> SQLValue {
      try insert(
        kind: record.sqlLoadKind, value: { record.sqlLoadValue(forKey: $0) }, entity: entity, index: index,
        parent: parent, depth: depth, path: path, row)
    }

    /// Inserts one object's row (and its children's), reading its keys through `value`; `kind`
    /// is nil for an object, else the kind of value found (an error).
    mutating func insert(
      kind: String?, value record: (String) -> SiftValue?, entity: Int, index: Int?,
      parent: (column: String, key: SQLValue)?, depth: Int, path: () -> String,
      _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
    ) throws -> SQLValue {
      let layout = plan.entities[entity]
      guard depth <= SQLDataLoader.maxDepth else {
        throw SQLDataLoader.error("\(path()): nested deeper than \(SQLDataLoader.maxDepth)")
      }
      if let kind {
        throw SQLDataLoader.error("\(path()): expected an object for entity \(layout.name), found \(kind)")
      }
      var values = [SQLValue](repeating: .null, count: layout.width)
      let pk: SQLValue
      if let v = record(layout.pkKey), !v.isNull {
        pk = try loader.convert(v, layout.pkCodec, { path() + "." + layout.pkKey })
        if case .integer(let i) = pk { note(entity, i) }
      } else if layout.pkType == .integer {
        pk = .integer(nextKey(entity))
      } else {
        throw SQLDataLoader.error("\(path()): missing primary key '\(layout.pkKey)' of \(layout.name)")
      }
      if let p = layout.primaryKey { values[p] = pk }
      for a in layout.scalars {
        values[a.position] = try loader.convert(record(a.key) ?? .null, a.codec, { path() + "." + a.key })
      }
      for r in layout.toOne {
        guard let v = record(r.key), !v.isNull else { continue }
        let key = try insert(
          v, entity: r.target, index: nil, parent: nil, depth: depth + 1, path: { path() + "." + r.key }, row)
        if let p = r.position { values[p] = key }
      }
      if let parent, let p = layout.position[parent.column] { values[p] = parent.key }
      // Arrays are read once: their counts go into this row, their items into child rows.
      var arrays: [SiftValue?] = []
      if !layout.arrays.isEmpty || !layout.toMany.isEmpty {
        arrays.reserveCapacity(layout.arrays.count + layout.toMany.count)
        for a in layout.arrays {
          let v = record(a.key)
          arrays.append(v)
          if case .array(let items)? = v, let p = a.count { values[p] = .integer(Int64(items.count)) }
        }
        for r in layout.toMany {
          let v = record(r.key)
          arrays.append(v)
          if case .array(let items)? = v, let p = r.count { values[p] = .integer(Int64(items.count)) }
        }
      }
      if let index, let p = layout.index { values[p] = .integer(Int64(index)) }
      try row(layout.table, values)
      try children(arrays, layout, pk, depth, path, row)
      return pk
    }

    /// The rows of an entity's to-many relationships and scalar arrays (`arrays`: their values,
    /// arrays first, in `layout` order).
    mutating func children(
      _ arrays: [SiftValue?], _ layout: Plan.EntityLayout, _ pk: SQLValue, _ depth: Int, _ path: () -> String,
      _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
    ) throws {
      for (n, r) in layout.toMany.enumerated() {
        guard let v = arrays[layout.arrays.count + n], !v.isNull else { continue }
        guard case .array(let items) = v else {
          throw SQLDataLoader.error("\(path()).\(r.key): expected an array of objects, found \(v.kindName)")
        }
        for (i, item) in items.enumerated() {
          if let inverse = r.inverse {
            _ = try insert(
              item, entity: r.target, index: nil, parent: (inverse, pk), depth: depth + 1,
              path: { "\(path()).\(r.key)[\(i)]" }, row)
          } else {
            let key = try insert(
              item, entity: r.target, index: nil, parent: nil, depth: depth + 1, path: { "\(path()).\(r.key)[\(i)]" },
              row)
            if let join = r.join { try row(join, [pk, key]) }
          }
        }
      }
      for (n, a) in layout.arrays.enumerated() {
        guard let v = arrays[n], !v.isNull else { continue }
        guard case .array(let items) = v else {
          throw SQLDataLoader.error("\(path()).\(a.key): expected an array, found \(v.kindName)")
        }
        for (i, item) in items.enumerated() {
          let value = try loader.convert(item, a.codec, { "\(path()).\(a.key)[\(i)]" })
          try row(a.side, [pk, .integer(Int64(i)), value])
        }
      }
    }
  }
}
