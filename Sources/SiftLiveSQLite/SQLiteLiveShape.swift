import SiftSQL
import SiftSQLite
import SiftSyntax

/// How a table's rows become records named as a schema names them, for a live table watched by
/// entity (`sift watch --db FILE --entity NAME`): each attribute under its name (a Core Data
/// column `ZTITLE` as `title`), each to-one relationship as the target's record (attributes
/// only, one level), so predicates, sorts and sections use the same key paths as `sift batch
/// --db`. Edits name attributes too. An entity that shares its table with others (a row filter:
/// Core Data's sub-entities) is refused: watch its root entity.
///
/// ```swift
/// let shape = try SQLiteLiveShape(schema: try db.introspectSchema().schema, entity: "note")
/// let table = try SQLiteLiveTable(database: db, table: "note", predicate: p, sortDescriptors: [], shape: shape)
/// ```
public struct SQLiteLiveShape: Sendable {
  /// One to-one relationship: the target's row read by the foreign key.
  struct ToOne: Sendable {
    var name: String
    var foreignKey: String
    var table: String
    var key: String
    var attributes: [(column: String, name: String, codec: SQLColumnCodec)]
  }

  /// The entity's table.
  public let table: String
  /// Column → attribute name.
  let names: [String: String]
  /// Attribute name → column.
  let columns: [String: String]
  let toOnes: [ToOne]

  /// The shape of entity `entity` of `schema`.
  /// - Throws: `SiftError` (stage `.live`): no such entity, or one sharing its table (row filter).
  public init(schema: SQLSchema, entity name: String) throws(SiftError) {
    guard let e = schema.entity(name) else {
      throw SiftError.live("no entity '\(name)' (entities: \(schema.entityNames.joined(separator: ", ")))")
    }
    guard e.rowFilter == nil else {
      throw SiftError.live(
        "\(e.name) shares table '\(e.table)' with other entities (\(e.rowFilter?.column ?? "")); watch the table's root entity"
      )
    }
    table = e.table
    var names: [String: String] = [:]
    var columns: [String: String] = [:]
    for a in e.attributes where !a.type.isArray {
      names[a.column] = a.name
      columns[a.name] = a.column
    }
    self.names = names
    self.columns = columns
    var toOnes: [ToOne] = []
    for r in e.relationships {
      guard case .toOne(let fk) = r.kind, let target = schema.entity(r.target), target.hasSingleColumnKey else {
        continue
      }
      let attributes = target.attributes.filter { !$0.type.isArray }.map { a in
        (column: a.column, name: a.name, codec: SQLColumnCodec(a, schema: schema, dialect: SQLiteDialect()))
      }
      toOnes.append(
        ToOne(
          name: r.name, foreignKey: fk, table: target.table, key: target.primaryKeyAttribute.column,
          attributes: attributes))
    }
    self.toOnes = toOnes
  }

  /// The name a column's value has in a record.
  func name(of column: String) -> String { names[column] ?? column }

  /// The column an edit's name writes (an attribute name, or a column the schema does not name).
  func column(of name: String) -> String { columns[name] ?? name }

  /// A row's record (`raw`: column → value) as the schema names it, to-ones included.
  func record(_ raw: [String: SiftValue], raw rawValues: [String: SQLValue], db: SQLiteDatabase) -> [String: SiftValue]
  {
    var out: [String: SiftValue] = [:]
    for (column, value) in raw { out[name(of: column)] = value }
    for t in toOnes {
      guard let fk = rawValues[t.foreignKey], fk != .null else {
        out[t.name] = .null
        continue
      }
      let q = SQLiteDialect().quoteIdentifier
      let sql =
        "SELECT " + t.attributes.map { q($0.column) }.joined(separator: ", ") + " FROM " + q(t.table)
        + " WHERE " + q(t.key) + " = ?"
      guard let row = (try? db.execute(SQLStatement(sql: sql, bindings: [fk])))?.first else {
        out[t.name] = .null
        continue
      }
      var target: [String: SiftValue] = [:]
      for (a, v) in zip(t.attributes, row) { target[a.name] = a.codec.decode(v) }
      out[t.name] = .dictionary(target)
    }
    return out
  }
}

extension SQLiteLiveTable {
  /// An edit whose names are attribute names, with columns instead (unchanged without a shape).
  func columnNamed(_ edit: Edit) -> Edit {
    guard let shape else { return edit }
    func columns(_ r: [String: SiftValue]) -> [String: SiftValue] {
      Dictionary(r.map { (shape.column(of: $0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
    }
    switch edit {
    case .insert(let r): return .insert(columns(r))
    case .update(let id, let set): return .update(id, set: columns(set))
    case .delete: return edit
    }
  }
}
