import SiftSQL

/// What `CoreDataStore` reads from a store's catalog: `Z_PRIMARYKEY`, each table's columns
/// (name and declared type) and single-column index names. Read with bound table names; no
/// row of an entity table is read.
struct StoreCatalog {
  struct Column: Hashable {
    var name: String
    /// The declared type, upper-cased (`INTEGER`, `TIMESTAMP`, `VARCHAR`, …).
    var type: String
  }

  /// A many-to-many join table `Z_<n><NAME>` with its two key columns `Z_<m><REL>`.
  struct JoinTable: Hashable {
    var name: String
    /// (column, entity number, relationship name upper-cased), both sides.
    var sides: [(column: String, entity: Int, name: String)]
    /// `Z_FOK_<column>` order keys present in the table.
    var orderColumns: Set<String>

    static func == (a: JoinTable, b: JoinTable) -> Bool { a.name == b.name }
    func hash(into h: inout Hasher) { h.combine(name) }
  }

  var label: String
  var entities: [CoreDataStore.EntityRecord]
  /// Table name upper-cased → its columns in declaration order.
  var tables: [String: [Column]]
  /// Table name upper-cased → the spelling in the store.
  var tableNames: [String: String]
  /// Table name upper-cased → names (upper-cased) of its indexes.
  var indexes: [String: Set<String>]
  var joinTables: [JoinTable]
  var warnings: [String] = []

