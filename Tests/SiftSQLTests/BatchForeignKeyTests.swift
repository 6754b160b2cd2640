import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Every batch write (delete, update, insert) follows the foreign keys the database declares,
/// on SQLite (where they act only with `PRAGMA foreign_keys` on, which `run` sets around the
/// write) and PostgreSQL (always): a refused write is `foreign-key-violation` and leaves nothing
/// done, and `PRAGMA foreign_key_check` is clean after (issue #35, item 1).
@Suite("Batch writes and declared foreign keys")
struct BatchForeignKeyTests {
  static func violations(_ db: SQLiteDatabase) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "PRAGMA foreign_key_check"))
  }

  @Test func sqliteRefusalsHaveTheirIDAndChangeNothing() throws {
    let (db, compiler) = try BatchRunTests.shop()
    #expect(try Self.violations(db).isEmpty)
    let delete = try #require(throws: SiftError.self) {
      try db.run(
        BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id >= 2")), compiler: compiler)
    }
    #expect(delete.id == "foreign-key-violation", "\(delete)")
    #expect(delete.diagnostic.message.contains("FOREIGN KEY constraint failed"))
    let update = try #require(throws: SiftError.self) {
      try db.run(
        BatchUpdateRequest(
          entity: "item", predicate: try SiftPredicate(format: "id >= 11"), assignments: [("shop_id", .value(99))]),
        compiler: compiler)
    }
    #expect(update.id == "foreign-key-violation", "\(update)")
    let insert = try #require(throws: SiftError.self) {
      try db.run(
        BatchInsertRequest(entity: "item", objects: [["id": 13, "shop_id": 1], ["id": 14, "shop_id": 99]]),
        compiler: compiler)
    }
    #expect(insert.id == "foreign-key-violation", "\(insert)")
    #expect(
      try db.execute(SQLStatement(sql: "SELECT id, shop_id FROM item ORDER BY id")) == [
        [.integer(10), .integer(1)], [.integer(11), .integer(2)], [.integer(12), .integer(2)],
      ])
    #expect(try BatchRunTests.count(db, "shop") == [[.integer(3)]])
    #expect(try Self.violations(db).isEmpty)
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_keys")) == [[.integer(0)]])
  }

  /// PostgreSQL enforces declared keys always: CASCADE acts, RESTRICT refuses with the same id,
  /// and the refused delete leaves every row (none of the rows it matched first is gone).
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresFollowsTheKeys() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let name = try #require(db.schemaName)
    try db.run(
      """
      CREATE TABLE shop (id int8 PRIMARY KEY, name text);
      CREATE TABLE item (id int8 PRIMARY KEY, shop_id int8 REFERENCES shop(id) ON DELETE CASCADE);
      CREATE TABLE lease (id int8 PRIMARY KEY, shop_id int8 REFERENCES shop(id) ON DELETE RESTRICT);
      INSERT INTO shop VALUES (1, 'a'), (2, 'b'), (3, 'c');
      INSERT INTO item VALUES (10, 1), (11, 2);
      INSERT INTO lease VALUES (20, 3);
      """)
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: name).schema)
    let refused = try #require(throws: SiftError.self) {
      try db.run(
        BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id >= 1")), compiler: compiler)
    }
    #expect(refused.id == "foreign-key-violation", "\(refused)")
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM shop")) == [[.integer(3)]])
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM item")) == [[.integer(2)]])
    let insert = try #require(throws: SiftError.self) {
      try db.run(
        BatchInsertRequest(entity: "item", objects: [["id": 12, "shop_id": 1], ["id": 13, "shop_id": 9]]),
        compiler: compiler)
    }
    #expect(insert.id == "foreign-key-violation", "\(insert)")
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM item")) == [[.integer(2)]])
    let deleted = try db.run(
      BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id == 1")), compiler: compiler)
    #expect(deleted.count == 1)
    #expect(try db.execute(SQLStatement(sql: "SELECT id FROM item ORDER BY id")) == [[.integer(11)]])
  }
}
