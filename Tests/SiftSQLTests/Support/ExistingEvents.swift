import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The `event` fixture of a database Sift did not make (Tests/Fixtures/existing/events.*):
/// the same objects hand-written for SQLite and PostgreSQL and as JSON for memory, each
/// engine with its own schema (layout `.existing`: per-column date encodings, JSON and
/// native arrays, `numeric`, `uuid`). Answers are the matching events' ids, ascending.
/// Shared by parallel tests: every database use holds `lock`.
final class ExistingEvents: @unchecked Sendable {
  private let lock = NSLock()
  let memory: [SiftObject]
  let ids: [Int]
  let sqlite: SQLiteDatabase
  let sqliteCompiler: SQLCompiler
  let postgres: PostgresDatabase?
  let postgresCompiler: SQLCompiler
  private let dir: URL

  /// The schema for one engine. SQLite keeps every date in a column of its own encoding and
  /// arrays as JSON text; PostgreSQL has native `date`/`timestamptz`/`timestamp`, arrays and
  /// `jsonb`, `numeric` and `uuid`.
  static func schema(postgres: Bool) throws -> SQLSchema {
    func date(_ name: String, _ lite: SQLDateEncoding, _ pg: SQLDateEncoding, liteType: String, pgType: String)
      -> SQLAttribute
    {
      SQLAttribute(
        name: name, type: .date, nativeType: postgres ? pgType : liteType, dateEncoding: postgres ? pg : lite)
    }
    func array(_ name: String, _ type: SQLAttributeType, pgType: String, json: Bool = false) -> SQLAttribute {
      SQLAttribute(
        name: name, type: type, nativeType: postgres ? pgType : "JSON",
        arrayStorage: postgres && !json ? .nativeArray : .json)
    }
    let event = SQLEntity(
      name: "event", table: "event",
      attributes: [
        SQLAttribute(name: "id", type: .integer, isNullable: false),
        SQLAttribute(name: "title", type: .string, isNullable: false),
        SQLAttribute(name: "venue_id", type: .integer),
        date("at_unix", .unixSeconds, .unixSeconds, liteType: "REAL", pgType: "double precision"),
        date("at_unix_int", .unixSeconds, .unixSeconds, liteType: "INTEGER", pgType: "bigint"),
        date("at_2001", .referenceDateSeconds, .referenceDateSeconds, liteType: "REAL", pgType: "double precision"),
        date("at_ms", .unixMilliseconds, .unixMilliseconds, liteType: "INTEGER", pgType: "bigint"),
        date("at_iso", .iso8601, .iso8601, liteType: "TEXT", pgType: "text"),
        date("at_sqlite", .sqliteDateTime, .sqliteDateTime, liteType: "DATETIME", pgType: "text"),
        date("on_day", .isoDate, .native, liteType: "DATE", pgType: "date"),
        date("at_tz", .iso8601, .native, liteType: "TIMESTAMP", pgType: "timestamp with time zone"),
        date("at_ts", .sqliteDateTime, .native, liteType: "DATETIME", pgType: "timestamp without time zone"),
        array("tags", .stringArray, pgType: "text[]"),
        array("scores", .integerArray, pgType: "integer[]"),
        array("weights", .doubleArray, pgType: "double precision[]"),
        array("jtags", .stringArray, pgType: "jsonb", json: true),
        SQLAttribute(name: "price", type: .double, nativeType: postgres ? "numeric(10,2)" : "NUMERIC(10, 2)"),
        SQLAttribute(name: "flag", type: .boolean, nativeType: postgres ? "boolean" : "BOOLEAN"),
        SQLAttribute(name: "code", type: .string, nativeType: postgres ? "uuid" : "TEXT"),
        SQLAttribute(name: "blob", type: .data, nativeType: postgres ? "bytea" : "BLOB"),
      ],
      relationships: [
        SQLRelationship(name: "venue", target: "venue", kind: .toOne(foreignKey: "venue_id")),
        SQLRelationship(name: "tickets", target: "ticket", kind: .toMany(inverseForeignKey: "event_id")),
        SQLRelationship(
          name: "performers", target: "performer",
          kind: .manyToMany(joinTable: "event_performer", sourceColumn: "event_id", targetColumn: "performer_id")),
      ])
    let venue = SQLEntity(name: "venue", attributes: [SQLAttribute(name: "name", type: .string)])
    let ticket = SQLEntity(
      name: "ticket",
      attributes: [SQLAttribute(name: "seat", type: .string), SQLAttribute(name: "event_id", type: .integer)],
      relationships: [SQLRelationship(name: "event", target: "event", kind: .toOne(foreignKey: "event_id"))])
    let performer = SQLEntity(name: "performer", attributes: [SQLAttribute(name: "name", type: .string)])
    return try SQLSchema(entities: [event, venue, ticket, performer], layout: .existing)
  }

