import Foundation
import SiftSQL
import SiftSyntax

/// Reads rows of a database Sift did not create as records for the memory engine, each value
/// in its attribute's own type (`DatabaseValues`), with the relationships a predicate names
/// followed a few levels deep: a to-one is the target's record or nil, a to-many an array of
/// records (never nil: decision 10). Used by the REPL's `.compare` on a database table.
///
/// Every statement quotes identifiers from the schema and binds every value; rows are read by
/// key in chunks, so the work follows the rows asked for, not the size of related tables.
///
/// ```swift
/// let reader = DatabaseRecordReader(db: db, follow: ["author", "tag"], depth: 2)
/// let page = try reader.firstRows(of: note, limit: 10_000)   // keys ascending, records by key
/// ```
struct DatabaseRecordReader {
  let db: ExistingDatabase
  /// Relationship names worth following (the identifiers of the predicate).
  let follow: Set<String>
  /// How many relationship hops are followed.
  let depth: Int
  /// Keys bound per statement.
  static let chunk = 500

  /// The first `limit` rows of `e` in key order, as records (relationships followed).
  func firstRows(of e: SQLEntity, limit: Int) throws -> [(key: SiftValue, record: [String: SiftValue])] {
    let rows = try db.run(try db.compiler.compile(SiftFetchRequest(entity: e.name, limit: limit, resultType: .records)))
    let attributes = e.columnAttributes
    var keys: [SiftValue] = []
    var records: [SiftValue: [String: SiftValue]] = [:]
    for row in rows {
      var r: [String: SiftValue] = [:]
      for (a, v) in zip(attributes, row) { r[a.name] = DatabaseValues.value(v, a, db.schema) }
      let key = DatabaseValues.value(row.first ?? .null, e.primaryKeyAttribute, db.schema)
      keys.append(key)
      records[key] = r
    }
    try complete(&records, of: e, keys: keys, depth: depth)
    return keys.map { ($0, records[$0] ?? [:]) }
  }

  /// The records of `e` with these keys (attributes, arrays, relationships to `depth`).
  func records(of e: SQLEntity, keys: [SiftValue], depth: Int) throws -> [SiftValue: [String: SiftValue]] {
    var records: [SiftValue: [String: SiftValue]] = [:]
    let attributes = e.columnAttributes
    for row in try select(attributes.map(\.column), from: e, where: e.primaryKeyAttribute.column, in: keys) {
      var r: [String: SiftValue] = [:]
      for (a, v) in zip(attributes, row) { r[a.name] = DatabaseValues.value(v, a, db.schema) }
      records[DatabaseValues.value(row.first ?? .null, e.primaryKeyAttribute, db.schema)] = r
    }
    try complete(&records, of: e, keys: keys.filter { records[$0] != nil }, depth: depth)
    return records
  }

