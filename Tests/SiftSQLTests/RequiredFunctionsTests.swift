import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// A compiled statement names the Sift SQL functions it calls (`SQLStatement.requiredFunctions`);
/// PostgreSQL checks they exist before running it and names `sift setup-sql` when they do not;
/// SQLite registers them on every `SQLiteDatabase` connection, read-only ones included.
@Suite("Sift SQL functions a statement needs")
struct RequiredFunctionsTests {
  @Test func scannerFindsCallsOnly() {
    let cases: [(String, [String])] = [
      ("SELECT 1", []),
      ("SELECT * FROM t0 WHERE sift_fold(t0.\"title\", 1) = sift_fold(?, 1)", ["sift_fold"]),
      ("WHERE sift_search(a, ?, 0, 3) AND SIFT_LIKE (a, ?, 1)", ["sift_like", "sift_search"]),
      ("WHERE t0.\"name\" REGEXP ?", ["regexp"]),
      ("ORDER BY t0.\"name\" COLLATE \"SIFT_LOCALIZED\" ASC", ["SIFT_LOCALIZED"]),
      ("ORDER BY t0.\"name\" COLLATE \"C\" ASC", []),
      // Quoted identifiers and literals are not calls; a schema-qualified name is.
      ("SELECT \"sift_fold\"(x), 'sift_fdiv(1, 2)', t0.\"regexp\" FROM t", []),
      ("SELECT s.sift_exact(1), sift.sift_fold(x, 1)", ["sift_exact", "sift_fold"]),
      ("SELECT 'it''s sift_fold(' || sift_fdiv(a, b)", ["sift_fdiv"]),
      ("SELECT \"a\"\"sift_fold(\" FROM t", []),
      ("SELECT sift_foldx", []),
    ]
    for (sql, expected) in cases {
      #expect(SQLStatement(sql: sql).requiredFunctions == expected, "\(sql)")
    }
  }

