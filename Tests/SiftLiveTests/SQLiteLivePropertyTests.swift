import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Random writes through Sift and through another connection, seeded: after each, the live
/// results hold exactly the table's rows, equal a fresh fetch, and the change set replays the
/// change by UIKit's rules.
@Suite struct SQLiteLivePropertyTests {
  static func sql(_ v: SiftValue) -> SQLValue {
    switch v {
    case .int(let i): return .integer(i)
    case .string(let s): return .text(s)
    default: return .null
    }
  }

  @Test(arguments: UInt64(1)...UInt64(12)) func randomWritesStayInStep(_ seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-live-prop-\(UUID().uuidString).sqlite"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let db = try SQLiteDatabase(path: path)
    try db.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, g TEXT)")
    let other = try SQLiteDatabase(path: path)
    func randomRow() -> [String: SiftValue] {
      [
        "a": rng.chance(0.1) ? .null : .int(Int64(rng.below(5))), "b": rng.pick(["x", "X", "y", .null]),
        "g": rng.pick(["p", "q", "r", .null]),
      ]
    }
    var nextID: Int64 = 1
    for _ in 0..<rng.below(12) {
      let r = randomRow()
      _ = try other.execute(
        SQLStatement(
          sql: "INSERT INTO t VALUES (?, ?, ?, ?)",
          bindings: [.integer(nextID), Self.sql(r["a"] ?? .null), Self.sql(r["b"] ?? .null), Self.sql(r["g"] ?? .null)])
      )
      nextID += 1
    }
    let table = try SQLiteLiveTable(
      database: db, table: "t", predicate: try SiftPredicate(format: "a != 3"),
      sortDescriptors: try SiftSortDescriptor.parseList(rng.pick(["a desc, b asc [c]", "b asc", "g asc, a asc"])),
      sectionKeyPath: rng.chance(0.5) ? "g" : nil)
    for step in 0..<20 {
      let at = "seed \(seed) step \(step)"
      let old = table.results.sections
      // Sorted: dictionary order differs between runs, and the seed must replay the test.
      let ids = table.results.storedIDs.sorted { SiftSortOrder.compare($0, $1, .binary) < 0 }
      var changes: SiftChangeSet<SiftValue>?
      var op = ""
      if rng.chance(0.3) {
        // Another connection.
        if ids.isEmpty || rng.chance(0.4) {
          let r = randomRow()
          _ = try other.execute(
            SQLStatement(
              sql: "INSERT INTO t VALUES (?, ?, ?, ?)",
              bindings: [
                .integer(nextID), Self.sql(r["a"] ?? .null), Self.sql(r["b"] ?? .null), Self.sql(r["g"] ?? .null),
              ]))
          nextID += 1
          op = "insert"
        } else if rng.chance(0.5) {
          // A new value: SQLite does not count an UPDATE that stores the same bytes as a change.
          let id = rng.pick(ids)
          var a = Int64(rng.below(5))
          if table.results.record(for: id)?["a"] == .int(a) { a += 1 }
          _ = try other.execute(
            SQLStatement(sql: "UPDATE t SET a = ? WHERE id = ?", bindings: [.integer(a), Self.sql(id)]))
          op = "update"
        } else {
          _ = try other.execute(SQLStatement(sql: "DELETE FROM t WHERE id = ?", bindings: [Self.sql(rng.pick(ids))]))
          op = "delete"
        }
        changes = try table.refresh()
        #expect(changes != nil, "\(at): data_version did not notice another connection's \(op)")
      } else {
        var edits: [SQLiteLiveTable.Edit] = []
        var live = ids
        for _ in 0..<rng.int(in: 1...3) {
          if live.isEmpty || rng.chance(0.3) {
            edits.append(.insert(randomRow().merging(["id": .int(nextID)]) { $1 }))
            live.append(.int(nextID))
            nextID += 1
          } else {
            let i = rng.below(live.count)
            if rng.chance(0.6) {
              edits.append(.update(live[i], set: randomRow()))
            } else {
              edits.append(.delete(live[i]))
              live.remove(at: i)
            }
          }
        }
        changes = try table.write(edits)
      }
      let fresh = try table.results.refetchedSections()
      #expect(table.results.sections == fresh, "\(at): live ≠ fresh fetch")
      if let changes {
        let replayed = try BatchUpdateOracle.apply(changes, to: old.map(\.ids), fresh: fresh.map(\.ids))
        #expect(replayed == fresh.map(\.ids), "\(at): batch update ≠ fresh fetch")
      }
      // The store holds exactly the table's rows.
      let rows = try db.execute(SQLStatement(sql: "SELECT id, a, b, g FROM t"))
      #expect(rows.count == table.results.storedIDs.count, "\(at): row count")
      for row in rows {
        let r = SQLiteLiveTable.record(row, columns: ["id", "a", "b", "g"], codecs: table.codecs)
        #expect(table.results.record(for: r["id"] ?? .null) == r, "\(at): row \(row)")
      }
      #expect(try table.refresh() == nil, "\(at): a second look found news")
    }
  }
}
