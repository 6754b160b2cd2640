import Foundation
import SiftColumnar
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The SQL back ends of a session: one SQLite database in memory (a file `.open` names is
/// opened read-only on its own, `ExistingDatabase`) and optionally a PostgreSQL connection. A data set is copied into a database the
/// first time a command needs it there (`.engine`, `.compare`, `.plan`, a query on an SQL
/// engine), so loading a large file costs no SQL inserts until SQL is used.
struct REPLSQLState {
  /// The SQLite database.
  var sqlite: SQLiteDatabase?
  /// The connected PostgreSQL database (a temporary schema).
  var postgres: PostgresDatabase?
  /// Schema per entity (the sample schema for venues/notes, inferred ones for loaded files).
  var schemas: [String: SQLSchema] = [:]
  /// Why an entity is not in SQL.
  var problems: [String: String] = [:]
  /// Entities whose records are in the SQLite database.
  var inSQLite: Set<String> = []
  /// Entities whose records are in the PostgreSQL schema.
  var inPostgres: Set<String> = []
  /// A database Sift did not create, opened read-only (`--db`, `.open`, `--pg-schema`): its
  /// tables are entities queried in place.
  var existing: ExistingDatabase?
  /// `sift --db FILE --write`: `.insert`, `.update` and `.delete` under `.watch` write to the
  /// watched table (queries still use the read-only connection).
  var writable = false
  /// Rows `.compare` reads from a database table at most (a larger table is compared on its
  /// first rows by key, and the answer says so).
  var compareSample = 10_000
}

extension REPLSession {
  /// Adds a data set (replacing one of the same name) and works out its SQL schema; the
  /// records are copied into SQL later, on first use. Returns a note when the data set
  /// cannot go into SQL.
  func add(_ set: REPLDataSet, schemaPath: String?) -> String? {
    if let i = dataSets.firstIndex(where: { $0.name == set.name }) {
      dataSets[i] = set
      dropSQLCopies(of: set.name)
    } else {
      dataSets.append(set)
    }
    if entity.isEmpty { entity = set.name }
    sql.problems[set.name] = nil
    sql.schemas[set.name] = nil
    do {
      sql.schemas[set.name] = try REPLSchemaInference.schema(for: set, path: schemaPath)
      if sql.sqlite == nil { sql.sqlite = try SQLiteDatabase() }
      return nil
    } catch {
      let text = (error as? SiftError).map { $0.diagnostic.message } ?? "\(error)"
      sql.problems[set.name] = text
      return "not loaded into SQL: \(text)"
    }
  }

  /// Drops the tables an entity was copied into, so that a replaced data set is copied afresh.
  func dropSQLCopies(of name: String) {
    guard let schema = sql.schemas[name], let own = REPLSession.entitySchema(name, in: schema) else { return }
    if sql.inSQLite.remove(name) != nil, let db = sql.sqlite {
      for s in SQLDDL(schema: own, dialect: SQLiteDialect()).dropStatements() { try? db.executeScript(s) }
    }
    if sql.inPostgres.remove(name) != nil, let pg = sql.postgres {
      for s in SQLDDL(schema: own, dialect: PostgreSQLDialect()).dropStatements() { try? pg.executeScript(s) }
    }
  }

  /// Copies the current records of `set` into the database behind `kind`, unless they are
  /// there already. Reports a progress line for large copies.
  func ensureInSQL(_ set: REPLDataSet, _ kind: REPLEngineKind) throws {
    guard kind != .memory else { return }
    if let p = sql.problems[set.name] { throw REPLDataError("'\(set.name)' is not in SQL: \(p)") }
    guard let schema = sql.schemas[set.name] else { throw REPLDataError("'\(set.name)' has no SQL schema") }
    if kind == .postgres ? sql.inPostgres.contains(set.name) : sql.inSQLite.contains(set.name) { return }
    let db = try database(kind)
    if set.count >= 50_000, let progress {
      progress(
        "copying \(set.count) records of '\(set.name)' into \(kind == .postgres ? "PostgreSQL" : "SQLite") (first use)…"
      )
    }
    do {
      let dialect: any SQLDialect = kind == .postgres ? PostgreSQLDialect() : SQLiteDialect()
      // The records stream into SQL as they are read, one key at a time from the columns or
      // the objects: none is converted back to a whole dictionary.
      if let columns = set.columns {
        try db.load(ColumnarLoadRecord.all(columns), entity: set.name, schema: schema, dialect: dialect)
      } else if let objects = set.objects {
        try db.load(objects.lazy.map(ObjectLoadRecord.init), entity: set.name, schema: schema, dialect: dialect)
      } else {
        try db.load(set.records, entity: set.name, schema: schema, dialect: dialect)
      }
      if kind == .postgres { sql.inPostgres.insert(set.name) } else { sql.inSQLite.insert(set.name) }
    } catch {
      // The records do not fit the schema (inferred from the first records): memory only.
      sql.problems[set.name] = error.diagnostic.message
      throw REPLDataError("'\(set.name)' is not in SQL: \(error.diagnostic.message)")
    }
  }

  /// The part of `schema` that `name` needs: the entity and everything it reaches.
  static func entitySchema(_ name: String, in schema: SQLSchema) -> SQLSchema? {
    var names: [String] = []
    var pending = [name]
    while let next = pending.popLast() {
      guard !names.contains(next), let e = schema.entity(next) else { continue }
      names.append(next)
      pending += e.relationships.map(\.target)
    }
    return try? SQLSchema(entities: names.compactMap { schema.entity($0) }, dateEncoding: schema.dateEncoding)
  }

  /// Why an engine cannot be used for the current entity right now, or nil.
  func sqlAvailability(_ kind: REPLEngineKind) -> String? {
    if kind == .memory { return nil }
    if let p = sql.problems[entity] { return "'\(entity)' is not in SQL: \(p)" }
    if kind == .postgres && sql.postgres == nil { return "not connected to PostgreSQL; use .connect CONNINFO" }
    if kind == .sqlite && sql.sqlite == nil { return "no SQLite database" }
    return nil
  }

  func sqlStatusLine(_ kind: REPLEngineKind) -> String {
    switch kind {
    case .memory: return "ready"
    case .sqlite: return sql.sqlite == nil ? "none" : "in memory"
    case .postgres: return sql.postgres.map { "connected (schema \($0.schemaName ?? "public"))" } ?? "not connected"
    }
  }

  func compiler(_ dialect: REPLDialect, for set: REPLDataSet) throws -> SQLCompiler {
    guard let schema = sql.schemas[set.name] else {
      throw REPLDataError(
        sql.problems[set.name].map { "'\(set.name)' is not in SQL: \($0)" } ?? "'\(set.name)' has no SQL schema")
    }
    return SQLCompiler(dialect: dialect == .postgres ? PostgreSQLDialect() : SQLiteDialect(), schema: schema)
  }

  func database(_ kind: REPLEngineKind) throws -> any SQLDatabase {
    if let problem = sqlAvailability(kind) { throw REPLDataError(problem) }
    if kind == .postgres, let pg = sql.postgres { return pg }
    guard let db = sql.sqlite else { throw REPLDataError("no SQLite database") }
    return db
  }

  /// The fetch request for the session's sort, limit and offset.
  func request(_ predicate: SiftPredicate, _ set: REPLDataSet, _ type: SiftFetchRequest.ResultType, paged: Bool)
    -> SiftFetchRequest
  {
    SiftFetchRequest(
      entity: set.name, predicate: predicate,
      sortDescriptors: type == .count ? [] : sort,
      limit: paged ? limit : nil, offset: paged && offset > 0 ? offset : nil, resultType: type)
  }

  func sqlMatches(_ predicate: SiftPredicate, in set: REPLDataSet, engine: REPLEngineKind) throws -> REPLFetchResult {
    let kind: REPLDialect = engine == .postgres ? .postgres : .sqlite
    let c = try compiler(kind, for: set)
    try ensureInSQL(set, engine)
    let db = try database(engine)
    let rows = try db.execute(try c.compile(request(predicate, set, .indices, paged: false)))
    let indices = rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } }
      .filter { $0 >= 0 && $0 < set.count }
    return REPLFetchResult(indices: indices, total: indices.count, interrupted: false, scanned: set.count)
  }
}

