import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax

/// A store fixture script written to a file, then opened read-only and queried through the
/// model's plain schema: no setup statement runs on the connection.
struct StoreFixture {
  let db: SQLiteDatabase
  let mapping: CoreDataSQLMapping
  let compiler: SQLCompiler

  init(model: CoreDataModel, script: String) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-\(UUID().uuidString).sqlite").path
    try SQLiteDatabase(path: path).executeScript(try String(contentsOf: CoreDataFixtures.url(script), encoding: .utf8))
    db = try SQLiteDatabase(readOnly: path)
    try? FileManager.default.removeItem(atPath: path)  // the open connection keeps the file
    mapping = try model.sqlMapping(entityNumbers: try StoreFixture.entityNumbers(db))
    compiler = SQLCompiler(dialect: SQLiteDialect(), schema: mapping.schema)
  }

  /// `Z_NAME` → `Z_ENT` from the store's `Z_PRIMARYKEY`.
  static func entityNumbers(_ db: SQLiteDatabase) throws -> [String: Int] {
    var out: [String: Int] = [:]
    for row in try db.execute(SQLStatement(sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY")) {
      if case .text(let name) = row[0], case .integer(let n) = row[1] { out[name] = Int(n) }
    }
    return out
  }

  /// The `Z_PK`s of `entity`'s objects matching `predicate`, ascending.
  func keys(_ entity: String, _ predicate: SiftPredicate) throws -> [Int64] {
    let w = try compiler.compileWhere(predicate, entity: entity)
    let from = try compiler.fromClause(entity: entity)
    let sql = "SELECT t0.\"Z_PK\" FROM \(from) WHERE \(w.sql) ORDER BY t0.\"Z_PK\""
    return try db.execute(SQLStatement(sql: sql, bindings: w.bindings)).map { row in
      if case .integer(let n) = row[0] { return n }
      return -1
    }
  }

  func keys(_ entity: String, _ format: String, _ arguments: SiftValue...) throws -> [Int64] {
    try keys(entity, SiftPredicate(format: format, arguments: arguments))
  }
}

/// A store fixture opened through the library's `CoreDataStore` (with or without its model).
struct OpenedStore {
  let store: CoreDataStore
  let compiler: SQLCompiler

  init(script: String, model: CoreDataModel? = nil) throws {
    let path = try StoreFixture.build(script)
    defer { try? FileManager.default.removeItem(atPath: path) }  // the open connection keeps the file
    store = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model, label: "\(script) store")
    compiler = SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
  }

  /// The `Z_PK`s of `entity`'s objects matching `format`, ascending (the fetch request path).
  func keys(_ entity: String, _ format: String, _ arguments: SiftValue...) throws -> [Int64] {
    try keys(SiftFetchRequest(entity: entity, predicate: try SiftPredicate(format: format, arguments: arguments)))
  }

  func keys(_ request: SiftFetchRequest) throws -> [Int64] {
    var r = request
    r.resultType = .records
    let rows = try store.database.execute(try compiler.compile(r))
    return rows.map { if case .integer(let n) = $0[0] { return n } else { return -1 } }
  }
}

extension StoreFixture {
  /// Writes a fixture script into a new temporary SQLite file and returns its path.
  static func build(_ script: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-cd-\(UUID().uuidString).sqlite").path
    try SQLiteDatabase(path: path).executeScript(try String(contentsOf: CoreDataFixtures.url(script), encoding: .utf8))
    return path
  }
}
