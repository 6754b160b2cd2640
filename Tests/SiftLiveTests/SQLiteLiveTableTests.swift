import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Live results over an SQLite table: writes through Sift re-read only their rows; commits by
/// another connection are noticed with PRAGMA data_version and diffed.
@Suite struct SQLiteLiveTableTests {
  static func database() throws -> (path: String, db: SQLiteDatabase) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-live-\(UUID().uuidString).sqlite")
      .path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);
      INSERT INTO Venue VALUES (1, 'Alpha', 'Oslo', 5), (2, 'Bravo', 'Oslo', 3), (3, 'Cafe', 'Paris', 4), (4, 'Deli', 'Paris', 1);
      """)
    return (path, db)
  }

  static func table(_ db: SQLiteDatabase) throws -> SQLiteLiveTable {
    try SQLiteLiveTable(
      database: db, table: "Venue", predicate: try SiftPredicate(format: "rating > 1"),
      sortDescriptors: try SiftSortDescriptor.parseList("rating desc"), sectionKeyPath: "city")
  }

  static func path(_ s: Int, _ i: Int) -> SiftIndexPath { SiftIndexPath(section: s, item: i) }

  @Test func writesGoToTheDatabaseAndComeBackAsChangeSets() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    #expect(t.key == "id" && t.columns == ["id", "name", "city", "rating"])
    #expect(t.results.sections.map(\.ids) == [[1, 2], [3]])
    let moved = try t.write([.update(2, set: ["rating": 6])])
    #expect(moved.moved == [.init(from: Self.path(0, 1), to: Self.path(0, 0))])
    let other = try SQLiteDatabase(readOnly: path)
    #expect(try other.execute(SQLStatement(sql: "SELECT rating FROM Venue WHERE id = 2")) == [[.integer(6)]])
    let batch = try t.write([
      .insert(["id": 5, "name": "Eel", "city": "Rome", "rating": 2]), .delete(3), .update(4, set: ["rating": 9]),
    ])
    #expect(batch.sectionInserts == [2] && batch.sectionDeletes.isEmpty)  // Paris keeps 4 (now matching); Rome is new
    #expect(t.results.sections.map(\.name) == ["Oslo", "Paris", "Rome"])
    #expect(t.results.sections.map(\.ids) == [[2, 1], [4], [5]])
    #expect(try t.results.refetchedSections() == t.results.sections)
    #expect(
      try other.execute(SQLStatement(sql: "SELECT id FROM Venue ORDER BY id")) == [
        [.integer(1)], [.integer(2)], [.integer(4)], [.integer(5)],
      ])
    #expect(try t.refresh() == nil)  // its own commits are not news
  }

  @Test func commitsByAnotherConnectionAreNoticed() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    #expect(try t.refresh() == nil)
    let other = try SQLiteDatabase(path: path)
    try other.executeScript(
      "UPDATE Venue SET rating = 0 WHERE id = 1; INSERT INTO Venue VALUES (7, 'Gym', 'Oslo', 4); DELETE FROM Venue WHERE id = 3;"
    )
    let before = t.results.sections.map(\.ids)
    let changes = try #require(try t.refresh())
    #expect(changes.sectionDeletes == [1])  // Paris emptied (3 deleted, 4 does not match)
    #expect(changes.deleted == [Self.path(0, 0), Self.path(1, 0)])
    #expect(changes.inserted == [Self.path(0, 0)])
    #expect(t.results.sections.map(\.ids) == [[7, 2]])
    #expect(before.flatMap { $0 }.applying(changes.difference) == [7, 2])
    #expect(try t.refresh() == nil)
  }

  @Test func refusedWritesChangeNothing() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let before = t.results.sections
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.delete(1), .update(99, set: ["rating": 1])]) }
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.delete(1), .update(2, set: ["stars": 1])]) }
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.delete(1), .update(2, set: ["name": ["a"]])]) }
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.delete(1), .insert(["id": 2, "name": "dup"])]) }
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.delete(1), .insert(["name": "no id"])]) }
    #expect(t.results.sections == before)
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM Venue")) == [[.integer(4)]])
    // A value the database takes but the results cannot order (text among integer ratings) is
    // rolled back too; the next write's change set is its own.
    expectSiftError(id: "live-refused", stage: .live) { try t.write([.update(2, set: ["rating": "x"]), .delete(3)]) }
    #expect(t.results.sections == before)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT rating FROM Venue WHERE id IN (2, 3) ORDER BY id")) == [
        [.integer(3)], [.integer(4)],
      ])
    let next = try t.write([.delete(3)])
    #expect(
      next.deleted == [Self.path(1, 0)] && next.sectionDeletes == [1] && next.moved.isEmpty && next.updated.isEmpty,
      "\(next)")
    #expect(try t.refresh() == nil && t.results.sections.map(\.ids) == [[1, 2]])
    // A constraint the database enforces rolls the whole write back.
    try db.executeScript("CREATE TABLE Strict (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
    let strict = try SQLiteLiveTable(database: db, table: "Strict", predicate: nil, sortDescriptors: [])
    expectSiftError(id: "live-refused", stage: .live) {
      try strict.write([.insert(["id": 1, "n": 1]), .insert(["id": 2, "n": .null])])
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM Strict")) == [[.integer(0)]])
    #expect(strict.results.count == 0)
    // A read-only connection watches but cannot write.
    let readOnly = try Self.table(try SQLiteDatabase(readOnly: path))
    expectSiftError(id: "live-refused", stage: .live) { try readOnly.write([.delete(1)]) }
    expectSiftError(id: "live-refused", stage: .live) {
      try SQLiteLiveTable(database: db, table: "Nope", predicate: nil, sortDescriptors: [])
    }
  }
}
