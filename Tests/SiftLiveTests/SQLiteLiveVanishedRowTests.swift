import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// An edit whose row another program deleted (the results had not caught up yet) changes no
/// row: it is an error and nothing of its write is kept, not an empty change set.
@Suite struct SQLiteLiveVanishedRowTests {
  @Test(arguments: ["update", "delete", "batch"])
  func editOfAVanishedRowIsAnError(kind: String) throws {
    let (path, db) = try SQLiteLiveTableTests.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try SQLiteLiveTableTests.table(db)
    let other = try SQLiteDatabase(path: path)
    try other.executeScript("DELETE FROM Venue WHERE id = 2")
    let edits: [SQLiteLiveTable.Edit]
    switch kind {
    case "update": edits = [.update(2, set: ["rating": 9])]
    case "delete": edits = [.delete(2)]
    default: edits = [.update(1, set: ["rating": 8]), .update(2, set: ["rating": 9])]
    }
    do {
      _ = try t.write(edits)
      Issue.record("an edit of a deleted row was answered as done")
    } catch {
      #expect("\(error)".contains("no row with id = 2 is there any more"), "\(error)")
    }
    // Nothing of the batch was written: row 1 keeps its rating.
    #expect(
      try other.execute(SQLStatement(sql: "SELECT id, rating FROM Venue ORDER BY id")) == [
        [.integer(1), .integer(5)], [.integer(3), .integer(4)], [.integer(4), .integer(1)],
      ])
    // The next look catches up with the delete.
    #expect(try t.refresh() != nil)
    #expect(!t.results.storedIDs.contains(2))
  }

  /// A batch whose later statement the database refuses (NOT NULL) leaves the earlier ones
  /// undone: the write is one transaction.
  @Test func laterStatementFailingUndoesTheBatch() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-live-\(UUID().uuidString).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, rating INTEGER);
      INSERT INTO Venue VALUES (1, 'Alpha', 'Oslo', 5), (2, 'Bravo', 'Oslo', 3);
      """)
    let t = try SQLiteLiveTableTests.table(db)
    expectSiftError(id: "live-refused", stage: .live) {
      try t.write([
        .update(1, set: ["rating": 9]), .insert(["id": 3, "city": "Rome", "rating": 2]),
        .update(2, set: ["name": .null]),
      ])
    }
    let other = try SQLiteDatabase(readOnly: path)
    #expect(
      try other.execute(SQLStatement(sql: "SELECT id, name, rating FROM Venue ORDER BY id")) == [
        [.integer(1), .text("Alpha"), .integer(5)], [.integer(2), .text("Bravo"), .integer(3)],
      ])
    #expect(t.results.record(for: 1)?["rating"] == .int(5))
  }
}
