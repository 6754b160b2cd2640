import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Golden SQL for both dialects: `Tests/Fixtures/sql/golden/<dialect>.sql` — WHERE conditions
/// and whole statements on the Sift-made venues schema, WHERE conditions on a schema Sift did
/// not create (`ExistingEvents`), and for SQLite on the schema introspected from that file.
/// Re-record with `RECORD_GOLDEN=1 swift test --filter SQLGoldenTests`, then review the diff.
/// Every case also runs (`runsOnARealSchema`): a golden file cannot hold SQL a database refuses.
/// Core Data stores have their own file (`CoreDataGoldenTests`).
@Suite("Golden SQL")
struct SQLGoldenTests {
  /// One golden case: its title, the SQL the compiler made, and the database it runs on.
  struct Entry {
    enum Target { case venues, events, introspectedEvents }
    var title: String
    var statement: SQLStatement
    /// A WHERE condition alone (run as `SELECT COUNT(*) FROM <from> WHERE …`), or a statement.
    var from: String?
    var target: Target
    /// The refusal ("id: message") in place of SQL: only MySQL refuses golden cases, each one
    /// documented in Grammar/notes/mysql.md; the file shows it where the SQL would be.
    var refusal: String? = nil
  }

  static let dialects: [any SQLDialect] = [SQLiteDialect(), PostgreSQLDialect(), MySQLDialect()]

  static func caseTitle(_ format: String, _ args: [SiftValue]) -> String {
    format + (args.isEmpty ? "" : "  args: " + args.map(SiftJSON.serialize).joined(separator: ", "))
  }

  static func whereEntries(
    _ cases: [(String, [SiftValue])], _ compiler: SQLCompiler, entity: String, target: Entry.Target
  ) throws -> [Entry] {
    var out: [Entry] = []
    for (format, args) in cases {
      let p = try SiftPredicate(format: format, arguments: args)
      let from = try compiler.fromClause(entity: entity)
      out.append(
        try attempt(compiler.dialect, caseTitle(format, args), target, from: from) {
          try compiler.compileWhere(p, entity: entity)
        })
    }
    return out
  }

  /// The entry `make` compiles, or on MySQL its refusal (`Entry.refusal`); other dialects throw.
  static func attempt(
    _ dialect: any SQLDialect, _ title: String, _ target: Entry.Target, from: String? = nil,
    _ make: () throws -> SQLStatement
  ) throws -> Entry {
    do {
      return Entry(title: title, statement: try make(), from: from, target: target)
    } catch {
      guard dialect.name == "mysql", let e = error as? SiftError else { throw error }
      return Entry(
        title: title, statement: SQLStatement(sql: ""), from: nil, target: target,
        refusal: "\(e.diagnostic.id): \(e.diagnostic.message)")
    }
  }

  /// The schema SQLite introspection reads from the events fixture file.
  static func introspectedEvents() throws -> SQLSchema {
    let db = try SQLiteDatabase()
    try db.executeScript(SQLFixtures.text("existing/events.sqlite.sql"))
    return try db.introspectSchema().schema
  }

  static func entries(_ dialect: any SQLDialect) throws -> [Entry] {
    let compiler = SQLCompiler(dialect: dialect, schema: SQLFixtures.schema)
    var out = try whereEntries(SQLGoldenCases.venuePredicates, compiler, entity: "Venue", target: .venues)
    for (title, request) in try SQLGoldenCases.venueRequests() {
      out.append(try attempt(dialect, title, .venues) { try compiler.compile(request) })
    }
    let paged = SiftFetchRequest(entity: "Venue", predicate: try SiftPredicate(format: "distance < 5"), limit: 5)
    out.append(
      Entry(
        title: "sum:(tipCount) over a page",
        statement: try compiler.compile(try SiftExpression(format: "sum:(tipCount)"), over: paged), target: .venues))
    let update = BatchUpdateRequest(
      entity: "Venue", predicate: try SiftPredicate(format: "rating == nil"),
      assignments: [("favorite", .value(false)), ("tipCount", try .expression("tipCount + %@", 1))])
    out.append(Entry(title: "batch update", statement: try compiler.compile(update), target: .venues))
    let delete = try compiler.compile(
      BatchDeleteRequest(
        entity: "Venue", predicate: try SiftPredicate(format: "tipCount < 10 AND location.city == 'x'")))
    for (i, st) in delete.enumerated() {
      out.append(Entry(title: "batch delete, statement \(i + 1)", statement: st, target: .venues))
    }
    let events = SQLCompiler(
      dialect: dialect, schema: try ExistingEvents.schema(postgres: dialect.name == "postgresql"))
    out += try whereEntries(SQLGoldenCases.eventPredicates, events, entity: "event", target: .events)
    if dialect.name == "sqlite" {
      let introspected = SQLCompiler(dialect: dialect, schema: try introspectedEvents())
      out += try whereEntries(
        SQLGoldenCases.introspectedPredicates, introspected, entity: "event", target: .introspectedEvents)
    }
    return out
  }

