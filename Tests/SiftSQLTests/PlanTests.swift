import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// With an index on the column, the compiled WHERE lets SQLite use it.
@Suite("SQLite query plans")
struct PlanTests {
  static let cases: [(format: String, args: [SiftValue], expect: String)] = [
    ("name == %@", ["Red bar"], "INDEX venue__name__idx"),
    ("distance > %@", [12.5], "INDEX venue__distance__idx"),
    ("name BEGINSWITH %@", ["Blue"], "INDEX venue__name__idx"),
    ("id IN %@", [[1, 2, 3]], "USING INTEGER PRIMARY KEY"),
    ("id == %@", [7], "USING INTEGER PRIMARY KEY"),
    ("name == %@ AND NOT (rating > 4)", ["Red bar"], "INDEX venue__name__idx"),
  ]

  @Test(arguments: 0..<cases.count)
  func usesTheIndex(_ i: Int) throws {
    let c = Self.cases[i]
    let p = try SiftPredicate(format: c.format, arguments: c.args)
    // No ORDER BY, so the planner is free to pick the index (a fetch adds the pk order).
    let w = try SQLFixtures.sqlite.compileWhere(p, entity: "Venue")
    let st = SQLStatement(sql: "SELECT t0.\"id\", t0.\"name\" FROM \"venue\" t0 WHERE " + w.sql, bindings: w.bindings)
    let plan = try SQLFixtures.database.with { db in try db.explainQueryPlan(st) }
    #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains(c.expect) }, "\(c.format): \(plan)")
  }

  /// `check` prepares without running: compiled statements pass; a statement naming a
  /// missing column, bad SQL, or bindings that do not match the placeholders fail with
  /// SQLite's reason; the database is unchanged and still answers.
  @Test func checkPreparesWithoutRunning() throws {
    let good = try SQLFixtures.sqlite.compile(
      SiftFetchRequest(
        entity: "Venue", predicate: try SiftPredicate(format: "name ==[cd] %@ AND ANY tags == 'wifi'", "Blue")))
    let failures = try SQLFixtures.database.with { db -> [String] in
      try db.check(good)
      var messages: [String] = []
      for bad in [
        SQLStatement(sql: "SELECT \"nope\" FROM \"venue\""), SQLStatement(sql: "SELEC 1"),
        SQLStatement(sql: "SELECT ?", bindings: []),
        SQLStatement(sql: "DELETE FROM \"venue\"", bindings: [.integer(1)]),
      ] {
        do throws(SiftError) { try db.check(bad) } catch { messages.append(error.diagnostic.message) }
      }
      return messages
    }
    #expect(failures.count == 4)
    #expect(failures[0].contains("no such column"), "\(failures)")
    #expect(failures[1].contains("syntax error"), "\(failures)")
    #expect(failures[2] == "statement has 1 placeholders but 0 bindings")
    let count = try SQLFixtures.database.with { db in
      try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\""))
    }
    #expect(count.first?.first == .integer(Int64(SQLFixtures.records.count)))
  }

  /// ANY over a to-many is an EXISTS probe on the child's foreign-key index, not a join.
  @Test func toManyUsesForeignKeyIndex() throws {
    let st = try SQLFixtures.sqlite.compile(
      SiftFetchRequest(entity: "Venue", predicate: try SiftPredicate(format: "ANY menu.price < 3")))
    let plan = try SQLFixtures.database.with { db in try db.explainQueryPlan(st) }
    #expect(plan.contains { $0.contains("menu_item__venue_id__idx") }, "\(plan)")
  }
}
