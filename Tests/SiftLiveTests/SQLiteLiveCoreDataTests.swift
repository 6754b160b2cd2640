import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Edits of a Core Data store's table (Grammar/notes/coredata.md, "Writing a Core Data store"):
/// an update keeps Core Data's bookkeeping and stores values as Core Data reads them; inserts
/// and deletes are refused and change nothing.
@Suite struct SQLiteLiveCoreDataTests {
  static func store() throws -> (String, SQLiteDatabase) {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/coredata/Library.sql")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-live-cd-\(UUID().uuidString).sqlite")
      .path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(try String(contentsOf: fixture, encoding: .utf8))
    return (path, db)
  }

  @Test func updateIncrementsZOPTAndWritesSecondsSince2001() throws {
    let (path, db) = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try SQLiteLiveTable(database: db, table: "ZITEM", predicate: nil, sortDescriptors: [])
    #expect(t.isCoreDataTable)
    let at = try #require(SiftJSON.parseDate("2024-03-01T00:00:00.25Z"))
    _ = try t.write([.update(2, set: ["ZCREATEDAT": .date(at), "ZINPRINT": false])])
    let row = try db.execute(SQLStatement(sql: "SELECT Z_OPT, ZCREATEDAT, ZINPRINT FROM ZITEM WHERE Z_PK = 2"))
    #expect(row == [[.integer(2), .double(at.timeIntervalSinceReferenceDate), .integer(0)]], "\(row)")
    _ = try t.write([.update(2, set: ["ZTITLE": "Good Omens (2nd)"])])
    #expect(try db.execute(SQLStatement(sql: "SELECT Z_OPT FROM ZITEM WHERE Z_PK = 2")) == [[.integer(3)]])
  }

  @Test func insertsDeletesAndBookkeepingColumnsAreRefused() throws {
    let (path, db) = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t = try SQLiteLiveTable(database: db, table: "ZITEM", predicate: nil, sortDescriptors: [])
    let before = try db.execute(SQLStatement(sql: "SELECT * FROM ZITEM ORDER BY Z_PK"))
    let refused: [([SQLiteLiveTable.Edit], String)] = [
      ([.insert(["Z_PK": 99, "ZTITLE": "new"])], "Z_PRIMARYKEY.Z_MAX"),
      ([.update(1, set: ["ZTITLE": "x"]), .delete(2)], "delete rules"),
      ([.update(1, set: ["Z_OPT": 7])], "bookkeeping"),
    ]
    for (edits, words) in refused {
      expectSiftError(id: "live-refused", stage: .live) { _ = try t.write(edits) }
      do { _ = try t.write(edits) } catch { #expect("\(error)".contains(words), "\(error)") }
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT * FROM ZITEM ORDER BY Z_PK")) == before)
  }
}