  /// Qualified calls and collations keep their schema: PostgreSQL looks each up there.
  @Test func referencesKeepTheirSchema() {
    let sql =
      "SELECT sift.sift_fold(t0.\"a\", 1), \"my schema\".sift_fdiv(a, b), sift_exact(c) FROM t0"
      + " ORDER BY t0.\"a\" COLLATE \"sift\".\"sift_localized\" ASC, t0.\"b\" COLLATE \"C\""
    let refs = SQLStatement(sql: sql).requiredFunctionReferences
    #expect(
      refs == [
        SQLFunctionReference(schema: nil, name: "sift_exact"),
        SQLFunctionReference(schema: "my schema", name: "sift_fdiv"),
        SQLFunctionReference(schema: "sift", name: "sift_fold"),
        SQLFunctionReference(schema: "sift", name: "sift_localized"),
      ])
  }

  static let notes = """
    {"entities": {"note": {"attributes": {"id": "integer", "title": "string", "rating": "double", "words": "integer"}}}}
    """

  /// Predicates on `note`, with the functions each needs on SQLite and on PostgreSQL.
  static let predicates: [(String, sqlite: [String], postgres: [String])] = [
    ("title == 'Plan'", [], []),
    ("title BEGINSWITH 'Pl' AND rating > 2", [], []),
    ("title ==[c] 'plan'", ["sift_fold"], ["sift_fold"]),
    ("title BEGINSWITH[cd] 'pl'", ["sift_fold"], ["sift_fold"]),
    ("title ENDSWITH[c] 'AN'", ["sift_search"], ["sift_fold"]),
    ("title CONTAINS 'la'", [], []),
    ("title CONTAINS[c] 'LA'", ["sift_search"], ["sift_fold"]),
    ("title LIKE[c] 'p*'", ["sift_like"], ["sift_fold"]),
    ("title MATCHES 'P.*'", ["regexp"], []),
    ("title MATCHES[c] 'p.*'", ["sift_matches"], []),
    ("rating / 2 > 1", ["sift_div"], ["sift_fdiv"]),
    ("rating == words", [], ["sift_exact"]),
  ]

  @Test func compiledStatementsNameTheirFunctions() throws {
    let schema = try SQLSchema(json: Self.notes)
    let sqlite = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let postgres = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    for (format, lite, pg) in Self.predicates {
      let request = SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: format))
      #expect(try sqlite.compile(request).requiredFunctions == lite, "sqlite: \(format)")
      #expect(try postgres.compile(request).requiredFunctions == pg, "postgres: \(format)")
    }
  }

  /// Every function a statement names is one a read-only `SQLiteDatabase` connection has:
  /// nothing to set up on SQLite.
  @Test func sqliteReadOnlyConnectionsNeedNoSetup() throws {
    let dir = try scratchDirectory("sift-functions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("notes.sqlite").path
    try SQLiteDatabase(path: path).executeScript(
      "CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT, rating REAL, words INTEGER);"
        + "INSERT INTO note VALUES (1, 'Plan', 4.5, 3), (2, 'plán', 1.0, 1), (3, 'Other', NULL, 2)")
    let db = try SQLiteDatabase(readOnly: path)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    var used: Set<String> = []
    for (format, _, _) in Self.predicates {
      let st = try compiler.compile(SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: format)))
      used.formUnion(st.requiredFunctions)
      _ = try db.execute(st)
    }
    #expect(used == ["sift_fold", "sift_search", "sift_like", "regexp", "sift_matches", "sift_div"])
    let folded = try compiler.compile(
      SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "title ==[cd] 'PLAN'")))
    #expect(try db.execute(folded).count == 2)
  }

  /// A function schema of its own for a test (Sift's `sift` may be set up by other tests).
  static func freshFunctionSchema() -> String {
    "sift_fn_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
  }

  /// A connection to a fresh schema without Sift's functions, `public` left out of its path
  /// (another schema there may have them).
  static func bareConnection() throws -> PostgresDatabase {
    guard let info = PostgresTestServer.conninfo else { throw PostgresError(kind: .connection, message: "no server") }
    let db = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_nosetup"))
    let name = try #require(db.schemaName)
    try db.run(
      "SET search_path TO \(PostgresDatabase.quoteIdentifier(name));"
        + "CREATE TABLE note (id bigint PRIMARY KEY, title text, rating double precision, words bigint);"
        + "INSERT INTO note VALUES (1, 'Plan', 4.5, 3), (2, 'plán', 1.0, 1), (3, 'Other', NULL, 2)")
    return db
  }

  /// Without the setup, statements that need no function run, and each one that does fails
  /// before it runs with an error naming the function and `sift setup-sql`; after the setup
  /// the same statements run (a missing function is not remembered as missing).
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresWithoutSetupFailsUpFront() throws {
    let db = try Self.bareConnection()
    let functions = Self.freshFunctionSchema()
    defer {
      try? db.run("DROP SCHEMA IF EXISTS \(functions) CASCADE")
      db.close()
    }
    let compiler = SQLCompiler(
      dialect: PostgreSQLDialect(functionSchema: functions), schema: try SQLSchema(json: Self.notes))
    var statements: [(String, SQLStatement)] = []
    for (format, _, pg) in Self.predicates {
      let st = try compiler.compile(SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: format)))
      statements.append((format, st))
      if pg.isEmpty {
        _ = try db.execute(st)
        continue
      }
      do {
        _ = try db.execute(st)
        Issue.record("\(format): ran without \(pg)")
      } catch {
        #expect(error.kind == .missingSetup, "\(format): \(error)")
        for name in pg { #expect(error.message.contains("\(functions).\(name)"), "\(format): \(error.message)") }
        #expect(error.message.contains("sift setup-sql --dialect postgres"))
        #expect(!error.message.contains("\n"))
      }
    }
    // The server's own error, for comparison, is what the check prevents.
    expectSiftError(id: "postgres-query", stage: .sql) { try db.run("SELECT \(functions).sift_fold('a', 1)") }
    #expect(try db.prepareSiftFunctions(schema: functions))
    #expect(try !db.prepareSiftFunctions(schema: functions))  // current: nothing to do
    for (format, st) in statements {
      #expect(throws: Never.self, "\(format)") { _ = try db.execute(st) }
    }
    let folded = try compiler.compile(
      SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "title ==[cd] 'PLAN'")))
    #expect(try db.execute(folded).count == 2)
  }

  /// A read-only connection cannot create the functions; the error still names the setup.
  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresReadOnlyNamesTheSetup() throws {
    let owner = try Self.bareConnection()
    defer { owner.close() }
    let name = try #require(owner.schemaName)
    let info = try #require(PostgresTestServer.conninfo)
    let db = try PostgresDatabase(conninfo: info, schema: .named(name), readOnly: true)
    defer { db.close() }
    try db.run("SET search_path TO \(PostgresDatabase.quoteIdentifier(name))")
    let functions = Self.freshFunctionSchema()
    let dialect = PostgreSQLDialect(functionSchema: functions)
    let compiler = SQLCompiler(dialect: dialect, schema: try db.introspectSchema(named: name).schema)
    let st = try compiler.compile(
      SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "title ==[c] 'plan'")))
    let error = try #require(throws: SiftError.self) { try db.execute(st) }
    #expect(error.kind == .missingSetup)
    #expect(error.message.contains("\(functions).sift_fold ([c]/[d] comparisons"), "\(error.message)")
    #expect(error.message.contains("schema sift"))
  }
}