  init(database db: any SQLDatabase, label: String) throws {
    self.label = label
    guard CoreDataStore.isStore(db) else {
      throw CoreDataStoreError("\(label) is not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA tables)")
    }
    func rows(_ sql: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
      do {
        return try db.execute(SQLStatement(sql: sql, bindings: bindings))
      } catch {
        throw CoreDataStoreError("\(label): cannot read the store's catalog: \(error)")
      }
    }
    var records: [CoreDataStore.EntityRecord] = []
    for r in try rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
      guard r.count == 3, case .integer(let n) = r[0], case .text(let name) = r[1], n > 0, n < 16000 else { continue }
      let parent: Int64
      if case .integer(let p) = r[2] { parent = p } else { parent = 0 }
      records.append(CoreDataStore.EntityRecord(number: Int(n), name: name, parent: Int(parent)))
    }
    entities = records
    tables = [:]
    tableNames = [:]
    indexes = [:]
    joinTables = []
    for r in try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
      guard case .text(let table)? = r.first else { continue }
      var columns: [Column] = []
      for c in try rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) {
        guard c.count == 2, case .text(let name) = c[0] else { continue }
        let type: String
        if case .text(let t) = c[1] { type = t.uppercased() } else { type = "" }
        columns.append(Column(name: name, type: type))
      }
      let key = table.uppercased()
      tables[key] = columns
      tableNames[key] = table
      var names = Set<String>()
      for i in try rows("SELECT name FROM pragma_index_list(?)", [.text(table)]) {
        if case .text(let n)? = i.first { names.insert(n.uppercased()) }
      }
      indexes[key] = names
      if let join = Self.joinTable(table, columns) { joinTables.append(join) }
    }
  }

  /// `Z_<digits><NAME>` with exactly two `Z_<m><REL>` key columns (besides `Z_FOK_` ones).
  static func joinTable(_ table: String, _ columns: [Column]) -> JoinTable? {
    guard let (_, _) = numbered(table) else { return nil }
    var sides: [(String, Int, String)] = []
    var order = Set<String>()
    for c in columns {
      let upper = c.name.uppercased()
      if upper.hasPrefix("Z_FOK_") {
        order.insert(upper)
      } else if let (m, rel) = numbered(upper) {
        sides.append((c.name, m, rel))
      } else {
        return nil
      }
    }
    guard sides.count == 2 else { return nil }
    return JoinTable(name: table, sides: sides.map { (column: $0.0, entity: $0.1, name: $0.2) }, orderColumns: order)
  }

  /// `Z_26ASSETS` → (26, "ASSETS"); nil for anything else.
  static func numbered(_ name: String) -> (Int, String)? {
    let upper = name.uppercased()
    guard upper.hasPrefix("Z_") else { return nil }
    let rest = upper.dropFirst(2)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    let tail = rest.dropFirst(digits.count)
    guard !digits.isEmpty, digits.count < 6, let n = Int(digits), !tail.isEmpty else { return nil }
    return (n, String(tail))
  }

  /// The store's root table for a root entity (`Z` + name upper-cased), if present.
  func table(forRoot name: String) -> [Column]? { tables["Z" + name.uppercased()] }

  /// Replaces each many-to-many's join table and columns with the ones the store has (for an
  /// inferred model, where they were read from the store in the first place).
  func joinTablesApplied(to mapping: CoreDataSQLMapping) -> CoreDataSQLMapping {
    var out = mapping
    var entities: [SQLEntity] = []
    let numbers = mapping.entityNumbers
    for entity in mapping.schema.entityNames.compactMap({ mapping.schema.entity($0) }) {
      let relationships = entity.relationships.map { r -> SQLRelationship in
        guard case .manyToMany = r.kind, let dest = numbers[r.target] else { return r }
        let relName = r.name.uppercased()
        for j in joinTables {
          guard let target = j.sides.firstIndex(where: { $0.entity == dest && $0.name == relName }) else { continue }
          let source = j.sides[1 - target]
          let order = "Z_FOK_" + j.sides[target].column.dropFirst(2)
          return SQLRelationship(
            name: r.name, target: r.target,
            kind: .manyToMany(joinTable: j.name, sourceColumn: source.column, targetColumn: j.sides[target].column),
            orderColumn: j.orderColumns.contains(order.uppercased()) ? order : nil)
        }
        return r
      }
      entities.append(entity.replacingRelationships(relationships))
    }
    if let schema = try? SQLSchema(
      entities: entities, dateEncoding: mapping.schema.dateEncoding, layout: mapping.schema.layout)
    {
      out.schema = schema
    }
    return out
  }

  /// Derived attributes (`"Root.name"`) whose column the store lacks, on tables it has.
  func derivedWithoutColumn(_ model: CoreDataModel, entityNumbers: [String: Int]) -> Set<String> {
    let columns = model.columnNames(entityNumbers: entityNumbers)
    var out = Set<String>()
    for e in model.entities {
      guard let root = model.rootEntity(of: e.name), let table = tables["Z" + root.name.uppercased()] else { continue }
      for a in e.attributes where a.isDerived && a.isStored {
        guard let c = columns[e.name]?[a.name] else { continue }
        if !table.contains(where: { $0.name.uppercased() == c.uppercased() }) { out.insert("\(root.name).\(a.name)") }
      }
    }
    return out
  }

  /// `mapping` without the order columns the store lacks (an ordered relationship whose
  /// `Z_FOK_…` is not there: unordered, with a warning each).
  func orderColumnsChecked(_ mapping: CoreDataSQLMapping) -> (CoreDataSQLMapping, [String]) {
    var notes: [String] = []
    var entities: [SQLEntity] = []
    var changed = false
    for e in mapping.schema.entityNames.compactMap({ mapping.schema.entity($0) }) {
      let relationships = e.relationships.map { r -> SQLRelationship in
        guard let order = r.orderColumn else { return r }
        let table: String?
        switch r.kind {
        case .toMany: table = mapping.schema.entity(r.target)?.table
        case .manyToMany(let join, _, _): table = join
        case .toOne: table = nil
        }
        if let table,
          tables[table.uppercased()]?.contains(where: { $0.name.uppercased() == order.uppercased() }) == true
        {
          return r
        }
        notes.append("\(e.name).\(r.name) is ordered but \(label) has no \(order) column; read unordered")
        changed = true
        var plain = r
        plain.orderColumn = nil
        return plain
      }
      entities.append(e.replacingRelationships(relationships))
    }
    guard changed,
      let schema = try? SQLSchema(
        entities: entities, dateEncoding: mapping.schema.dateEncoding, layout: mapping.schema.layout)
    else { return (mapping, notes) }
    var out = mapping
    out.schema = schema
    return (out, Array(Set(notes)).sorted())
  }

  /// Every table and column `mapping` names exists in the store.
  /// - Throws: `CoreDataStoreError` listing up to five missing ones.
  func check(_ mapping: CoreDataSQLMapping, modelFile: String?) throws {
    var missing: [String] = []
    func has(_ table: String, _ column: String) -> Bool {
      tables[table.uppercased()]?.contains { $0.name.uppercased() == column.uppercased() } ?? false
    }
    for name in mapping.schema.entityNames {
      guard let e = mapping.schema.entity(name) else { continue }
      guard tables[e.table.uppercased()] != nil else {
        missing.append("no table \(e.table) for entity \(name)")
        continue
      }
      for a in e.attributes where !has(e.table, a.column) {
        missing.append("table \(e.table) has no column \(a.column) for \(name).\(a.name)")
      }
      for r in e.relationships {
        switch r.kind {
        case .toOne(let fk) where !has(e.table, fk):
          missing.append("table \(e.table) has no column \(fk) for \(name).\(r.name)")
        case .toMany(let fk):
          if let t = mapping.schema.entity(r.target)?.table, !has(t, fk) {
            missing.append("table \(t) has no column \(fk) for \(name).\(r.name)")
          }
        case .manyToMany(let table, let s, let t) where !(has(table, s) && has(table, t)):
          missing.append("no join table \(table)(\(s), \(t)) for \(name).\(r.name)")
        default: break
        }
      }
    }
    guard !missing.isEmpty else { return }
    let list = Array(Set(missing)).sorted()
    var text = "\(label) does not match "
    text += modelFile.map { "the model \($0)" } ?? "the layout Sift expects"
    text += ": " + list.prefix(5).joined(separator: "; ")
    if list.count > 5 { text += "; and \(list.count - 5) more" }
    if modelFile != nil { text += " (is it the model version the store was written with?)" }
    throw CoreDataStoreError(text)
  }
}
