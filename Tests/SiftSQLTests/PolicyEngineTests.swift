import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A policy applied by every engine: the same rows, refusals before anything runs, rows
/// capped, and time limits that stop a query with `time-limit`.
@Suite("Query policy in every engine")
struct PolicyEngineTests {
  static let schemaJSON = #"""
    {"entities": {"note": {"table": "note", "primaryKey": "id", "attributes": {
      "id": "integer", "title": "string", "owner_id": "integer", "pinned": "boolean", "secret": "string"}}}}
    """#
  static let policyJSON = #"""
    {"entity": "note", "keys": ["id", "title", "pinned"], "deny": ["MATCHES"],
     "require": "owner_id == $USER", "limits": {"rows": 3, "milliseconds": 2000}}
    """#

  static func records() -> [SiftValue] {
    (0..<20).map { (i: Int) -> SiftValue in
      var d: [String: SiftValue] = ["id": .int(Int64(i)), "title": .string("note \(i)")]
      d["owner_id"] = .int(Int64(i % 2))
      d["pinned"] = .bool(i % 3 == 0)
      d["secret"] = .string("s\(i)")
      return .dictionary(d)
    }
  }

  @Test func sameRowsInMemoryAndSQLite() throws {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let policy = try SiftQueryPolicy(json: Self.policyJSON)
    let engines = try ThreeWay(schema: schema, entity: "note", records: Self.records())
    let request = SiftFetchRequest(
      entity: "note", predicate: try SiftPredicate(format: "pinned == 1 OR title ENDSWITH '5'"),
      sortDescriptors: [SiftSortDescriptor("id")], resultType: .indices)
    guard case .indices(let memory) = try request.execute(on: engines.memory, policy: policy, variables: ["USER": 1])
    else {
      Issue.record("no indices")
      return
    }
    #expect(memory == [3, 5, 9])  // odd owners, pinned or ending in 5, capped at 3 rows
    let lite = try engines.sqlite.execute(
      request, policy: policy, variables: ["USER": 1], compiler: engines.sqliteCompiler)
    #expect(lite.compactMap { $0.first?.intValue } == [3, 5, 9])
    if let pg = engines.postgres {
      let rows = try pg.execute(request, policy: policy, variables: ["USER": 1], compiler: engines.postgresCompiler)
      #expect(rows.compactMap { $0.first?.intValue } == [3, 5, 9])
    }
    // A refusal happens before any engine runs: the same error everywhere.
    let probe = SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "secret BEGINSWITH 's1'"))
    do {
      _ = try probe.execute(on: engines.memory, policy: policy, variables: ["USER": 1])
      Issue.record("the probe ran in memory")
    } catch {
      #expect(error.stage == .policy && error.diagnostic.id == "key-not-allowed")
    }
    do {
      _ = try engines.sqlite.execute(probe, policy: policy, variables: ["USER": 1], compiler: engines.sqliteCompiler)
      Issue.record("the probe ran in SQLite")
    } catch {
      #expect(error.stage == .policy && error.diagnostic.id == "key-not-allowed")
    }
  }

  @Test func memoryTimeLimitStopsTheScan() throws {
    // 12 nested SUBQUERYs over 3 elements: 3^12 inner tests per record; the work limit or the
    // time limit stops it, never a silent answer.
    let records: [SiftValue] = (0..<50).map { _ in ["xs": [1, 2, 3]] }
    var format = "$x12 == 0"
    for level in stride(from: 12, through: 1, by: -1) {
      format = "SUBQUERY(xs, $x\(level), \(format)).@count > 0"
    }
    let p = try SiftPredicate(format: format)
    var options = EvaluationOptions(policy: .treatAsNoMatch)
    options.timeLimit = 100
    let start = Date()
    let objects = try JSONRecords.records(from: .array(records))
    do throws(SiftError) {
      _ = try p.compile(options).matchingIndices(objects)
      Issue.record("finished")
    } catch {
      #expect(["time-limit", "work-limit"].contains(error.diagnostic.id), "\(error)")
    }
    #expect(Date().timeIntervalSince(start) < 5)
  }

  @Test func sqliteTimeLimitInterrupts() throws {
    let db = try SQLiteDatabase()
    let forever = SQLStatement(
      sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", bindings: [])
    let start = Date()
    do {
      _ = try db.execute(forever, timeLimit: 50)
      Issue.record("finished")
    } catch {
      #expect(error.diagnostic.id == "time-limit" && error.stage == .policy, "\(error)")
    }
    #expect(Date().timeIntervalSince(start) < 5)
    #expect(try db.execute(SQLStatement(sql: "SELECT 1", bindings: [])) == [[.integer(1)]])
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, "SIFT_POSTGRES is set"))
  func postgresTimeLimitCancels() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    do {
      _ = try db.execute(SQLStatement(sql: "SELECT pg_sleep(3)", bindings: []), timeLimit: 50)
      Issue.record("finished")
    } catch {
      #expect(error.diagnostic.id == "time-limit" && error.stage == .policy, "\(error)")
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT 1::int8", bindings: [])) == [[.integer(1)]])
  }
}