/// A record in SiftEvaluation's object form as the SQL loader reads it: key by key, each value
/// converted on its own.
struct ObjectLoadRecord: SQLLoadRecord {
  let object: SiftObject
  var sqlLoadKind: String? { nil }
  func sqlLoadValue(forKey key: String) -> SiftValue? { object.value(forKey: key) }
}

/// Record `row` of records held as columns, for the loader: each value read from its column
/// as the loader asks for it. (Through `SiftColumnarRecords.object(at:)` every record was
/// first built whole as a dictionary and then as a `SiftObject`: 4.7 of the 6.3 s a copy of
/// 200,000 venues took, `sqlite_copy_vs_baseline` 0.22-0.25, issue 35.)
/// The records of one copy share a `ColumnarKeyReader`, which finds each key's column once per
/// copy rather than once per value.
struct ColumnarLoadRecord: SQLLoadRecord {
  let reader: ColumnarKeyReader
  let row: Int
  var sqlLoadKind: String? { nil }
  func sqlLoadValue(forKey key: String) -> SiftValue? { reader.value(forKey: key, at: row) }

  /// Every record of `columns`, in order (for one copy at a time: the reader is not shared
  /// between threads).
  static func all(_ columns: SiftColumnarRecords) -> ColumnarLoadRecords {
    ColumnarLoadRecords(reader: ColumnarKeyReader(columns), count: columns.count)
  }
}

/// The records of a columnar data set as the SQL loader reads them, with an iterator of its
/// own. (The loader iterates them generically, unspecialized: over `(0..<n).lazy.map`, the
/// standard library's generic iterators and their metadata lookups took 2,500 instructions a
/// record, half the time making the rows; callgrind, issue 35.)
struct ColumnarLoadRecords: RandomAccessCollection {
  struct Iterator: IteratorProtocol {
    let reader: ColumnarKeyReader
    let count: Int
    var row = 0
    mutating func next() -> ColumnarLoadRecord? {
      guard row < count else { return nil }
      defer { row += 1 }
      return ColumnarLoadRecord(reader: reader, row: row)
    }
  }

  let reader: ColumnarKeyReader
  let count: Int
  var startIndex: Int { 0 }
  var endIndex: Int { count }
  subscript(row: Int) -> ColumnarLoadRecord { ColumnarLoadRecord(reader: reader, row: row) }
  func makeIterator() -> Iterator { Iterator(reader: reader, count: count) }
}

/// Lets helpers return an early response through `Result`.
extension REPLResponse: Error {}