  init(usePostgres: Bool = true) throws {
    let records = try SiftJSON.parse(SQLFixtures.text("existing/events.json"))
    guard case .array(let list) = records else { throw SQLiteFixtureError("events.json is not an array") }
    memory = try JSONRecords.records(from: records)
    ids = list.map { v in
      if case .dictionary(let d) = v, case .int(let i)? = d["id"] { return Int(i) }
      return -1
    }
    dir = try scratchDirectory("sift-existing")
    let path = dir.appendingPathComponent("events.sqlite").path
    try SQLiteDatabase(path: path).executeScript(SQLFixtures.text("existing/events.sqlite.sql"))
    sqlite = try SQLiteDatabase(readOnly: path)
    sqliteCompiler = SQLCompiler(dialect: SQLiteDialect(), schema: try ExistingEvents.schema(postgres: false))
    postgresCompiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try ExistingEvents.schema(postgres: true))
    if usePostgres, PostgresTestServer.isAvailable {
      let pg = try PostgresTestServer.open()
      try pg.run(SQLFixtures.text("existing/events.postgres.sql"))
      postgres = pg
    } else {
      postgres = nil
    }
  }

  deinit {
    postgres?.close()
    try? FileManager.default.removeItem(at: dir)
  }

  /// Runs `body` holding the lock every database use holds.
  func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// The databases with their compilers (PostgreSQL when a server is reachable); use them
  /// inside `locked`.
  func databases() -> [(String, SQLCompiler, any SQLDatabase)] {
    var out: [(String, SQLCompiler, any SQLDatabase)] = [("sqlite", sqliteCompiler, sqlite)]
    if let postgres { out.append(("postgresql", postgresCompiler, postgres)) }
    return out
  }

  /// `SELECT t0."id" FROM "event" t0 WHERE … ORDER BY t0."id"` for `p`.
  static func statement(_ p: SiftPredicate, _ compiler: SQLCompiler) throws -> SQLStatement {
    let w = try compiler.compileWhere(p, entity: "event")
    return SQLStatement(
      sql: "SELECT t0.\"id\" FROM \"event\" t0 WHERE \(w.sql) ORDER BY t0.\"id\"", bindings: w.bindings)
  }

  /// Memory, SQLite and PostgreSQL (nil without a server) answers for `p`.
  func answers(_ p: SiftPredicate) -> (memory: String, sqlite: String, postgres: String?) {
    lock.lock()
    defer { lock.unlock() }
    let mem: String
    do {
      mem = "\(try p.compile().matchingIndices(memory).map { ids[$0] })"
    } catch {
      mem = "error"
    }
    func run(_ compiler: SQLCompiler, _ db: any SQLDatabase) -> String {
      do {
        let rows = try db.execute(try ExistingEvents.statement(p, compiler))
        return "\(rows.compactMap { $0.first?.intValue.map { Int($0) } })"
      } catch {
        return "error: \(error)"
      }
    }
    return (mem, run(sqliteCompiler, sqlite), postgres.map { run(postgresCompiler, $0) })
  }
}

struct SQLiteFixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}
