import SiftSyntax

/// Turns JSON records (`[SiftValue]` from `SiftJSON`) into INSERT statements, so a database
/// holds the same data as memory: nested objects become to-one rows, arrays of objects
/// to-many (or many-to-many) rows, scalar arrays side-table rows, and each root record's
/// position in the array goes into `__sift_index`.
///
/// A missing key and JSON null both store NULL. Values must match the attribute type (an
/// integer is accepted for a double, 0/1 for a boolean, a boolean for an integer); anything
/// else is an error naming the record and key, never a silent conversion. Keys the schema
/// does not know are ignored. A record without a primary key gets the next free integer.
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
    guard let e = schema.entity(name) else {
      throw SQLDataLoader.error("entity '\(name)' not found in the schema")
    }
    var state = State(loader: self)
    if e.primaryKeyAttribute.type == .integer {
      for r in records {
        if case .dictionary(let d) = r, case .int(let i)? = d[e.primaryKey] { state.note(e.name, i) }
      }
    }
    for (i, r) in records.enumerated() {
      _ = try state.insert(r, entity: e, index: i, parent: nil, depth: 0, path: "record \(i)")
    }
    return state.out
  }

  static func error(_ message: String) -> SiftError {
    SiftError(stage: .sql, diagnostic: Diagnostic(id: "load-error", message: message, range: .at(0)), source: "")
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

  /// Converts one JSON value for an attribute type.
  func convert(_ v: SiftValue, _ type: SQLAttributeType, _ path: String) throws(SiftError) -> SQLValue {
    switch (type.elementType, v) {
    case (_, .null): return .null
    case (.string, .string(let s)): return .text(s)
    case (.integer, .int(let i)): return .integer(i)
    case (.integer, .bool(let b)): return .integer(b ? 1 : 0)
    case (.double, .double(let d)): return .double(d)
    case (.double, .int(let i)): return .double(Double(i))
    case (.boolean, .bool(let b)): return dialect.bindBool(b)
    case (.boolean, .int(let i)) where i == 0 || i == 1: return dialect.bindBool(i == 1)
    case (.date, .date(let d)): return .double(schema.dateEncoding.encode(d))
    case (.data, .data(let d)): return .blob(d)
    default:
      throw SQLDataLoader.error("\(path): expected \(type.elementType.rawValue), found \(v.kindName)")
    }
  }

  struct State {
    let loader: SQLDataLoader
    var out: [SQLStatement] = []
    var maxKey: [String: Int64] = [:]
    var insertSQL: [String: String] = [:]

    init(loader: SQLDataLoader) { self.loader = loader }

    mutating func note(_ entity: String, _ key: Int64) {
      if key > maxKey[entity, default: 0] { maxKey[entity] = key }
    }

    mutating func nextKey(_ entity: String) -> Int64 {
      let k = maxKey[entity, default: 0] &+ 1
      maxKey[entity] = k
      return k
    }

    func q(_ s: String) -> String { loader.dialect.quoteIdentifier(s) }

    mutating func statement(_ table: String, _ columns: [String], _ values: [SQLValue]) {
      let key = table + "\u{1}" + columns.joined(separator: "\u{1}")
      let sql: String
      if let cached = insertSQL[key] {
        sql = cached
      } else {
        let marks = (1...max(columns.count, 1)).map { loader.dialect.placeholder($0) }.prefix(columns.count)
        sql = "INSERT INTO " + q(table) + " (" + columns.map(q).joined(separator: ", ") + ") VALUES ("
          + marks.joined(separator: ", ") + ")"
        insertSQL[key] = sql
      }
      out.append(SQLStatement(sql: sql, bindings: values))
    }

    mutating func insert(
      _ record: SiftValue, entity e: SQLEntity, index: Int?, parent: (column: String, key: SQLValue)?, depth: Int,
      path: String
    ) throws(SiftError) -> SQLValue {
      guard depth <= SQLDataLoader.maxDepth else { throw SQLDataLoader.error("\(path): nested deeper than \(SQLDataLoader.maxDepth)") }
      guard case .dictionary(let d) = record else {
        throw SQLDataLoader.error("\(path): expected an object for entity \(e.name), found \(record.kindName)")
      }
      var values: [String: SQLValue] = [:]
      let pkAttr = e.primaryKeyAttribute
      let pk: SQLValue
      if let v = d[pkAttr.name], !v.isNull {
        pk = try loader.convert(v, pkAttr.type, path + "." + pkAttr.name)
        if case .integer(let i) = pk { note(e.name, i) }
      } else if pkAttr.type == .integer {
        pk = .integer(nextKey(e.name))
      } else {
        throw SQLDataLoader.error("\(path): missing primary key '\(pkAttr.name)' of \(e.name)")
      }
      values[pkAttr.column] = pk
      for a in e.columnAttributes where a.name != e.primaryKey {
        values[a.column] = try loader.convert(d[a.name] ?? .null, a.type, path + "." + a.name)
      }
      for r in e.relationships {
        guard case .toOne(let fk) = r.kind, let target = loader.schema.entity(r.target), let v = d[r.name], !v.isNull
        else { continue }
        values[fk] = try insert(v, entity: target, index: nil, parent: nil, depth: depth + 1, path: path + "." + r.name)
      }
      if let parent { values[parent.column] = parent.key }
      for a in e.attributes where a.type.isArray {
        if case .array(let items)? = d[a.name] { values[SQLSchema.countColumn(a.column)] = .integer(Int64(items.count)) }
      }
      for r in e.relationships where r.isToMany {
        if case .array(let items)? = d[r.name] { values[SQLSchema.countColumn(r.name)] = .integer(Int64(items.count)) }
      }
      if let index { values[SQLSchema.indexColumn] = .integer(Int64(index)) }
      let columns = loader.columns(of: e)
      statement(e.table, columns, columns.map { values[$0] ?? .null })
      try children(d, e, pk, depth, path)
      return pk
    }

    mutating func children(
      _ d: [String: SiftValue], _ e: SQLEntity, _ pk: SQLValue, _ depth: Int, _ path: String
    ) throws(SiftError) {
      for r in e.relationships where r.isToMany {
        guard let target = loader.schema.entity(r.target), let v = d[r.name], !v.isNull else { continue }
        guard case .array(let items) = v else {
          throw SQLDataLoader.error("\(path).\(r.name): expected an array of objects, found \(v.kindName)")
        }
        for (i, item) in items.enumerated() {
          let p = "\(path).\(r.name)[\(i)]"
          switch r.kind {
          case .toMany(let inverse):
            _ = try insert(item, entity: target, index: nil, parent: (inverse, pk), depth: depth + 1, path: p)
          case .manyToMany(let table, let s, let t):
            let key = try insert(item, entity: target, index: nil, parent: nil, depth: depth + 1, path: p)
            statement(table, [s, t], [pk, key])
          case .toOne:
            break
          }
        }
      }
      for a in e.attributes where a.type.isArray {
        guard let v = d[a.name], !v.isNull else { continue }
        guard case .array(let items) = v else {
          throw SQLDataLoader.error("\(path).\(a.name): expected an array, found \(v.kindName)")
        }
        let columns = [SQLSchema.ownerColumn, SQLSchema.positionColumn, SQLSchema.valueColumn]
        for (i, item) in items.enumerated() {
          let value = try loader.convert(item, a.type, "\(path).\(a.name)[\(i)]")
          statement(e.sideTable(for: a), columns, [pk, .integer(Int64(i)), value])
        }
      }
    }
  }
}
