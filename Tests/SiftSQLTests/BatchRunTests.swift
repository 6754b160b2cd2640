import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// Batch requests are run by the driver (`SQLDatabase.run(_:compiler:resultType:)`): one
/// transaction each, all or nothing, counted, keys on request; in a database Sift did not
/// create, Sift adds no foreign-key rule of its own (Grammar/notes/sql.md, "Batch writes").
@Suite("Batch requests run as one transaction")
struct BatchRunTests {
  /// A user's database: a parent, a child whose foreign key cascades, and a join table the
  /// database declares nothing about.
  static func shop() throws -> (SQLiteDatabase, SQLCompiler) {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE shop (id INTEGER PRIMARY KEY, name TEXT NOT NULL, opened DATETIME, open BOOLEAN);
      CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT, shop_id INTEGER REFERENCES shop(id) ON DELETE CASCADE);
      CREATE TABLE shop_tag (shop_id INTEGER, tag TEXT);
      CREATE TABLE lease (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE RESTRICT);
      INSERT INTO lease VALUES (1, 3);
      INSERT INTO shop VALUES (1, 'a', '2024-01-01T00:00:00Z', 1), (2, 'b', '2024-02-01T00:00:00Z', 0), (3, 'c', NULL, 1);
      INSERT INTO item VALUES (10, 'x', 1), (11, 'y', 2), (12, 'z', 2);
      INSERT INTO shop_tag VALUES (1, 'wifi'), (2, 'late');
      """)
    let schema = try db.introspectSchema().schema
    return (db, SQLCompiler(dialect: SQLiteDialect(), schema: schema))
  }

  static func count(_ db: SQLiteDatabase, _ table: String) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"\(table)\""))
  }

  @Test func deleteFollowsTheDatabasesOwnRules() throws {
    let (db, compiler) = try Self.shop()
    #expect(compiler.schema.layout == .existing)
    #expect(compiler.schema.entity("shop")?.relationships.isEmpty == false)  // item's key, read as a to-many
    let statements = try compiler.compile(
      BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id == 2")))
    #expect(statements.count == 1, "\(statements.map(\.sql))")  // no UPDATE … SET shop_id = NULL, no join clean-up
    let result = try db.run(
      BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id == 2")), compiler: compiler,
      resultType: .keys)
    #expect(result == SiftBatchResult(count: 1, keys: [[.integer(2)]]))
    // The database's ON DELETE CASCADE removed its items; the join rows nobody declared stay.
    #expect(
      try db.execute(SQLStatement(sql: "SELECT id, shop_id FROM item ORDER BY id")) == [[.integer(10), .integer(1)]])
    #expect(try Self.count(db, "shop_tag") == [[.integer(2)]])
    #expect(
      try db.run(
        BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id > 100")), compiler: compiler
      ).count == 0)
    // The connection's own setting (SQLite's default: off) is back afterwards.
    #expect(try db.execute(SQLStatement(sql: "PRAGMA foreign_keys")) == [[.integer(0)]])
  }

  /// A key the database declares RESTRICT refuses the delete: all of it is undone.
  @Test func restrictedKeyRefusesTheWholeDelete() throws {
    let (db, compiler) = try Self.shop()
    expectSiftError(id: "foreign-key-violation", stage: .sql, at: 0) {
      try db.run(
        BatchDeleteRequest(entity: "shop", predicate: try SiftPredicate(format: "id >= 2")), compiler: compiler)
    }
    #expect(try Self.count(db, "shop") == [[.integer(3)]])
    #expect(try Self.count(db, "item") == [[.integer(3)]])
  }

  @Test func updateCountsAndWritesTheColumnsForm() throws {
    let (db, compiler) = try Self.shop()
    let request = BatchUpdateRequest(
      entity: "shop", predicate: try SiftPredicate(format: "open == true"),
      assignments: [("opened", .value(.date(Date(timeIntervalSince1970: 86_400)))), ("open", .value(false))])
    let result = try db.run(request, compiler: compiler, resultType: .keys)
    #expect(result.count == 2 && result.keys.map { Set($0) } == [[.integer(1)], [.integer(3)]])
    let rows = try db.execute(SQLStatement(sql: "SELECT opened, open FROM shop WHERE id IN (1, 3)"))
    #expect(rows == [[.text("1970-01-02T00:00:00Z"), .integer(0)], [.text("1970-01-02T00:00:00Z"), .integer(0)]])
    #expect(try db.run(request, compiler: compiler).keys == nil)
  }

  /// Plain Swift values in a batch insert and an update expression, stored in the columns' forms.
  @Test func plainSwiftValuesInsertAndUpdate() throws {
    let (db, compiler) = try Self.shop()
    let name = "d"
    let opened = Date(timeIntervalSince1970: 86_400)
    let open: Bool? = nil
    let insert = try BatchInsertRequest(
      entity: "shop", objects: [["id": 4, "name": name, "opened": opened, "open": open]])
    #expect(try db.run(insert, compiler: compiler).count == 1)
    let newName: Substring = "e"
    let rename = BatchUpdateRequest(
      entity: "shop", predicate: try SiftPredicate(format: "id == %@", 4),
      assignments: [("name", try SQLUpdateValue.expression("%@", newName))])
    #expect(try db.run(rename, compiler: compiler).count == 1)
    let rows = try db.execute(SQLStatement(sql: "SELECT name, opened, open FROM shop WHERE id = 4"))
    #expect(rows == [[.text("e"), .text("1970-01-02T00:00:00Z"), .null]])
    struct Unstorable {}
    #expect {
      _ = try BatchInsertRequest(entity: "shop", objects: [["id": 5, "name": Unstorable()]])
    } throws: { error in
      (error as? SiftError)?.id == "unsupported-argument-type"
        && "\(error)".contains("object 0, 'name'")
    }
    #expect(try Self.count(db, "shop") == [[.integer(4)]])
  }

  /// The second object breaks the key: neither is inserted.
  @Test func insertIsAllOrNothing() throws {
    let (db, compiler) = try Self.shop()
    let bad = BatchInsertRequest(entity: "shop", objects: [["id": 4, "name": "d"], ["id": 1, "name": "again"]])
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) { try db.run(bad, compiler: compiler) }
    #expect(try Self.count(db, "shop") == [[.integer(3)]])
    let good = BatchInsertRequest(
      entity: "shop",
      objects: [["id": 4, "name": "d", "opened": .date(Date(timeIntervalSince1970: 0))], ["id": 5, "name": "e"]])
    #expect(
      try db.run(good, compiler: compiler, resultType: .keys)
        == SiftBatchResult(count: 2, keys: [[.integer(4)], [.integer(5)]]))
    #expect(
      try db.execute(SQLStatement(sql: "SELECT opened FROM shop WHERE id = 4")) == [[.text("1970-01-01T00:00:00Z")]])
    let unknown = BatchInsertRequest(entity: "shop", objects: [["id": 6, "nope": 1]])
    expectSiftError(id: "invalid-assignment", stage: .sql, at: 0) { try db.run(unknown, compiler: compiler) }
  }

  /// In tables Sift created the clean-up still runs, in the same transaction: when it fails,
  /// the DELETE is undone.
  @Test func siftLayoutCleanUpFailingUndoesTheDelete() throws {
    let db = try SQLiteDatabase()
    try db.load(SQLFixtures.records, entity: "Venue", schema: SQLFixtures.schema, dialect: SQLiteDialect())
    let request = BatchDeleteRequest(entity: "Venue", predicate: try SiftPredicate(format: "rating == nil"))
    try db.executeScript("ALTER TABLE \"venue__tags\" RENAME TO \"moved\"")
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) { try db.run(request, compiler: SQLFixtures.sqlite) }
    #expect(try Self.count(db, "venue") == [[.integer(1000)]])
    try db.executeScript("ALTER TABLE \"moved\" RENAME TO \"venue__tags\"")
    let deleted = try db.run(request, compiler: SQLFixtures.sqlite).count
    let left = try Self.count(db, "venue")
    #expect(deleted > 0 && left == [[.integer(Int64(1000 - deleted))]])
  }

  /// PostgreSQL: a table with a `text[]` column (no side table) deletes in one statement, and
  /// an insert whose second row fails leaves nothing.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresArraysAndAllOrNothing() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let name = try #require(db.schemaName)
    try db.run(
      "CREATE TABLE venue (id int8 PRIMARY KEY, tags text[], at timestamptz);"
        + "INSERT INTO venue VALUES (1, '{wifi}', now()), (2, '{}', NULL), (3, NULL, NULL)")
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: name).schema)
    let result = try db.run(
      BatchDeleteRequest(entity: "venue", predicate: try SiftPredicate(format: "ANY tags == 'wifi'")),
      compiler: compiler,
      resultType: .keys)
    #expect(result == SiftBatchResult(count: 1, keys: [[.integer(1)]]))
    let bad = BatchInsertRequest(entity: "venue", objects: [["id": 4], ["id": 2]])
    expectSiftError(id: "postgres-query", stage: .sql) { try db.run(bad, compiler: compiler) }
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM venue")) == [[.integer(2)]])
    let at = Date(timeIntervalSince1970: 1_700_000_000.25)
    #expect(
      try db.run(BatchInsertRequest(entity: "venue", objects: [["id": 4, "at": .date(at)]]), compiler: compiler).count
        == 1)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT extract(epoch FROM at)::float8 FROM venue WHERE id = 4")) == [
        [.double(1_700_000_000.25)]
      ])
  }
}

/// A Core Data store is written only with Core Data's bookkeeping, or not at all.
@Suite("Batch writes to a Core Data store")
struct CoreDataBatchWriteTests {
  static func store() throws -> (SQLiteDatabase, SQLCompiler) {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZCREATEDAT TIMESTAMP,
        ZDONE INTEGER, ZOWNER INTEGER);
      CREATE TABLE ZOWNER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
      INSERT INTO ZITEM VALUES (1, 1, 1, 'a', 0, 0, 1), (2, 1, 3, 'b', 0, 0, 1);
      INSERT INTO ZOWNER VALUES (1, 2, 1, 'o');
      """)
    let item = SQLEntity(
      name: "Item", table: "ZITEM", primaryKey: "Z_PK",
      attributes: [
        SQLAttribute(name: "title", column: "ZTITLE", type: .string),
        SQLAttribute(name: "createdAt", column: "ZCREATEDAT", type: .date),
        SQLAttribute(name: "done", column: "ZDONE", type: .boolean),
      ],
      relationships: [SQLRelationship(name: "owner", target: "Owner", kind: .toOne(foreignKey: "ZOWNER"))])
    let owner = SQLEntity(
      name: "Owner", table: "ZOWNER", primaryKey: "Z_PK",
      attributes: [SQLAttribute(name: "name", column: "ZNAME", type: .string)],
      relationships: [SQLRelationship(name: "items", target: "Item", kind: .toMany(inverseForeignKey: "ZOWNER"))])
    let schema = try SQLSchema(entities: [item, owner], dateEncoding: .referenceDateSeconds, layout: .existing)
    return (db, SQLCompiler(dialect: SQLiteDialect(), schema: schema))
  }

  /// Z_OPT goes up by one on each row updated; the date is seconds since 2001, the boolean 0/1.
  @Test func updateKeepsTheBookkeeping() throws {
    let (db, compiler) = try Self.store()
    let at = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
    let result = try db.run(
      BatchUpdateRequest(
        entity: "Item", predicate: try SiftPredicate(format: "title == 'b'"),
        assignments: [("createdAt", .value(.date(at))), ("done", .value(true))]),
      compiler: compiler)
    #expect(result.count == 1)
    let rows = try db.execute(SQLStatement(sql: "SELECT Z_PK, Z_OPT, ZCREATEDAT, ZDONE FROM ZITEM ORDER BY Z_PK"))
    #expect(
      rows == [
        [.integer(1), .integer(1), .integer(0), .integer(0)],
        [.integer(2), .integer(4), .double(700_000_000.5), .integer(1)],
      ], "\(rows)")
  }

  /// Inserting needs Z_PRIMARYKEY and Z_ENT; deleting an entity with relationships needs Core
  /// Data's delete rules: both refused, nothing changed. An entity without relationships deletes.
  @Test func insertsAndRelatedDeletesAreRefused() throws {
    let (db, compiler) = try Self.store()
    let insert = try #require(throws: SiftError.self) {
      try db.run(BatchInsertRequest(entity: "Item", objects: [["title": "c"]]), compiler: compiler)
    }
    #expect(insert.diagnostic.id == "unsupported-write" && insert.diagnostic.message.contains("Z_PRIMARYKEY"))
    let delete = try #require(throws: SiftError.self) {
      try db.run(BatchDeleteRequest(entity: "Owner"), compiler: compiler)
    }
    #expect(delete.diagnostic.id == "unsupported-write" && delete.diagnostic.message.contains("delete rules"))
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM ZITEM")) == [[.integer(2)]])
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM ZOWNER")) == [[.integer(1)]])
  }
}
