import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Changes made on the live table's own connection outside `write` (raw SQL, triggers): the
/// update hook names their rowids, `refresh()` re-reads only those rows once the transaction
/// commits, a rollback yields nothing, and the cases SQLite reports no rowids for fall back to
/// reading the whole table. Every change set is checked against a fresh fetch of the table
/// and replayed by UIKit's batch-update rules.
@Suite struct SQLiteLiveOwnChangesTests {
  static func database(
    _ schema: String = "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);"
  ) throws -> (path: String, db: SQLiteDatabase) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-own-\(UUID().uuidString).sqlite")
      .path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      schema + """

        INSERT INTO Venue (id, name, city, rating) VALUES (1, 'Alpha', 'Oslo', 5), (2, 'Bravo', 'Oslo', 3), (3, 'Cafe', 'Paris', 4), (4, 'Deli', 'Paris', 1);
        """)
    return (path, db)
  }

  static func table(_ db: SQLiteDatabase, _ name: String = "Venue") throws -> SQLiteLiveTable {
    try SQLiteLiveTable(
      database: db, table: name, predicate: try SiftPredicate(format: "rating > 1"),
      sortDescriptors: try SiftSortDescriptor.parseList("rating desc, id asc"), sectionKeyPath: "city")
  }

  /// The change set took `before` to a fresh fetch of the table, by UIKit's rules, and the
  /// live results equal that fresh fetch.
  static func check(
    _ changes: SiftChangeSet<SiftValue>?, from before: [SiftLiveSection<SiftValue>], _ t: SQLiteLiveTable,
    _ at: String = ""
  ) throws {
    let fresh = try table(t.database, t.table).results.sections
    #expect(t.results.sections == fresh, "\(at): live ≠ fresh fetch")
    let cs = try #require(changes, "\(at): no change set")
    let replayed = try BatchUpdateOracle.apply(cs, to: before.map(\.ids), fresh: fresh.map(\.ids))
    #expect(replayed == fresh.map(\.ids), "\(at): batch update ≠ fresh fetch")
  }

  static func version(_ db: SQLiteDatabase) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "PRAGMA data_version"))
  }

  @Test func rawSQLOnTheSameConnectionRereadsOnlyItsRows() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let version = try Self.version(db)
    let before = t.results.sections
    try db.executeScript("UPDATE Venue SET rating = 9 WHERE id = 2")
    let moved = try t.refresh()
    #expect(moved?.moved == [.init(from: SiftIndexPath(section: 0, item: 1), to: SiftIndexPath(section: 0, item: 0))])
    try Self.check(moved, from: before, t, "update")
    let before2 = t.results.sections
    try db.executeScript(
      """
      BEGIN;
      INSERT INTO Venue VALUES (5, 'Eel', 'Rome', 2);
      DELETE FROM Venue WHERE id = 3;
      UPDATE Venue SET rating = 7 WHERE id = 4;
      COMMIT;
      """)
    let batch = try t.refresh()
    #expect(batch?.sectionInserts == [2])
    try Self.check(batch, from: before2, t, "transaction")
    #expect(try t.refresh() == nil)
    #expect(try Self.version(db) == version)  // data_version did not see these: the hook did
    #expect(t.fullRereads == 0)
  }

  @Test func triggersChangesAreSeenAtTheCommit() throws {
    let (path, db) = try Self.database(
      """
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);
      CREATE TABLE Review (venue INTEGER, stars INTEGER);
      CREATE TRIGGER rate AFTER INSERT ON Review BEGIN UPDATE Venue SET rating = NEW.stars WHERE id = NEW.venue; END;
      CREATE TRIGGER twin AFTER INSERT ON Venue WHEN NEW.name = 'Twin' BEGIN DELETE FROM Venue WHERE id = 1; END;
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    var before = t.results.sections
    try db.executeScript("INSERT INTO Review VALUES (4, 8)")  // a row of another table; the trigger updates Venue 4
    let rated = try t.refresh()
    #expect(rated?.inserted == [SiftIndexPath(section: 1, item: 0)])  // Deli now matches, first in Paris
    try Self.check(rated, from: before, t, "trigger on another table")
    // A write through Sift whose trigger deletes another row: one change set holds both.
    before = t.results.sections
    let both = try t.write([.insert(["id": 6, "name": "Twin", "city": "Oslo", "rating": 4])])
    #expect(
      both.deleted == [SiftIndexPath(section: 0, item: 0)] && both.inserted == [SiftIndexPath(section: 0, item: 0)])
    try Self.check(both, from: before, t, "trigger of a write")
    #expect(try t.refresh() == nil)
    #expect(t.fullRereads == 0)
  }

  @Test func aRollbackYieldsNoChangeSet() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let before = t.results.sections
    try db.executeScript(
      "BEGIN; UPDATE Venue SET rating = 0; INSERT INTO Venue VALUES (9, 'Nine', 'Oslo', 9); ROLLBACK;")
    #expect(try t.refresh() == nil)
    // A failing statement rolls back its own autocommit transaction.
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try db.executeScript("INSERT INTO Venue VALUES (1, 'dup', 'Oslo', 2)")
    }
    #expect(try t.refresh() == nil)
    // Inside an open transaction nothing is reported until the commit.
    try db.executeScript("BEGIN; UPDATE Venue SET rating = 8 WHERE id = 3;")
    #expect(try t.refresh() == nil)
    try db.executeScript("COMMIT")
    try Self.check(try t.refresh(), from: before, t, "after commit")
    #expect(t.fullRereads == 0)
  }

  @Test func anotherConnectionsCommitIsStillNoticed() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let before = t.results.sections
    try db.executeScript("UPDATE Venue SET rating = 2 WHERE id = 1")  // own, by the hook
    let other = try SQLiteDatabase(path: path)
    try other.executeScript("DELETE FROM Venue WHERE id = 3; INSERT INTO Venue VALUES (7, 'Gym', 'Oslo', 4)")
    try Self.check(try t.refresh(), from: before, t, "both")
    #expect(t.fullRereads == 1)
    #expect(try t.refresh() == nil)
  }

  @Test func deleteWithoutWhereIsReportedRowByRow() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let before = t.results.sections
    try db.executeScript("DELETE FROM Venue")  // SQLite's truncate optimisation is turned off
    let cs = try t.refresh()
    #expect(cs?.sectionDeletes == [0, 1] && t.results.sections.isEmpty)
    try Self.check(cs, from: before, t, "delete all")
    #expect(t.fullRereads == 0)
  }

  /// The cases the update hook reports no rowid for, or not the old rowid: the table is read
  /// again, and the result is still a fresh fetch's.
  @Test(arguments: [
    (
      "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER) WITHOUT ROWID;",
      "UPDATE Venue SET rating = 9 WHERE id = 4", 1
    ),
    (
      "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT UNIQUE, city TEXT, rating INTEGER);",
      "INSERT OR REPLACE INTO Venue VALUES (8, 'Alpha', 'Rome', 3)", 1
    ),
    (
      "CREATE TABLE Venue (id TEXT PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);",
      "INSERT OR REPLACE INTO Venue VALUES (2, 'B2', 'Rome', 6)", 1
    ),
    (
      "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);",
      "UPDATE Venue SET id = 10 WHERE id = 1", 1
    ),
    (
      "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);",
      "DELETE FROM Venue WHERE id = 2; UPDATE Venue SET id = 2 WHERE id = 3", 1
    ),
    (
      "CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating INTEGER);",
      "INSERT OR REPLACE INTO Venue VALUES (2, 'B2', 'Rome', 6)", 0
    ),
  ])
  func changesWithoutRowidsFallBackToAFullRead(_ schema: String, _ sql: String, _ rereads: Int) throws {
    let (path, db) = try Self.database(schema)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try Self.table(db)
    let before = t.results.sections
    try db.executeScript(sql)
    try Self.check(try t.refresh(), from: before, t, sql)
    #expect(t.fullRereads == rereads, "\(sql)")
    #expect(try t.refresh() == nil)
  }

  @Test func aViewIsReadAgainAfterEachOwnCommit() throws {
    let (path, db) = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try db.executeScript("CREATE VIEW Good AS SELECT * FROM Venue WHERE rating > 2")
    let t = try SQLiteLiveTable(
      database: db, table: "Good", key: "id", predicate: nil,
      sortDescriptors: try SiftSortDescriptor.parseList("id asc"))
    #expect(t.results.ids == [1, 2, 3])
    try db.executeScript("UPDATE Venue SET rating = 0 WHERE id = 2")
    let cs = try #require(try t.refresh())
    #expect(cs.deleted == [SiftIndexPath(section: 0, item: 1)] && t.results.ids == [1, 3])
  }
}
