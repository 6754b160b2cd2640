import Foundation
import SiftMySQL
import SiftSQL
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `--mysql URL` on the commands and the REPL, on a database of its own
/// (`sift_cli_<random>`, dropped after each test): read-only unless `batch --write`, errors
/// that name the server and never the password, and conflicting engine flags as usage errors.
/// Skipped, visibly, without env `SIFT_MYSQL` (`.ci/mariadb-setup` prints one).
@Suite("--mysql on the command line", .enabled(if: MySQLCLIServer.url != nil, "set SIFT_MYSQL to run"))
struct MySQLCLITests {
  /// A scratch database with `place` (FetchSubcommandTests.script) and a table with a hostile name.
  final class Scratch {
    let name = "sift_cli_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    let admin: MySQLDatabase
    let url: String

    init() throws {
      let server = try #require(MySQLCLIServer.url)
      admin = try MySQLDatabase(url: server, readOnly: false)
      try admin.executeScript("CREATE DATABASE \(MySQLDatabase.quoteIdentifier(name)) CHARACTER SET utf8mb4")
      var parsed = try MySQLURL(server)
      parsed.database = name
      url = MySQLCLIServer.text(parsed)
      let db = try MySQLDatabase(url: url, readOnly: false)
      defer { db.close() }
      try db.executeScript(FetchSubcommandTests.script)
      try db.executeScript("CREATE TABLE `we``ird \"t'` (id INT PRIMARY KEY, `co``l` TEXT)")
      try db.executeScript("INSERT INTO `we``ird \"t'` VALUES (1, 'a`b'), (2, 'x')")
    }

    func rows(_ sql: String) throws -> [[SQLValue]] {
      let db = try MySQLDatabase(url: url)
      defer { db.close() }
      return try db.execute(SQLStatement(sql: sql))
    }

    deinit {
      try? admin.executeScript("DROP DATABASE IF EXISTS \(MySQLDatabase.quoteIdentifier(name))")
      admin.close()
    }
  }

