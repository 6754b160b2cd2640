import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Live-table writes (and so `sift watch --write` and the REPL's `.insert`/`.update`/`.delete`)
/// follow the foreign keys the database declares: `ON DELETE CASCADE` removes the children, a
/// `RESTRICT` or `NO ACTION` key refuses the write with `foreign-key-violation` and nothing is
/// written; `PRAGMA foreign_key_check` is as clean after as before (issue #35, item 1). A
/// `COMMIT` that fails puts the results back, so nothing unwritten is ever reported (item 3).
@Suite struct SQLiteLiveForeignKeyTests {
  static func shop() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE shop (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE item (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE CASCADE);
      CREATE TABLE lease (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE RESTRICT);
      CREATE TABLE note (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id));
      CREATE TABLE audit (id INTEGER PRIMARY KEY,
                          shop_id INTEGER REFERENCES shop(id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO shop VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');
      INSERT INTO item VALUES (10, 1), (11, 1), (12, 2);
      INSERT INTO lease VALUES (20, 3);
      INSERT INTO note VALUES (30, 4);
      INSERT INTO audit VALUES (40, 5);
      """)
    return db
  }

  static func violations(_ db: SQLiteDatabase) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "PRAGMA foreign_key_check"))
  }

  static func ids(_ db: SQLiteDatabase, _ table: String) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "SELECT id FROM \(table) ORDER BY id"))
  }

  @Test func deleteCascadesToTheChildren() throws {
    let db = try Self.shop()
    let t = try SQLiteLiveTable(database: db, table: "shop", predicate: nil, sortDescriptors: [])
    #expect(try Self.violations(db).isEmpty)
    let changes = try t.write([.delete(1)])
    #expect(changes.deleted.count == 1)
    #expect(try Self.ids(db, "item") == [[.integer(12)]])
    #expect(try Self.violations(db).isEmpty)
    // The connection's own setting (SQLite's default, off) is back after the write.
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_keys")) == [[.integer(0)]])
  }

  /// RESTRICT and NO ACTION (immediate) refuse at the statement, a deferred key at COMMIT:
  /// each is `foreign-key-violation`, and nothing of the batch is written or shown.
  @Test(arguments: [3, 4, 5])
  func aReferencedRowIsNotDeleted(shop: Int) throws {
    let db = try Self.shop()
    let t = try SQLiteLiveTable(database: db, table: "shop", predicate: nil, sortDescriptors: [])
    let before = t.results.sections.flatMap(\.ids)
    #expect {
      try t.write([.update(2, set: ["name": "renamed"]), .delete(1), .delete(.int(Int64(shop)))])
    } throws: { error in
      (error as? SiftError)?.id == "foreign-key-violation" && "\(error)".contains("FOREIGN KEY constraint failed")
    }
    #expect(try Self.ids(db, "shop").count == 5)
    #expect(try Self.ids(db, "item").count == 3)
    #expect(try db.execute(SQLStatement(sql: "SELECT name FROM shop WHERE id = 2")) == [[.text("b")]])
    #expect(try Self.violations(db).isEmpty)
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_keys")) == [[.integer(0)]])
    // The results are as before, and the next look finds nothing to report: the rolled-back
    // write is nobody's change.
    #expect(t.results.sections.flatMap(\.ids) == before)
    #expect(t.results.record(for: 2)?["name"] == .string("b"))
    let next = try t.refresh()
    #expect(next == nil || next?.isEmpty == true, "\(String(describing: next))")
    #expect(t.results.sections.flatMap(\.ids) == before)
    // The table is still writable, and follows the keys.
    _ = try t.write([.delete(2)])
    #expect(try Self.ids(db, "item") == [[.integer(10)], [.integer(11)]])
  }

  /// A child pointing at no parent is refused on insert and update.
  @Test func aChildNeedsItsParent() throws {
    let db = try Self.shop()
    let t = try SQLiteLiveTable(database: db, table: "item", predicate: nil, sortDescriptors: [])
    for edit: SQLiteLiveTable.Edit in [.insert(["id": 13, "shop_id": 99]), .update(10, set: ["shop_id": 99])] {
      #expect {
        try t.write([edit])
      } throws: { error in
        (error as? SiftError)?.id == "foreign-key-violation"
      }
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT id, shop_id FROM item WHERE id >= 10 ORDER BY id")).count == 3)
    #expect(try Self.violations(db).isEmpty)
    _ = try t.write([.insert(["id": 13, "shop_id": 2])])
    #expect(try Self.violations(db).isEmpty)
  }

  /// A connection that turned the keys on itself keeps them on.
  @Test func theConnectionsOwnSettingIsKept() throws {
    let db = try Self.shop()
    try db.executeScript("PRAGMA foreign_keys = ON")
    let t = try SQLiteLiveTable(database: db, table: "shop", predicate: nil, sortDescriptors: [])
    _ = try t.write([.delete(1)])
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_keys")) == [[.integer(1)]])
  }
}
