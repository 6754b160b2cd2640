import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Random raw SQL on the live table's own connection, seeded: inserts, updates, deletes
/// (some without WHERE), REPLACE and rowid changes, in transactions that commit or roll back,
/// a trigger that changes other rows, now and then another connection's commit. After each
/// `refresh()` the live results equal a fresh fetch and the change set replays the change by
/// UIKit's rules; a rolled-back transaction yields nothing.
@Suite struct SQLiteLiveOwnChangesPropertyTests {
  static let statements = [
    "INSERT INTO t (a, b, g) VALUES (?, 'x', ?)",
    "UPDATE t SET a = ? WHERE id % 3 = ?",
    "UPDATE t SET a = a + 1, g = ?2 WHERE id = ?1",
    "DELETE FROM t WHERE a = ? AND g IS ?",
    "INSERT OR REPLACE INTO t (id, a, b, g) VALUES (?, 1, 'r', ?)",
    "UPDATE OR IGNORE t SET id = id + 100 WHERE id = ? AND ? IS NOT NULL",
  ]

  @Test(arguments: UInt64(1)...UInt64(16)) func randomOwnSQLStaysInStep(_ seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-own-prop-\(UUID().uuidString).sqlite"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, g TEXT);
      CREATE TABLE audit (n INTEGER);
      CREATE TRIGGER bump AFTER INSERT ON audit BEGIN UPDATE t SET a = a + NEW.n WHERE id = (SELECT min(id) FROM t); END;
      """)
    for i in 0..<rng.below(10) {
      _ = try db.execute(
        SQLStatement(
          sql: "INSERT INTO t VALUES (?, ?, 'x', 'p')",
          bindings: [.integer(Int64(i + 1)), .integer(Int64(rng.below(4)))]))
    }
    let other = try SQLiteDatabase(path: path)
    let sorts = try SiftSortDescriptor.parseList(rng.pick(["a desc, id asc", "g asc, id desc"]))
    let section: String? = rng.chance(0.5) ? "g" : nil
    func fresh() throws -> SQLiteLiveTable {
      try SQLiteLiveTable(
        database: db, table: "t", predicate: try SiftPredicate(format: "a != 2"), sortDescriptors: sorts,
        sectionKeyPath: section)
    }
    let table = try fresh()
    for step in 0..<25 {
      let at = "seed \(seed) step \(step)"
      let old = table.results.sections
      let commit = rng.chance(0.8)
      let external = rng.chance(0.1)
      try db.executeScript("BEGIN")
      for _ in 0..<rng.int(in: 1...3) {
        if rng.chance(0.15) {
          _ = try db.execute(
            SQLStatement(sql: "INSERT INTO audit VALUES (?)", bindings: [.integer(Int64(rng.below(3)))]))
          continue
        }
        let sql = rng.pick(Self.statements)
        let g: SQLValue = rng.pick([.text("p"), .text("q"), .null])
        _ = try db.execute(SQLStatement(sql: sql, bindings: [.integer(Int64(rng.below(6))), g]))
      }
      if rng.chance(0.05) { try db.executeScript("DELETE FROM t") }
      try db.executeScript(commit ? "COMMIT" : "ROLLBACK")
      if external { try other.executeScript("UPDATE t SET a = a + 1 WHERE id = (SELECT max(id) FROM t)") }
      let changes = try table.refresh()
      if !commit && !external { #expect(changes == nil, "\(at): a rollback yielded a change set") }
      let expected = try fresh().results.sections
      #expect(table.results.sections == expected, "\(at): live ≠ fresh fetch")
      if let changes {
        let replayed = try BatchUpdateOracle.apply(changes, to: old.map(\.ids), fresh: expected.map(\.ids))
        #expect(replayed == expected.map(\.ids), "\(at): batch update ≠ fresh fetch")
      }
      #expect(try table.refresh() == nil, "\(at): a second look found news")
    }
  }
}