  static func render(_ dialect: any SQLDialect) throws -> String {
    var out = "-- Golden SQL for \(dialect.name). Re-record: RECORD_GOLDEN=1 swift test --filter SQLGoldenTests\n\n"
    var section: Entry.Target?
    for e in try entries(dialect) {
      if e.target != section {
        section = e.target
        switch e.target {
        case .venues: out += "-- == Sift-made layout: venues.schema.json, entity Venue\n\n"
        case .events: out += "-- == A database Sift did not create: ExistingEvents.schema, entity event\n\n"
        case .introspectedEvents: out += "-- == The same file's schema read by introspection, entity event\n\n"
        }
      }
      if let refusal = e.refusal {
        out += "-- " + e.title + "\n-- refused: " + refusal + "\n\n"
        continue
      }
      out += "-- " + e.title + "\n" + e.statement.sql + "\n"
      out += "-- bindings: [" + e.statement.bindings.map(\.description).joined(separator: ", ") + "]\n\n"
    }
    out +=
      "-- DDL\n" + SQLDDL(schema: SQLFixtures.schema, dialect: dialect).createStatements().joined(separator: ";\n")
      + ";\n"
    return out
  }

  @Test(arguments: [0, 1, 2])
  func matchesGoldenFile(_ which: Int) throws {
    let dialect = Self.dialects[which]
    let text = try Self.render(dialect)
    let url = SQLFixtures.root.appendingPathComponent("sql/golden/\(dialect.name).sql")
    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    let a = text.split(separator: "\n", omittingEmptySubsequences: false)
    let b = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let firstDiff = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      text == golden,
      "line \((firstDiff?.offset ?? min(a.count, b.count)) + 1): got \(firstDiff.map { String($0.element.0) } ?? "<end>")"
    )
  }

  /// At least 120 cases per dialect, on each layout.
  @Test(arguments: [0, 1, 2])
  func coversEnoughCases(_ which: Int) throws {
    let entries = try Self.entries(Self.dialects[which])
    #expect(entries.count >= 120, "\(entries.count) cases")
    #expect(entries.filter { $0.target == .events }.count >= 20)
  }

  /// Every golden case runs on a real schema holding the fixture's data: SQLite always,
  /// PostgreSQL when `SIFT_POSTGRES` reaches a server. Each statement runs in a transaction
  /// rolled back afterwards (batch updates and deletes change nothing).
  @Test(arguments: [0, 1])
  func runsOnARealSchema(_ which: Int) throws {
    let dialect = Self.dialects[which]
    let postgres = dialect.name == "postgresql"
    if postgres && !PostgresTestServer.isAvailable { return }
    let venues = try ThreeWay(
      schema: SQLFixtures.schema, entity: "Venue", records: SQLFixtures.records, usePostgres: postgres)
    let events = try ExistingEvents(usePostgres: postgres)
    let venueDB: any SQLDatabase = postgres ? try #require(venues.postgres) : venues.sqlite
    let eventDB: any SQLDatabase = postgres ? try #require(events.postgres) : events.sqlite
    for e in try Self.entries(dialect) {
      var st = e.statement
      if let from = e.from {
        st = SQLStatement(sql: "SELECT COUNT(*) FROM \(from) WHERE \(st.sql)", bindings: st.bindings)
      }
      let db = e.target == .venues ? venueDB : eventDB
      do {
        try events.locked {
          if e.target == .venues {
            _ = try db.execute(SQLStatement(sql: "BEGIN"))
            defer { _ = try? db.execute(SQLStatement(sql: "ROLLBACK")) }
            _ = try db.execute(st)
          } else {
            _ = try db.execute(st)
          }
        }
      } catch {
        Issue.record("\(dialect.name): \(e.title) does not run: \(error)\n\(st.sql)")
      }
    }
  }

  /// The MySQL golden cases on the venues layout run on MariaDB when `SIFT_MYSQL` reaches a
  /// server, each in a transaction rolled back afterwards. (The events cases are compiled for a
  /// database Sift did not create; MariaDB has no copy of that fixture, so they are not run.)
  @Test func mysqlCasesRunOnMariaDB() throws {
    let dialect = Self.dialects[2]
    guard
      let leg = try MariaDBLeg(schema: SQLFixtures.schema, entity: "Venue", records: SQLFixtures.records)
    else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    for e in try Self.entries(dialect) where e.target == .venues && e.refusal == nil {
      // The same case compiled for the leg's own function database.
      var st = e.statement
      st = SQLStatement(
        sql: st.sql.replacingOccurrences(of: "`sift`.", with: "`\(leg.name)`."), bindings: st.bindings)
      if let from = e.from {
        st = SQLStatement(sql: "SELECT COUNT(*) FROM \(from) WHERE \(st.sql)", bindings: st.bindings)
      }
      // The fixture's names go beyond ASCII: a [c]/[d] case parses and runs until sift_fold
      // meets one (Grammar/notes/mysql.md), a documented refusal.
      let outcome = Self.rolledBack(st, on: leg)
      if case .failed(let why) = outcome, !MariaDBLeg.isDocumentedRefusal(outcome) {
        Issue.record("mysql: \(e.title) does not run: \(why)\n\(st.sql)")
      }
    }
  }

  /// `st` run in a transaction rolled back afterwards.
  static func rolledBack(_ st: SQLStatement, on leg: MariaDBLeg) -> EngineOutcome {
    do {
      try leg.db.executeScript("START TRANSACTION")
      defer { try? leg.db.executeScript("ROLLBACK") }
      _ = try leg.db.execute(st)
      return .matches([])
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }
}
