import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `sift batch --write`: update, delete and insert cases (`NSBatchUpdateRequest`,
/// `NSBatchDeleteRequest`, `NSBatchInsertRequest`) on SQLite and PostgreSQL, each one
/// transaction, answering counts or ids; refused without `--write`.
@Suite("sift batch write cases")
struct BatchWriteCommandTests {
  static func lines(_ stdout: String) throws -> [[String: SiftValue]] {
    try stdout.split(separator: "\n").map { line in
      guard case .dictionary(let d) = try SiftJSON.parse(String(line)) else { return [:] }
      return d
    }
  }

  static let cases = [
    #"{"id": 1, "delete": true, "format": "visits < %@", "args": [5], "result": "ids"}"#,
    #"{"id": 2, "update": {"rating": 1.5, "visits": {"expression": "visits + %@", "args": [100]}}, "format": "city == 'Oslo'"}"#,
    #"{"id": 3, "insert": [{"id": 9, "name": "new", "city": "Oslo", "visits": 1}], "result": "ids"}"#,
    #"{"id": 4, "insert": [{"id": 10, "city": "Bodø", "visits": 1}, {"id": 1, "city": "Oslo", "visits": 1}]}"#,
    #"{"id": 5, "update": {"nosuch": 1}}"#,
    #"{"id": 6, "update": {"visits": 0}, "format": "city == 'Tromsø'", "result": "status"}"#,
  ]

  /// Checks the answers to `cases` and the table afterwards (`rows`: id → visits, ascending).
  static func expectAnswers(_ out: [[String: SiftValue]], rows: [[SQLValue]], _ label: String) {
    #expect(out.count == 6, "\(label)")
    guard out.count == 6 else { return }
    #expect(out[0]["ok"] == .bool(true) && out[0]["count"] == .int(2), "\(label) \(out[0])")
    if case .array(let ids)? = out[0]["ids"] {
      #expect(Set(ids) == [.int(2), .int(4)], "\(label)")
    } else {
      Issue.record("\(label): no ids in \(out[0])")
    }
    #expect(out[1]["count"] == .int(2) && out[1]["canonical"] == .string("city == \"Oslo\""), "\(label) \(out[1])")
    #expect(out[2]["ids"] == .array([.int(9)]), "\(label) \(out[2])")
    #expect(out[3]["ok"] == .bool(false) && out[3]["stage"] == .string("sql"), "\(label) \(out[3])")
    #expect(out[4]["ok"] == .bool(false), "\(label) \(out[4])")
    if case .dictionary(let e)? = out[4]["error"] { #expect(e["id"] == .string("invalid-assignment"), "\(label)") }
    #expect(out[5] == ["id": .int(6), "ok": .bool(true), "canonical": .string("city == \"Tromsø\"")], "\(label)")
    // 2 and 4 deleted; Oslo's 1 and 3 got 100 more visits; 9 inserted; 10 not (its case failed whole); Tromsø 0.
    let expected: [[SQLValue]] = [
      [.integer(1), .integer(110)], [.integer(3), .integer(107)], [.integer(5), .integer(5)],
      [.integer(6), .integer(0)],
      [.integer(9), .integer(1)],
    ]
    #expect(rows == expected, "\(label)")
  }

  static let check = SQLStatement(sql: "SELECT id, visits FROM place ORDER BY id")

  @Test func writesOnSQLite() throws {
    let db = FetchSubcommandTests.scratch("sqlite")
    try SQLiteDatabase(path: db).executeScript(FetchSubcommandTests.script)
    let r = try SiftProcess.run(
      ["batch", "--db", db, "--entity", "place", "--write"], stdin: Self.cases.joined(separator: "\n"))
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try SQLiteDatabase(readOnly: db).execute(Self.check)
    Self.expectAnswers(try Self.lines(r.stdout), rows: rows, "sqlite")
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["SIFT_POSTGRES"]?.isEmpty == false))
  func writesOnPostgres() throws {
    let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"] ?? ""
    let conn = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_batchwrite"))
    defer { conn.close() }
    try conn.run(FetchSubcommandTests.script)
    let r = try SiftProcess.run(
      ["batch", "--postgres", info, "--pg-schema", conn.schemaName ?? "", "--entity", "place", "--write"],
      stdin: Self.cases.joined(separator: "\n"))
    #expect(r.status == 0, "\(r.stderr)")
    Self.expectAnswers(try Self.lines(r.stdout), rows: try conn.execute(Self.check), "postgresql")
  }

  /// Without `--write` every write case is refused with `read-only` and nothing changes; read
  /// cases still run.
  @Test func withoutWriteNothingIsWritten() throws {
    let db = FetchSubcommandTests.scratch("sqlite")
    try SQLiteDatabase(path: db).executeScript(FetchSubcommandTests.script)
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let input = Self.cases.joined(separator: "\n") + "\n" + #"{"id": 7, "format": "visits >= 10"}"#
    let r = try SiftProcess.run(["batch", "--db", db, "--entity", "place"], stdin: input)
    #expect(r.status == 0)
    let out = try Self.lines(r.stdout)
    #expect(out.count == 7)
    for answer in out.prefix(6) {
      #expect(answer["ok"] == .bool(false) && answer["stage"] == .string("input"))
      guard case .dictionary(let e)? = answer["error"], case .string(let message)? = e["message"] else {
        Issue.record("no error in \(answer)")
        continue
      }
      #expect(e["id"] == .string("read-only"))
      #expect(message.contains("--write"))
    }
    #expect(out[6]["rows"] == .array([.int(1), .int(6)]))
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    // --write needs a database; write cases on --data alone are refused per case.
    let usage = try SiftProcess.run(["batch", "--data", db, "--write"], stdin: "")
    #expect(usage.status == 2 && usage.stderr.contains("--write goes with --db"))
    // A policy governs clients' reads: a write under it would bypass its `require`.
    let policy = FetchSubcommandTests.scratch("json")
    try #"{"require": "visits > 0"}"#.write(toFile: policy, atomically: true, encoding: .utf8)
    let both = try SiftProcess.run(
      ["batch", "--db", db, "--entity", "place", "--write", "--policy", policy], stdin: Self.cases[0])
    #expect(both.status == 2 && both.stderr.contains("--write does not go with --policy"), "\(both.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test func badWriteCasesAreInputErrors() throws {
    let db = FetchSubcommandTests.scratch("sqlite")
    try SQLiteDatabase(path: db).executeScript(FetchSubcommandTests.script)
    let before = try SQLiteDatabase(readOnly: db).execute(Self.check)
    let input = [
      #"{"id": 1, "delete": true, "update": {"visits": 1}}"#, #"{"id": 2, "delete": false}"#,
      #"{"id": 3, "insert": [], "result": "ids"}"#, #"{"id": 4, "delete": true, "result": "rows"}"#,
      #"{"id": 5, "update": {"visits": {"expression": "visits +"}}}"#,
      #"{"id": 6, "insert": [{"id": 11}], "format": "visits > 1"}"#, #"{"id": 7, "delete": true, "limit": 1}"#,
      // A misspelt key is refused, not ignored (an update without "format" changes every row).
      #"{"id": 8, "update": {"visits": 0}, "where": "visits > 1"}"#,
      // So is a misspelt verb (it used to answer as a read) and "args"/"variables" of the wrong kind.
      #"{"id": 9, "delet": true, "format": "visits > 1"}"#,
      #"{"id": 10, "update": {"visits": 0}, "format": "visits > $v", "variables": [1]}"#,
      #"{"id": 11, "delete": true, "format": "visits > %@", "args": 5}"#,
    ].joined(separator: "\n")
    let r = try SiftProcess.run(["batch", "--db", db, "--entity", "place", "--write"], stdin: input)
    let out = try Self.lines(r.stdout)
    #expect(out.count == 11)
    for (n, answer) in out.enumerated() {
      #expect(answer["ok"] == .bool(false), "\(n): \(answer)")
      #expect(answer["stage"] == .string(n == 4 ? "parse" : "input"), "\(n): \(answer)")
    }
    guard out.count == 11, case .dictionary(let error)? = out[7]["error"] else {
      Issue.record("no error for the misspelt key: \(out)")
      return
    }
    #expect(error["message"]?.stringValue?.contains(#"no key "where""#) == true, "\(error)")
    #expect(try SQLiteDatabase(readOnly: db).execute(Self.check) == before)
  }
}