  /// The commands of SiftSQL.docc/ExistingDatabases.md on Tests/Fixtures/existing/shop.mysql.sql,
  /// which they leave as it was.
  @Test func theArticlesShopCommands() throws {
    let s = try Scratch()
    let script = try String(
      contentsOf: ExistingFixture.fixtures.appendingPathComponent("existing/shop.mysql.sql"), encoding: .utf8)
    let owner = try MySQLDatabase(url: s.url, readOnly: false)
    defer { owner.close() }
    try owner.executeScript(script)
    let tables =
      "SELECT TABLE_NAME, UPDATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1"
    let before = try s.rows(tables)
    let schema = try SiftProcess.run(["schema", "--mysql", s.url, "--text"], stdin: "")
    #expect(schema.status == 0 && schema.stdout.contains("entity order: table order"), "\(schema.stderr)")
    let batch = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "product"],
      stdin: #"{"id": 1, "format": "price > 10 OR ANY category.name == %@", "args": ["garden"]}"#)
    #expect(batch.stdout.contains(#""rows": ["HAM-1", "SEED-7"]"#), "\(batch.stdout) \(batch.stderr)")
    let repl = try SiftProcess.run(["--mysql", s.url, "-c", ".use product", "-c", ".plan price > 10"], stdin: "")
    #expect(repl.stdout.contains("t0: type"), "\(repl.stdout) \(repl.stderr)")
    #expect(try s.rows(tables) == before)
  }

  @Test func sqlReadsTheSchemaAndBindsEveryValue() throws {
    let s = try Scratch()
    let r = try SiftProcess.run(
      ["sql", "name BEGINSWITH %@ AND city == 'Oslo'", "--arg", #""br""#, "--mysql", s.url, "--entity", "place"],
      stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    // The statement, then one `-- ?N = value` line per binding.
    let sql = String(r.stdout.split(separator: "\n").first ?? "")
    #expect(sql.contains("FROM `place`"), "\(r.stdout)")
    #expect(!sql.contains("Oslo") && !sql.contains("br"), "a value in the SQL: \(sql)")
    #expect(r.stdout.contains(" = 'Oslo'"), "\(r.stdout)")
  }

  @Test func schemaListsTheTablesIncludingHostileNames() throws {
    let s = try Scratch()
    let r = try SiftProcess.run(["schema", "--mysql", s.url, "--text"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("place"))
    #expect(r.stdout.contains("we`ird \"t'"), "\(r.stdout)")
  }

  @Test func fetchAgreesWithSQLite() throws {
    let s = try Scratch()
    let db = FetchSubcommandTests.scratch("sqlite")
    try SQLiteDatabase(path: db).executeScript(FetchSubcommandTests.script)
    let request = ["--where", "visits >= %@", "--arg", "5", "--sort", "visits desc, id", "--result", "ids"]
    let sqlite = try SiftProcess.run(["fetch", "--db", db, "--entity", "place"] + request, stdin: "")
    let mysql = try SiftProcess.run(["fetch", "--mysql", s.url, "--entity", "place"] + request, stdin: "")
    #expect(mysql.status == 0, "\(mysql.stderr)")
    #expect(mysql.stdout == sqlite.stdout && !mysql.stdout.isEmpty)
  }

  @Test func batchReadsRowsAndOnAHostileTable() throws {
    let s = try Scratch()
    let r = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "place"], stdin: #"{"id": 1, "format": "city == 'Oslo'"}"#)
    #expect(r.status == 0, "\(r.stderr)")
    let out = try BatchWriteCommandTests.lines(r.stdout)
    #expect(out.first?["rows"] == .array([.int(1), .int(3), .int(4)]), "\(r.stdout)")
    let hostile = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "we`ird \"t'"],
      stdin: #"{"id": 1, "format": "%K == %@", "args": ["co`l", "a`b"]}"#)
    #expect(hostile.status == 0, "\(hostile.stderr)")
    #expect(try BatchWriteCommandTests.lines(hostile.stdout).first?["rows"] == .array([.int(1)]), "\(hostile.stdout)")
  }

  /// `"rows"` are the keys in ascending code-point order, as on SQLite and PostgreSQL, not in
  /// the key column's case-insensitive collation.
  @Test func textKeysComeInCodePointOrder() throws {
    let s = try Scratch()
    try s.admin.executeScript(
      "CREATE TABLE \(MySQLDatabase.quoteIdentifier(s.name)).k (id VARCHAR(8) PRIMARY KEY, n INT); "
        + "INSERT INTO \(MySQLDatabase.quoteIdentifier(s.name)).k VALUES ('a', 1), ('B', 2), ('c', 3)")
    let r = try SiftProcess.run(["batch", "--mysql", s.url, "--entity", "k"], stdin: #"{"id": 1, "format": "n > 0"}"#)
    #expect(try BatchWriteCommandTests.lines(r.stdout).first?["rows"] == .array(["B", "a", "c"]), "\(r.stdout)")
  }

  /// Without `--write` the session is read-only: write cases are refused and nothing changes.
  @Test func batchWithoutWriteChangesNothing() throws {
    let s = try Scratch()
    let before = try s.rows("SELECT id, visits FROM place ORDER BY id")
    let r = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "place"], stdin: #"{"id": 1, "delete": true, "format": "visits < 5"}"#)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(#""read-only""#), "\(r.stdout)")
    #expect(try s.rows("SELECT id, visits FROM place ORDER BY id") == before)
  }

  /// `--write`: each case one transaction; a case that fails half-way (a duplicate key after a
  /// good row) leaves nothing of itself.
  @Test func batchWriteIsOneTransactionPerCase() throws {
    let s = try Scratch()
    let cases = [
      #"{"id": 1, "delete": true, "format": "visits < %@", "args": [5]}"#,
      #"{"id": 2, "update": {"visits": {"expression": "visits + %@", "args": [100]}}, "format": "city == 'Oslo'"}"#,
      #"{"id": 3, "insert": [{"id": 10, "city": "Bodø", "visits": 1}, {"id": 1, "city": "Oslo", "visits": 1}]}"#,
    ]
    let r = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "place", "--write"], stdin: cases.joined(separator: "\n"))
    #expect(r.status == 0, "\(r.stderr)")
    let out = try BatchWriteCommandTests.lines(r.stdout)
    #expect(out.count == 3)
    #expect(out.first?["count"] == .int(2), "\(r.stdout)")
    #expect(out.dropFirst().first?["count"] == .int(2), "\(r.stdout)")
    #expect(out.last?["ok"] == .bool(false), "\(r.stdout)")
    let rows = try s.rows("SELECT id, visits FROM place ORDER BY id")
    #expect(
      rows == [
        [.integer(1), .integer(110)], [.integer(3), .integer(107)], [.integer(5), .integer(5)],
        [.integer(6), .integer(10)],
      ])
  }

  /// An update or delete that matches no row changes nothing and says so (`count` 0), as
  /// Core Data's batch requests and the other engines answer.
  @Test func aZeroRowEditChangesNothing() throws {
    let s = try Scratch()
    let before = try s.rows("SELECT id, visits FROM place ORDER BY id")
    let r = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "place", "--write"],
      stdin: #"{"id": 1, "update": {"visits": 0}, "format": "city == 'Nowhere'", "result": "ids"}"#)
    let out = try BatchWriteCommandTests.lines(r.stdout)
    #expect(out.first?["count"] == .int(0) && out.first?["ids"] == .array([]), "\(r.stdout)")
    #expect(try s.rows("SELECT id, visits FROM place ORDER BY id") == before)
  }

  /// A table another session holds locked: the read waits at most the lock timeout and fails
  /// with an error that says so; the row lock is released afterwards.
  @Test func aLockedTableIsAClearTimeoutError() throws {
    let s = try Scratch()
    let holder = try MySQLDatabase(url: s.url, readOnly: false)
    defer { holder.close() }
    try holder.executeScript("BEGIN")
    _ = try holder.execute(SQLStatement(sql: "SELECT id FROM place FOR UPDATE"))
    let r = try SiftProcess.run(
      ["batch", "--mysql", s.url, "--entity", "place", "--write"],
      stdin: #"{"id": 1, "update": {"visits": 0}, "format": "id == 1"}"#)
    try holder.executeScript("ROLLBACK")
    #expect(r.status == 0, "\(r.stderr)")
    let out = try BatchWriteCommandTests.lines(r.stdout)
    #expect(out.first?["ok"] == .bool(false) && r.stdout.contains("lock"), "\(r.stdout)")
    #expect(try s.rows("SELECT visits FROM place WHERE id = 1") == [[.integer(10)]])
  }

  @Test func errorsNameTheServerNeverThePassword() throws {
    let server = try #require(MySQLCLIServer.url)
    var parsed = try MySQLURL(server)
    parsed.password = "s3cret-pw"
    parsed.database = "sift"
    let r = try SiftProcess.run(["schema", "--mysql", MySQLCLIServer.text(parsed)], stdin: "")
    #expect(r.status == 1)
    #expect(r.stderr.contains(parsed.server), "\(r.stderr)")
    #expect(!r.stderr.contains("s3cret-pw"), "\(r.stderr)")
    // An unknown database and a 1,000-character one: a one-line failure, never a crash.
    for name in ["sift_no_such_db_\(UInt32.random(in: 0...UInt32.max))", String(repeating: "d", count: 1000)] {
      var p = try MySQLURL(server)
      p.database = name
      let missing = try SiftProcess.run(["schema", "--mysql", MySQLCLIServer.text(p)], stdin: "")
      #expect(missing.status == 1, "\(missing.stderr)")
      #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    }
  }

  /// `setup-sql --dialect mysql --mysql URL` creates the functions (idempotent); a refused
  /// login is exit 1, naming the server and not the password.
  @Test func setupRunsOnTheServer() throws {
    let server = try #require(MySQLCLIServer.url)
    let r = try SiftProcess.run(["setup-sql", "--dialect", "mysql", "--mysql", server], stdin: "")
    #expect(r.status == 0 && r.stdout.contains("database sift"), "\(r.stdout) \(r.stderr)")
    var parsed = try MySQLURL(server)
    parsed.password = "not-the-pw-4711"
    let bad = try SiftProcess.run(
      ["setup-sql", "--dialect", "mysql", "--mysql", MySQLCLIServer.text(parsed)], stdin: "")
    #expect(bad.status == 1 && bad.stderr.contains(parsed.server) && !bad.stderr.contains("4711"), "\(bad.stderr)")
  }

  @Test func aLongOrUnknownTableIsAnError() throws {
    let s = try Scratch()
    for entity in [String(repeating: "t", count: 1000), "plase"] {
      let r = try SiftProcess.run(["sql", "id == 1", "--mysql", s.url, "--entity", entity], stdin: "")
      #expect(r.status == 1, "\(r.stderr)")
      #expect(r.stderr.contains("no table"), "\(r.stderr)")
    }
  }

  @Test func replPlanShowsExplainAndTheIndex() throws {
    let s = try Scratch()
    try s.admin.executeScript("CREATE INDEX place_visits ON \(MySQLDatabase.quoteIdentifier(s.name)).place (visits)")
    let r = try SiftProcess.run(["--mysql", s.url, "-c", ".use place", "-c", ".plan visits == 10"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("t0: type ref, key place_visits"), "\(r.stdout)")
    #expect(r.stdout.contains("index: place_visits serves the predicate on place"), "\(r.stdout)")
    let count = try SiftProcess.run(["--mysql", s.url, "-c", ".use place", "-c", ".count city == 'Oslo'"], stdin: "")
    #expect(count.stdout.contains("3"), "\(count.stdout) \(count.stderr)")
  }

  /// `==` on a text column under the server's default (case-insensitive, padding) collation:
  /// the column's index serves it, and the answer stays exact (case and trailing spaces count).
  @Test func textEqualityUsesTheIndexAndStaysExact() throws {
    let s = try Scratch()
    let table = "\(MySQLDatabase.quoteIdentifier(s.name)).tag"
    try s.admin.executeScript(
      "CREATE TABLE \(table) (id INT PRIMARY KEY, word VARCHAR(20), KEY tag_word (word)); "
        + "INSERT INTO \(table) SELECT seq, CONCAT('w', seq) FROM seq_1_to_2000; ANALYZE TABLE \(table)")
    let r = try SiftProcess.run(
      [
        "--mysql", s.url, "-c", ".use tag", "-c", ".plan word == 'w17'", "-c", ".count word == 'w17'", "-c",
        ".count word == 'W17'", "-c", ".count word == 'w17 '",
      ], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("index: tag_word serves the predicate on tag"), "\(r.stdout)")
    #expect(r.stdout.hasSuffix("1\n0\n0\n"), "\(r.stdout)")
    let list = try SiftProcess.run(
      [
        "--mysql", s.url, "-c", ".use tag", "-c", ".plan word IN {'w17', 'w18'}", "-c", ".count word IN {'w17', 'W18'}",
      ],
      stdin: "")
    #expect(list.stdout.contains("index: tag_word serves the predicate on tag"), "\(list.stdout)")
    #expect(list.stdout.hasSuffix("\n1\n"), "\(list.stdout)")
    let prefix = try SiftProcess.run(
      ["--mysql", s.url, "-c", ".use tag", "-c", ".plan word BEGINSWITH 'w17'", "-c", ".count word BEGINSWITH 'W17'"],
      stdin: "")
    #expect(prefix.stdout.contains("index: tag_word serves the predicate on tag"), "\(prefix.stdout)")
    #expect(prefix.stdout.hasSuffix("\n0\n"), "\(prefix.stdout)")
  }
}

/// Conflicting engine flags: usage errors (exit 2), with or without a server.
@Suite("--mysql usage errors")
struct MySQLUsageTests {
  @Test(arguments: [
    ["sql", "x == 1", "--entity", "t", "--db", "a.sqlite", "--mysql", "mysql://u@h/d"],
    ["schema", "--postgres", "dbname=x", "--pg-schema", "p", "--mysql", "mysql://u@h/d"],
    ["batch", "--entity", "t", "--db", "a.sqlite", "--mysql", "mysql://u@h/d"],
    ["fetch", "--entity", "t", "--db", "a.sqlite", "--mysql", "mysql://u@h/d"],
    ["--db", "a.sqlite", "--mysql", "mysql://u@h/d"],
    ["sql", "x == 1", "--entity", "t", "--mysql", "mysql://u@h/d", "--dialect", "mysql"],
    ["setup-sql", "--dialect", "postgres", "--mysql", "mysql://u@h/d"],
  ])
  func conflictingEngines(_ args: [String]) throws {
    let r = try SiftProcess.run(args, stdin: "")
    #expect(r.status == 2, "\(args): \(r.stderr)")
  }

  @Test func helpListsTheFlag() throws {
    for command in ["sql", "batch", "schema", "fetch", "setup-sql", "repl"] {
      let r = try SiftProcess.run(["help", command], stdin: "")
      #expect(r.stdout.contains("--mysql"), "\(command)")
    }
  }

  @Test func setupPrintsTheFunctionsForTheClient() throws {
    let r = try SiftProcess.run(["setup-sql", "--dialect", "mysql"], stdin: "")
    #expect(r.status == 0)
    #expect(r.stdout.contains("CREATE DATABASE IF NOT EXISTS `sift`"))
    #expect(r.stdout.contains("DELIMITER $$") && r.stdout.contains("FUNCTION `sift`.sift_fold"), "\(r.stdout)")
  }

  @Test func sqlCompilesForTheMySQLDialectFromASchemaFile() throws {
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../Fixtures/sql/venues.schema.json").path
    let r = try SiftProcess.run(
      ["sql", "name ==[c] 'x'", "--schema", schema, "--entity", "Venue", "--dialect", "mysql"], stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("`sift`.sift_fold("), "\(r.stdout)")
  }
}

/// Where these tests find their server: env `SIFT_MYSQL`, when a connection with it succeeds.
enum MySQLCLIServer {
  static let url: String? = {
    guard let url = ProcessInfo.processInfo.environment["SIFT_MYSQL"], !url.isEmpty else { return nil }
    guard (try? MySQLDatabase(url: url))?.close() != nil else { return nil }
    return url
  }()

  /// `url` as text, user and password percent-encoded.
  static func text(_ url: MySQLURL) -> String {
    let enc: (String) -> String = { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
    var text = "mysql://" + enc(url.user)
    if let p = url.password { text += ":" + enc(p) }
    return text + "@\(url.server)/" + enc(url.database ?? "")
  }
}
