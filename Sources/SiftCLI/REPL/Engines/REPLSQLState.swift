import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The SQL back ends of a session: one SQLite database (in memory unless `.open` names a
/// file) holding every data set that has a schema, and optionally a PostgreSQL connection.
struct REPLSQLState {
  /// The SQLite database.
  var sqlite: SQLiteDatabase?
  /// The connected PostgreSQL database (a temporary schema).
  var postgres: PostgresDatabase?
  /// Schema per entity (the sample schema for venues/notes, inferred ones for loaded files).
  var schemas: [String: SQLSchema] = [:]
  /// Why an entity is not in SQL.
  var problems: [String: String] = [:]
  /// The SQLite file, when not in memory.
  var sqlitePath = ":memory:"
}

extension REPLSession {
  /// Adds a data set (replacing one of the same name) and loads it into the SQL databases.
  /// Returns a note when it could not be loaded into SQL.
  func add(_ set: REPLDataSet, schemaPath: String?) -> String? {
    if let i = dataSets.firstIndex(where: { $0.name == set.name }) { dataSets[i] = set } else { dataSets.append(set) }
    if entity.isEmpty { entity = set.name }
    sql.problems[set.name] = nil
    do {
      let schema = try REPLSchemaInference.schema(for: set, path: schemaPath)
      sql.schemas[set.name] = schema
      if sql.sqlite == nil { sql.sqlite = try SQLiteDatabase(path: sql.sqlitePath) }
      if let db = sql.sqlite { try db.load(set.records, entity: set.name, schema: schema, dialect: SQLiteDialect()) }
      if let pg = sql.postgres { try pg.load(set.records, entity: set.name, schema: schema, dialect: PostgreSQLDialect()) }
      return nil
    } catch {
      let text = (error as? SiftError).map { $0.diagnostic.message } ?? "\(error)"
      sql.problems[set.name] = text
      return "not loaded into SQL: \(text)"
    }
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
    case .sqlite: return sql.sqlite == nil ? "none" : (sql.sqlitePath == ":memory:" ? "in memory" : sql.sqlitePath)
    case .postgres: return sql.postgres.map { "connected (schema \($0.schemaName ?? "public"))" } ?? "not connected"
    }
  }

  func compiler(_ dialect: REPLDialect, for set: REPLDataSet) throws -> SQLCompiler {
    guard let schema = sql.schemas[set.name] else {
      throw REPLDataError(sql.problems[set.name].map { "'\(set.name)' is not in SQL: \($0)" } ?? "'\(set.name)' has no SQL schema")
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
  func request(_ predicate: SiftPredicate, _ set: REPLDataSet, _ type: FetchRequest.ResultType, paged: Bool) -> FetchRequest {
    FetchRequest(
      entity: set.name, predicate: predicate,
      sortDescriptors: type == .count ? [] : sort.map { SQLSortDescriptor($0.keyPath, ascending: $0.ascending) },
      limit: paged ? limit : nil, offset: paged && offset > 0 ? offset : nil, resultType: type)
  }

  func sqlMatches(_ predicate: SiftPredicate, in set: REPLDataSet, engine: REPLEngineKind) throws -> REPLFetchResult {
    let kind: REPLDialect = engine == .postgres ? .postgres : .sqlite
    let c = try compiler(kind, for: set)
    let db = try database(engine)
    let rows = try db.execute(try c.compile(request(predicate, set, .indices, paged: false)))
    let indices = rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } }
      .filter { $0 >= 0 && $0 < set.records.count }
    return REPLFetchResult(indices: indices, total: indices.count, interrupted: false, scanned: set.records.count)
  }

  /// Prepared predicate plus data set, or the failure response.
  func sqlInputs(_ arg: String, usage: String) -> Result<(SiftPredicate, REPLDataSet), REPLResponse> {
    guard let text = predicateText(arg) else { return .failure(.failure(errorLine("usage: \(usage)"))) }
    guard let set = current else { return .failure(.failure(errorLine("no entity loaded"))) }
    switch prepare(text) {
    case .success(let p):
      lastPredicate = text
      return .success((p, set))
    case .failure(let e): return .failure(.failure(render(e)))
    }
  }

  func showSQL(_ arg: String) -> REPLResponse {
    let inputs: (SiftPredicate, REPLDataSet)
    switch sqlInputs(arg, usage: ".sql PREDICATE") {
    case .success(let v): inputs = v
    case .failure(let r): return r
    }
    do {
      let st = try compiler(dialect, for: inputs.1).compile(request(inputs.0, inputs.1, .records, paged: true))
      var out = warnings(inputs.0) + style.cyan(st.sql) + "\n"
      if !st.bindings.isEmpty {
        out += style.dim("bindings:") + " " + st.bindings.enumerated().map { "\(dialect == .postgres ? "$\($0.offset + 1)" : "?\($0.offset + 1)")=\($0.element)" }.joined(separator: ", ") + "\n"
      }
      return .ok(out)
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  func showPlan(_ arg: String) -> REPLResponse {
    let inputs: (SiftPredicate, REPLDataSet)
    switch sqlInputs(arg, usage: ".plan PREDICATE") {
    case .success(let v): inputs = v
    case .failure(let r): return r
    }
    do {
      guard let db = sql.sqlite else { return .failure(errorLine("no SQLite database")) }
      let st = try compiler(.sqlite, for: inputs.1).compile(request(inputs.0, inputs.1, .records, paged: true))
      return .ok(try db.explainQueryPlan(st).map { "  " + $0 }.joined(separator: "\n") + "\n")
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  func connect(_ arg: String) -> REPLResponse {
    guard !arg.isEmpty else { return .failure(errorLine("usage: .connect CONNINFO   e.g. .connect host=127.0.0.1 dbname=sift user=sift")) }
    do {
      sql.postgres?.close()
      sql.postgres = nil
      let pg = try PostgresDatabase.prepared(conninfo: arg, schema: .temporary(prefix: "sift_repl"))
      for set in dataSets {
        guard let schema = sql.schemas[set.name] else { continue }
        try pg.load(set.records, entity: set.name, schema: schema, dialect: PostgreSQLDialect())
      }
      sql.postgres = pg
      return .ok("connected; \(dataSets.filter { sql.schemas[$0.name] != nil }.count) entities copied to schema \(pg.schemaName ?? "public")\n")
    } catch {
      return .failure(errorLine("cannot connect to PostgreSQL: \(error)"))
    }
  }

  /// `.open FILE`: use FILE as the SQLite database and load every data set into it.
  func open(_ arg: String) -> REPLResponse {
    guard let path = REPLSession.splitWords(arg).first else { return .failure(errorLine("usage: .open FILE.sqlite")) }
    let full = (path as NSString).expandingTildeInPath
    do {
      let db = try SQLiteDatabase(path: full)
      sql.sqlite = db
      sql.sqlitePath = full
      var loaded = 0
      for set in dataSets {
        guard let schema = sql.schemas[set.name] else { continue }
        try db.load(set.records, entity: set.name, schema: schema, dialect: SQLiteDialect())
        loaded += 1
      }
      return .ok("SQLite database: \(full) (\(loaded) entities loaded)\n")
    } catch let e as SiftError {
      return .failure(errorLine(e.diagnostic.message))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }
}

/// Lets helpers return an early response through `Result`.
extension REPLResponse: Error {}
