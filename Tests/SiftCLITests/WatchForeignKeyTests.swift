import Foundation
import SiftSQL
import SiftSQLite
import Testing

/// `sift watch --db FILE --write` follows the database's declared foreign keys (issue #35,
/// item 1), and a batch the database refuses at COMMIT is rolled back without being echoed
/// afterwards as another program's change (item 3).
@Suite(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
struct WatchForeignKeyTests {
  static func database() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-watch-fk-\(UUID().uuidString).sqlite"
    )
    .path
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE shop (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE item (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE CASCADE);
      CREATE TABLE lease (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE RESTRICT);
      CREATE TABLE audit (id INTEGER PRIMARY KEY,
                          shop_id INTEGER REFERENCES shop(id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO shop VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
      INSERT INTO item VALUES (10, 1), (11, 1), (12, 2);
      INSERT INTO lease VALUES (20, 3);
      INSERT INTO audit VALUES (40, 4);
      """)
    return path
  }

  @Test func writesFollowTheDeclaredKeys() throws {
    let path = try Self.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = try SiftProcess.run(
      ["watch", "TRUEPREDICATE", "--db", path, "--entity", "shop", "--sort", "id", "--write"],
      stdin: #"{"delete": 3}"# + "\n"
        + #"{"batch": [{"update": {"id": 2, "set": {"name": "x"}}}, {"delete": 4}]}"# + "\n"
        + #"{"delete": 1}"# + "\n")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(r.status == 0)
    #expect(lines.count == 4, "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix(#"{"error": {"message": "shop: FOREIGN KEY constraint failed"#) == true)
    #expect(lines.dropFirst(2).first?.hasPrefix(#"{"error": {"message": "shop: FOREIGN KEY constraint failed"#) == true)
    // No {"external": true, …} line: the refused batch was this watch's own, and rolled back.
    #expect(!r.stdout.contains("external"), "\(r.stdout)")
    #expect(
      lines.last
        == #"{"sections": {"deleted": [], "inserted": []}, "deleted": [[0, 0]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "", "ids": [2, 3, 4]}]}}"#
    )
    let db = try SQLiteDatabase(readOnly: path)
    #expect(try db.execute(SQLStatement(sql: "SELECT id FROM item ORDER BY id")) == [[.integer(12)]])
    #expect(try db.execute(SQLStatement(sql: "SELECT name FROM shop WHERE id = 2")) == [[.text("b")]])
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_key_check")).isEmpty)
  }
}
