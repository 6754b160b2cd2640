import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// One engine's answer: the matching record indices, or an error (compile or run time).
enum EngineOutcome: Equatable, CustomStringConvertible {
  case matches([Int])
  case failed(String)

  var description: String {
    switch self {
    case .matches(let m): return "\(m.count) matches"
    case .failed(let message): return "error: " + message.split(separator: "\n").prefix(3).joined(separator: " | ")
    }
  }

  /// Two outcomes agree when both match the same records, or both refuse with the same
  /// diagnostic id (`RefusalIDs.agree`).
  func agrees(with other: EngineOutcome) -> Bool {
    switch (self, other) {
    case (.matches(let a), .matches(let b)): return a == b
    case (.failed(let a), .failed(let b)): return RefusalIDs.agree(a, b)
    default: return false
    }
  }
}

/// The rule the differential tests hold refusals to (Grammar/notes/errors.md, "Same
/// condition, same id"): when memory and SQL both refuse, they name the condition with one id.
/// A failure the database raised while running the statement (`sqlite-error`,
/// `postgres-query`) carries the database's words (a `sift_*` function's error, "bigint out of
/// range"), not Sift's id, and agrees with any refusal.
enum RefusalIDs {
  /// Ids that report the database's own run-time failure.
  static let databaseRunTime: Set<String> = ["sqlite-error", "postgres-query", "mysql-query"]

  /// The id of a failure written as "id: message".
  static func id(_ failure: String) -> String { String(failure.prefix { $0 != ":" }) }

  /// Do two failures, each "id: message", name the same condition?
  static func agree(_ a: String, _ b: String) -> Bool {
    let x = id(a), y = id(b)
    return x == y || databaseRunTime.contains(x) || databaseRunTime.contains(y)
  }
}

/// The same records loaded three ways — in memory, SQLite, PostgreSQL (when `SIFT_POSTGRES`
/// reaches a server) — and a predicate run against all of them. `check` returns a readable
/// report when the engines disagree: the predicate, each engine's outcome, the SQL and
/// bindings per dialect, the differing indices and those records.
final class ThreeWay {
  let entity: String
  let records: [SiftValue]
  let memory: [SiftObject]
  let sqlite: SQLiteDatabase
  let sqliteCompiler: SQLCompiler
  let postgres: PostgresDatabase?
  let postgresCompiler: SQLCompiler

  init(schema: SQLSchema, entity: String, records: [SiftValue], usePostgres: Bool = true) throws {
    self.entity = entity
    self.records = records
    memory = try JSONRecords.records(from: .array(records))
    sqlite = try SQLiteDatabase()
    sqliteCompiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    try sqlite.load(records, entity: entity, schema: schema, dialect: SQLiteDialect())
    postgresCompiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    if usePostgres, PostgresTestServer.isAvailable {
      let pg = try PostgresTestServer.open()
      try pg.load(records, entity: entity, schema: schema, dialect: PostgreSQLDialect())
      postgres = pg
    } else {
      postgres = nil
    }
  }

  deinit { postgres?.close() }

  /// The three outcomes for an already parsed predicate.
  func outcomes(_ p: SiftPredicate) -> (memory: EngineOutcome, sqlite: EngineOutcome, postgres: EngineOutcome?) {
    let mem: EngineOutcome
    do {
      mem = .matches(try p.compile().matchingIndices(memory))
    } catch {
      mem = .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
    let lite = ThreeWay.run(p, entity, sqliteCompiler, sqlite)
    let pg = postgres.map { ThreeWay.run(p, entity, postgresCompiler, $0) }
    return (mem, lite, pg)
  }

  private static func run(
    _ p: SiftPredicate, _ entity: String, _ compiler: SQLCompiler, _ db: any SQLDatabase
  ) -> EngineOutcome {
    do {
      let statement = try compiler.compileMatchingIndices(p, entity: entity)
      let rows = try db.execute(statement)
      return .matches(rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } })
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }

  /// nil when all engines agree; otherwise a report of the disagreement and its known-gap
  /// classification (nil when it is not a known gap).
  func check(
    _ p: SiftPredicate, label: String,
    given: (memory: EngineOutcome, sqlite: EngineOutcome, postgres: EngineOutcome?)? = nil
  ) -> (report: String, gap: KnownGap?)? {
    let o = given ?? outcomes(p)
    var agree = o.memory.agrees(with: o.sqlite)
    if let pg = o.postgres { agree = agree && o.memory.agrees(with: pg) }
    if agree { return nil }
    return (report(p, label: label, o), classify(p, o))
  }

  /// Which documented gap (see `KnownGap`) explains a disagreement, if any: none is open.
  private func classify(
    _ p: SiftPredicate, _ o: (memory: EngineOutcome, sqlite: EngineOutcome, postgres: EngineOutcome?)
  ) -> KnownGap? {
    nil
  }

  private func report(
    _ p: SiftPredicate, label: String,
    _ o: (memory: EngineOutcome, sqlite: EngineOutcome, postgres: EngineOutcome?)
  ) -> String {
    var lines = ["DISAGREEMENT \(label)", "  predicate: \(p.source)", "  canonical: \(p.predicateFormat)"]
    lines.append("  memory:     \(o.memory)")
    lines.append("  sqlite:     \(o.sqlite)\(diff(o.memory, o.sqlite))")
    if let pg = o.postgres { lines.append("  postgresql: \(pg)\(diff(o.memory, pg))") }
    for (name, compiler) in [("sqlite", sqliteCompiler), ("postgresql", postgresCompiler)] {
      if let st = try? compiler.compileMatchingIndices(p, entity: entity) {
        lines.append("  \(name) SQL: \(st.sql)")
        lines.append("  \(name) bindings: \(st.bindings.map(\.description).joined(separator: ", "))")
      }
    }
    var differing = Set<Int>()
    if case .matches(let m) = o.memory {
      for other in [o.sqlite, o.postgres] {
        if case .matches(let s)? = other { differing.formUnion(Set(m).symmetricDifference(s)) }
      }
    }
    for i in differing.sorted().prefix(3) where i >= 0 && i < records.count {
      lines.append("  record \(i): \(SiftJSON.serialize(records[i]))")
    }
    return lines.joined(separator: "\n")
  }

  private func diff(_ a: EngineOutcome, _ b: EngineOutcome) -> String {
    guard case .matches(let x) = a, case .matches(let y) = b, x != y else { return "" }
    let onlyMemory = Set(x).subtracting(y).sorted().prefix(12)
    let onlySQL = Set(y).subtracting(x).sorted().prefix(12)
    return "  (memory only: \(Array(onlyMemory)); sql only: \(Array(onlySQL)))"
  }
}
