import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The SQL half of `sift batch`: compiles each case for the schema's entity and, when records
/// were given, runs it against an in-memory SQLite database loaded with them (and PostgreSQL
/// with `--postgres`). Records that are plain values (`["Do", "Re"]`) are not rows: each case
/// then reports `"sqlSkipped"` with the reason instead of `"sqlMatches"`/`"pgMatches"`.
final class BatchSQL {
  struct Failure: Error, CustomStringConvertible { var description: String }

  let compiler: SQLCompiler
  let entity: String
  let sqlite: SQLiteDatabase?
  let postgres: PostgresDatabase?
  let postgresCompiler: SQLCompiler?
  /// Why the records were not loaded into SQL (some record is not an object), if so.
  let notRows: String?

  init(
    schemaPath: String, entity: String, postgres conninfo: String?, records: [SiftValue]?, notRows: String? = nil
  ) throws {
    let schema = try CommandInputs.schema(schemaPath)
    guard schema.entity(entity) != nil else {
      let names = schema.entities.keys.sorted()
      var message = "entity '\(entity)' is not in \(schemaPath) (entities: \(names.joined(separator: ", ")))"
      if let s = Spelling.closest(to: entity, in: names) { message += "; did you mean '\(s)'?" }
      throw Failure(description: message)
    }
    self.entity = entity
    compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    self.notRows = notRows
    if let records, notRows == nil {
      let db = try SQLiteDatabase()
      try db.load(records, entity: entity, schema: schema, dialect: SQLiteDialect())
      sqlite = db
    } else {
      sqlite = nil
    }
    if let conninfo, notRows == nil {
      guard let records else { throw CommandInputs.Failure.usage("--postgres needs --data to load the records") }
      let db = try PostgresDatabase.prepared(conninfo: conninfo, schema: .temporary(prefix: "sift_batch"))
      try db.load(records, entity: entity, schema: schema, dialect: PostgreSQLDialect())
      postgres = db
      postgresCompiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    } else {
      postgres = nil
      postgresCompiler = nil
    }
  }

  /// Adds `"sql"` (the records' SELECT, sorted and paged as the case asks), `"bindings"`,
  /// `"sqlMatches"` (and `"pgMatches"`): record indices in the fetch's order.
  func process(
    _ predicate: SiftPredicate, _ fetch: BatchFetch = BatchFetch(), timeLimit: Int? = nil,
    into out: inout [String: SiftValue]
  ) throws(SiftError) {
    let statement = try compiler.compile(fetch.request(entity, predicate, .records))
    out["sql"] = .string(statement.sql)
    out["bindings"] = .array(statement.bindings.map(\.siftValue))
    if let notRows { out["sqlSkipped"] = .string("the records are not SQL rows: \(notRows)") }
    let indices = fetch.request(entity, predicate, .indices)
    if let sqlite {
      let st = try compiler.compile(indices)
      out["sqlMatches"] = .array(
        try run {
          let rows =
            try timeLimit.map { ms throws(SiftError) in try sqlite.execute(st, timeLimit: ms) } ?? sqlite.execute(st)
          return rows.compactMap { $0.first?.intValue.map { Int($0) } }
        })
    }
    if let postgres, let postgresCompiler {
      let st = try postgresCompiler.compile(indices)
      out["pgMatches"] = .array(
        try run {
          let rows =
            try timeLimit.map { ms throws(SiftError) in try postgres.execute(st, timeLimit: ms) }
            ?? postgres.execute(st)
          return rows.compactMap { $0.first?.intValue.map { Int($0) } }
        })
    }
  }

  private func run(_ body: () throws -> [Int]) throws(SiftError) -> [SiftValue] {
    do {
      return try body().map { .int(Int64($0)) }
    } catch let e as SiftError {
      throw e
    } catch {
      throw SiftError(
        stage: .sql,
        diagnostic: SiftDiagnostic(id: .databaseError, message: "\(error)", range: .at(0)), source: "")
    }
  }
}

extension BatchContext {
  /// Sets up SQL compilation when `--schema` and `--entity` are given.
  mutating func configureSQL(schema: String?, entity: String?, postgres: String?) throws {
    guard schema != nil || entity != nil || postgres != nil else { return }
    guard let schema, let entity else {
      throw CommandInputs.Failure.usage("--schema and --entity go together")
    }
    let notRows = data?.notRowsReason
    if let notRows { CLIOutput.error("sift batch: SQL matches skipped: the records are not SQL rows (\(notRows))") }
    sql = try BatchSQL(schemaPath: schema, entity: entity, postgres: postgres, records: data?.values, notRows: notRows)
  }
}

extension SQLValue {
  /// The JSON form used in `"bindings"`: blobs as `{"$data": base64}`.
  var siftValue: SiftValue { SQLColumnCodec.plain(self) }
}

extension CommandInputs {
  /// Loads a schema JSON file (format in README.md).
  static func schema(_ path: String) throws -> SQLSchema {
    let text = try CommandInputs.text(path)
    do {
      return try SQLSchema(json: text)
    } catch {
      throw Failure(description: "\(path): \(error.diagnostic.message)")
    }
  }
}
