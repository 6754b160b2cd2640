import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
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
    #expect(try other.execute(SQLStatement(sql: "SELECT id, rating FROM Venue ORDER BY id")) == [
      [.integer(1), .integer(5)], [.integer(3), .integer(4)], [.integer(4), .integer(1)],
    ])
    // The next look catches up with the delete.
    #expect(try t.refresh() != nil)
    #expect(!t.results.storedIDs.contains(2))
  }
}