  /// Adds the array attributes stored in a column and the relationships worth following.
  private func complete(
    _ records: inout [SiftValue: [String: SiftValue]], of e: SQLEntity, keys: [SiftValue], depth: Int
  ) throws {
    guard !keys.isEmpty else { return }
    let key = e.primaryKeyAttribute.column
    for a in e.attributes where a.type.isArray && a.effectiveArrayStorage != .sideTable {
      for row in try select([key, a.column], from: e, where: key, in: keys) where row.count == 2 {
        let k = DatabaseValues.value(row[0], e.primaryKeyAttribute, db.schema)
        records[k]?[a.name] = SQLColumnCodec.decode(row[1], as: a, in: db.schema)
      }
    }
    guard depth > 0 else { return }
    for r in e.relationships where follow.contains(r.name) {
      guard let target = db.schema.entity(r.target), target.hasSingleColumnKey else { continue }
      let targetKey = target.primaryKeyAttribute
      var links: [SiftValue: [SiftValue]] = [:]
      switch r.kind {
      case .toOne(let fk):
        for row in try select([key, fk], from: e, where: key, in: keys) where row.count == 2 && row[1] != .null {
          links[DatabaseValues.value(row[0], e.primaryKeyAttribute, db.schema), default: []].append(
            DatabaseValues.value(row[1], targetKey, db.schema))
        }
      case .toMany(let fk):
        // An ordered to-many in its order (Core Data's Z_FOK_…), ties and the rest by key.
        let order = (r.orderColumn.map { [$0] } ?? []) + [targetKey.column]
        for row in try select([fk, targetKey.column], from: target, where: fk, in: keys, orderBy: order)
        where row.count == 2 {
          links[DatabaseValues.value(row[0], e.primaryKeyAttribute, db.schema), default: []].append(
            DatabaseValues.value(row[1], targetKey, db.schema))
        }
      case .manyToMany(let join, let source, let other):
        let order = (r.orderColumn.map { [$0] } ?? []) + [other]
        for row in try select([source, other], fromTable: join, where: source, in: keys, orderBy: order)
        where row.count == 2 {
          links[DatabaseValues.value(row[0], e.primaryKeyAttribute, db.schema), default: []].append(
            DatabaseValues.value(row[1], targetKey, db.schema))
        }
      }
      var wanted: [SiftValue] = []
      var seen: Set<SiftValue> = []
      for k in keys { for t in links[k] ?? [] where seen.insert(t).inserted { wanted.append(t) } }
      let targets = try self.records(of: target, keys: wanted, depth: depth - 1)
      for k in keys {
        let linked = (links[k] ?? []).compactMap { targets[$0].map(SiftValue.dictionary) }
        if r.isToMany {
          records[k]?[r.name] = .array(linked)
        } else {
          records[k]?[r.name] = linked.first ?? .null
        }
      }
    }
  }

  /// `SELECT cols FROM entity's table WHERE column IN (keys…)`, chunked, within the
  /// entity's row filter (a Core Data sub-entity's `Z_ENT`).
  private func select(
    _ columns: [String], from e: SQLEntity, where column: String, in keys: [SiftValue], orderBy: [String] = []
  ) throws -> [[SQLValue]] {
    try select(columns, fromTable: e.table, where: column, in: keys, orderBy: orderBy, filter: e.rowFilter)
  }

  private func select(
    _ columns: [String], fromTable table: String, where column: String, in keys: [SiftValue], orderBy: [String] = [],
    filter: SQLRowFilter? = nil
  ) throws -> [[SQLValue]] {
    let dialect = db.dialect
    let q = dialect.quoteIdentifier
    var rows: [[SQLValue]] = []
    var start = 0
    while start < keys.count {
      let part = keys[start..<min(keys.count, start + Self.chunk)]
      start += part.count
      // PostgreSQL compares keys as text: its keys may be uuid, bigint, …, read back as text or
      // numbers, and text compares with every type's canonical text form.
      let pg = db.kind == .postgres
      var bindings = part.map { pg ? .text(DatabaseValues.keyText($0)) : DatabaseValues.binding($0) }
      let key = pg ? "CAST(" + q(column) + " AS text)" : q(column)
      var sql = "SELECT " + columns.map(q).joined(separator: ", ") + " FROM " + q(table) + " WHERE " + key + " IN ("
      sql += (1...part.count).map { dialect.placeholder($0) }.joined(separator: ", ") + ")"
      if let filter, !filter.values.isEmpty {
        sql += " AND " + q(filter.column) + " IN ("
        sql += filter.values.indices.map { dialect.placeholder(bindings.count + $0 + 1) }.joined(separator: ", ") + ")"
        bindings += filter.values.map { SQLValue.integer($0) }
      }
      if !orderBy.isEmpty { sql += " ORDER BY " + orderBy.map(q).joined(separator: ", ") }
      rows += try db.run(SQLStatement(sql: sql, bindings: bindings))
    }
    return rows
  }
}
