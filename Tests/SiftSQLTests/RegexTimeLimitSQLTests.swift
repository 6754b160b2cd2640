import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Issue 35, item 2, in SQL: a policy's `milliseconds` stops a costly MATCHES in every engine,
/// inside one costly row too — SQLite's progress handler does not run inside `sift_matches`,
/// so the function reads the deadline itself; PostgreSQL runs its own `~`, which
/// `statement_timeout` cancels. Bounds are generous (a 200 ms limit must stop in under 5 s).
@Suite("MATCHES under a time limit in SQL")
struct RegexTimeLimitSQLTests {
  static let schemaJSON = #"""
    {"entities": {"doc": {"table": "doc", "primaryKey": "id", "attributes": {"id": "integer", "body": "string"}}}}
    """#

  static func engines(rows: Int, subject: String) throws -> ThreeWay {
    let records: [SiftValue] = (0..<rows).map { i in .dictionary(["id": .int(Int64(i)), "body": .string(subject)]) }
    return try ThreeWay(schema: try SQLSchema(json: schemaJSON), entity: "doc", records: records)
  }

  static func policy(milliseconds: Int, nodes: Int? = nil) throws -> SiftQueryPolicy {
    try SiftQueryPolicy(entity: "doc", keys: ["id", "body"], limits: .init(nodes: nodes, milliseconds: milliseconds))
  }

  static func expectTimeLimit(_ label: String, _ body: () throws -> Void) {
    let start = Date()
    do {
      try body()
      Issue.record("\(label): finished")
    } catch {
      #expect((error as? SiftError)?.diagnostic.id == "time-limit", "\(label): \(error)")
    }
    let t = Date().timeIntervalSince(start)
    #expect(t < 5, "\(label): \(t) s")
  }

  @Test(arguments: [1, 600])
  func sqliteStopsInsideTheFunction(rows: Int) throws {
    let engines = try Self.engines(rows: rows, subject: String(repeating: "xa", count: rows == 1 ? 4000 : 1000))
    let request = SiftFetchRequest(entity: "doc", predicate: try SiftPredicate(format: "body MATCHES '(.*a){1000}b'"))
    Self.expectTimeLimit("SQLite, \(rows) rows") {
      _ = try engines.sqlite.execute(
        request, policy: try Self.policy(milliseconds: 200), compiler: engines.sqliteCompiler)
    }
    // The connection stays usable, and without a limit the function answers again.
    let quick = SiftFetchRequest(entity: "doc", predicate: try SiftPredicate(format: "body MATCHES '(.*a){2}'"))
    #expect(try engines.sqlite.execute(try engines.sqliteCompiler.compile(quick)).count == rows)
  }

  /// A file read in place (`init(untouched:)`, what `sift batch --db` opens) adopts the
  /// connection of another `SQLiteDatabase`: the functions' clock must come with it.
  @Test func aFileOpenedUntouchedStopsToo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-regex-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("doc.sqlite").path
    do {
      let writer = try SQLiteDatabase(path: path)
      try writer.executeScript("CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT)")
      _ = try writer.execute(
        SQLStatement(sql: "INSERT INTO doc VALUES (1, ?)", bindings: [.text(String(repeating: "xa", count: 4000))]))
    }
    let statement = SQLStatement(sql: "SELECT id FROM doc WHERE body REGEXP ?", bindings: [.text("(.*a){1000}b")])
    for db in [try SQLiteDatabase(untouched: path), try SQLiteDatabase(readOnly: path)] {
      Self.expectTimeLimit("\(path), read-only") { _ = try db.execute(statement, timeLimit: 200) }
    }
  }

  /// Found by the regex fuzz target: SQLite keeps a function's error as a C string, so a NUL
  /// in the pattern cut the message before it said what went wrong.
  @Test func aNulInThePatternKeepsTheWholeMessage() throws {
    let db = try SQLiteDatabase()
    let statement = SQLStatement(
      sql: "SELECT ? REGEXP ?", bindings: [.text(String(repeating: "a", count: 40) + "c"), .text("(a+)+\\1b\u{0}x")])
    do {
      _ = try db.execute(statement)
      Issue.record("answered")
    } catch {
      #expect(error.diagnostic.message.contains("matching steps"), "\(error.diagnostic.message)")
      #expect(error.diagnostic.message.contains("b\\u{0}x"), "\(error.diagnostic.message)")
    }
  }

  @Test func memoryUnderThePolicyStopsToo() throws {
    let engines = try Self.engines(rows: 1, subject: String(repeating: "xa", count: 4000))
    let request = SiftFetchRequest(entity: "doc", predicate: try SiftPredicate(format: "body MATCHES '(.*a){1000}b'"))
    Self.expectTimeLimit("memory") {
      _ = try request.execute(on: engines.memory, policy: try Self.policy(milliseconds: 200))
    }
  }

  /// PostgreSQL runs its own `~` (Spencer's engine, repetition counts ≤ 255), whose matcher
  /// checks for interrupts, so `SET LOCAL statement_timeout` stops it (Grammar/notes/sql.md).
  @Test func postgresStatementTimeoutStopsItsRegex() throws {
    let engines = try Self.engines(rows: 600, subject: String(repeating: "xa", count: 1000))
    guard let pg = engines.postgres else { return }
    let request = SiftFetchRequest(
      entity: "doc", predicate: try SiftPredicate(format: "body MATCHES '((.*a){50}){50}b'"))
    Self.expectTimeLimit("PostgreSQL") {
      _ = try pg.execute(request, policy: try Self.policy(milliseconds: 200), compiler: engines.postgresCompiler)
    }
  }

  /// Before anything runs: the expanded pattern counts against `limits.nodes`, in every engine.
  @Test func anExpandedPatternCountsAgainstNodes() throws {
    let engines = try Self.engines(rows: 1, subject: "xab")
    let request = SiftFetchRequest(entity: "doc", predicate: try SiftPredicate(format: "body MATCHES '(.*a){1000}b'"))
    let policy = try Self.policy(milliseconds: 2000, nodes: 200)
    func refused(_ label: String, _ body: () throws -> Void) {
      do {
        try body()
        Issue.record("\(label): ran")
      } catch {
        let e = error as? SiftError
        #expect(e?.stage == .policy && e?.diagnostic.id == "too-many-nodes", "\(label): \(error)")
        #expect(e?.diagnostic.message.contains("(.*a){1000}b") == true)
      }
    }
    refused("memory") { _ = try request.execute(on: engines.memory, policy: policy) }
    refused("SQLite") { _ = try engines.sqlite.execute(request, policy: policy, compiler: engines.sqliteCompiler) }
    if let pg = engines.postgres {
      refused("PostgreSQL") { _ = try pg.execute(request, policy: policy, compiler: engines.postgresCompiler) }
    }
  }
}
