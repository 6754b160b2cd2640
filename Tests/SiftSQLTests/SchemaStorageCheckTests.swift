import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// A schema written in code (or a file) is checked against the stored values on first use:
/// a date or boolean described one way and stored another is an error naming the column and
/// the fix, never a silent comparison of text with numbers (Grammar/notes/introspection.md).
@Suite("Hand-made schemas checked against the database")
struct SchemaStorageCheckTests {
  static func database() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE note (id INTEGER PRIMARY KEY, created TEXT, stamp INTEGER, day TEXT, flag TEXT, done INTEGER);
      INSERT INTO note VALUES (1, '2024-03-01T09:30:00Z', 1709285400000, '2024-03-01', 'yes', 1),
                              (2, NULL, NULL, NULL, NULL, 0);
      """)
    return db
  }

  static func schema(_ attributes: String) throws -> SQLSchema {
    try SQLSchema(json: #"{"entities": {"note": {"attributes": {"id": "integer", "# + attributes + "}}}}")
  }

  @Test func mismatchesNameTheColumnAndTheFix() throws {
    let cases: [(String, [String])] = [
      (
        #""created": {"type": "date", "dateEncoding": "secondsSince1970"}"#, ["note.created", "\"created\"", "iso8601"]
      ),
      (#""created": "date""#, ["note.created", "iso8601"]),  // the schema's default: seconds since 1970
      (#""stamp": {"type": "date", "dateEncoding": "secondsSince2001"}"#, ["note.stamp", "millisecondsSince1970"]),
      (#""stamp": {"type": "date", "dateEncoding": "iso8601"}"#, ["note.stamp", "the number 1709285400000"]),
      (#""flag": "boolean""#, ["note.flag", "\"yes\"", "\"string\""]),
    ]
    for (attributes, words) in cases {
      let db = try Self.database()
      let schema = try Self.schema(attributes)
      let error = try #require(throws: SiftError.self) {
        try db.fetch(SiftFetchRequest(entity: "note"), as: SiftRow.self, schema: schema)
      }
      #expect(error.diagnostic.id == "schema-mismatch", "\(attributes): \(error)")
      for w in words { #expect(error.diagnostic.message.contains(w), "\(attributes): \(error.diagnostic.message)") }
      expectSiftError(id: "schema-mismatch", stage: .sql) {
        try db.fetchCount(SiftFetchRequest(entity: "note"), schema: schema)
      }
    }
  }

  @Test func matchingDescriptionsPassAndAreCheckedOnce() throws {
    let db = try Self.database()
    let schema = try Self.schema(
      #""created": {"type": "date", "dateEncoding": "iso8601"}, "stamp": {"type": "date", "dateEncoding": "millisecondsSince1970"},"#
        + #" "day": {"type": "date", "dateEncoding": "isoDate"}, "flag": "string", "done": "boolean""#)
    let rows = try db.fetch(
      SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "created < stamp OR done == YES")),
      as: SiftRow.self,
      schema: schema)
    #expect(rows.count == 1)
    // Checked on first use only: a later bad value is not looked for again on this connection.
    try db.executeScript("UPDATE note SET done = 'maybe' WHERE id = 2")
    #expect(try db.fetchCount(SiftFetchRequest(entity: "note"), schema: schema) == 2)
    expectSiftError(id: "schema-mismatch", stage: .sql) { try schema.checkStorage(in: db, dialect: SQLiteDialect()) }
  }

  /// Every way of running a compiled request checks its schema first (issue #35, item 8a):
  /// `execute` of a compiled statement answered `day >= today` with yesterday's ISO text,
  /// compared as text against a number, where `fetch` refused the schema.
  @Test func everyWayOfRunningAStatementChecksItsSchema() async throws {
    let schema = try Self.schema(#""day": "date""#)  // no dateEncoding: seconds, over ISO text
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let today = Date(timeIntervalSince1970: 1_709_337_600)  // 2024-03-02, after the stored day
    let request = SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "day >= %@", today))
    let statement = try compiler.compile(request)
    let runs: [(String, (SQLiteDatabase) async throws -> Void)] = [
      ("execute", { _ = try $0.execute(statement) }),
      ("execute(timeLimit:)", { _ = try $0.execute(statement, timeLimit: 10_000) }),
      ("executeAsync", { _ = try await $0.executeAsync(statement) }),
      (
        "execute(policy:)",
        { _ = try $0.execute(request, policy: try SiftQueryPolicy(keys: ["day"]), compiler: compiler) }
      ),
      ("SQLCompiler.fetch", { _ = try compiler.fetch(request, as: SiftRow.self, in: $0) }),
      ("SQLCompiler.fetchCount", { _ = try compiler.fetchCount(request, in: $0) }),
    ]
    for (name, run) in runs {
      let db = try Self.database()
      do {
        try await run(db)
        Issue.record("\(name) ran without the schema check")
      } catch let error as SiftError {
        #expect(error.id == "schema-mismatch" && error.message.contains("note.day"), "\(name): \(error)")
      }
    }
    // A statement written by hand carries no schema; a schema that fits passes, once.
    let db = try Self.database()
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM note")) == [[.integer(2)]])
    let fitting = SQLCompiler(
      dialect: SQLiteDialect(), schema: try Self.schema(#""day": {"type": "date", "dateEncoding": "isoDate"}"#))
    #expect(try db.execute(try fitting.compile(request)).count == 0)
    #expect(try db.execute(try fitting.compile(SiftFetchRequest(entity: "note"))).count == 2)
  }

  /// Batch updates and deletes check their schema first too: `day < today` over ISO text
  /// described as seconds would otherwise change the wrong rows (all or none), in one transaction.
  @Test func batchWritesCheckTheirSchema() throws {
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try Self.schema(#""day": "date", "done": "integer""#))
    let today = Date(timeIntervalSince1970: 1_709_337_600)  // 2024-03-02, after the stored day
    let predicate = try SiftPredicate(format: "day < %@", today)
    let update = BatchUpdateRequest(entity: "note", predicate: predicate, assignments: [("done", .value(7))])
    let writes: [(String, (SQLiteDatabase) throws -> Void)] = [
      ("update", { try $0.run(update, compiler: compiler) }),
      ("delete", { try $0.run(BatchDeleteRequest(entity: "note", predicate: predicate), compiler: compiler) }),
    ]
    for (name, write) in writes {
      let db = try Self.database()
      do {
        try write(db)
        Issue.record("\(name) ran without the schema check")
      } catch let error as SiftError {
        #expect(error.id == "schema-mismatch" && error.message.contains("note.day"), "\(name): \(error)")
      }
      let rows = try db.execute(SQLStatement(sql: "SELECT id, done FROM note ORDER BY id"))
      #expect(rows == [[.integer(1), .integer(1)], [.integer(2), .integer(0)]], "\(name) changed rows")
    }
  }

  /// PostgreSQL: a `timestamptz` column described as seconds is caught the same way.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresNativeDateDescribedAsNumbers() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run("CREATE TABLE note (id int8 PRIMARY KEY, created timestamptz); INSERT INTO note VALUES (1, now())")
    let schema = try Self.schema(#""created": {"type": "date", "dateEncoding": "secondsSince1970"}"#)
    let error = try #require(throws: SiftError.self) {
      try db.fetch(SiftFetchRequest(entity: "note"), as: SiftRow.self, schema: schema)
    }
    #expect(error.diagnostic.id == "schema-mismatch" && error.diagnostic.message.contains("note.created"), "\(error)")
    // And by `execute` of a compiled statement, with or without a time limit.
    let statement = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compile(
      SiftFetchRequest(entity: "note"))
    for run in [{ try db.execute(statement) }, { try db.execute(statement, timeLimit: 10_000) }] {
      let e = try #require(throws: SiftError.self) { _ = try run() }
      #expect(e.id == "schema-mismatch", "\(e)")
    }
  }
}
