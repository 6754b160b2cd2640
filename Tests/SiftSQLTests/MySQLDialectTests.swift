import Foundation
import SiftEvaluation
import SiftMySQL
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// `MySQLDialect`: each difference of MySQL/MariaDB from Apple's semantics that the SQL
/// compensates for (Grammar/notes/mysql.md, the table), compiled and, when `SIFT_MYSQL` reaches
/// a server, run against memory's answer. The server tests also show MariaDB's own answer
/// without the compensation, so each one can fail.
@Suite("MySQL dialect")
struct MySQLDialectTests {
  static let schemaJSON = """
    {"entities": {"T": {"table": "t", "attributes": {"id": "integer", "name": "string", "n": "integer",
      "m": "integer", "x": "double"}}}}
    """
  static var schema: SQLSchema { get throws { try SQLSchema(json: schemaJSON) } }
  static var compiler: SQLCompiler { get throws { SQLCompiler(dialect: MySQLDialect(), schema: try schema) } }

  /// Memory's answer and MariaDB's for `format` over `records` (nil without a server).
  static func both(_ format: String, _ records: [SiftValue], _ args: [SiftValue] = []) throws
    -> (memory: EngineOutcome, mariadb: EngineOutcome)?
  {
    guard let leg = try MariaDBLeg(schema: try schema, entity: "T", records: records) else {
      print("note: \(MariaDBLeg.skipMessage)")
      return nil
    }
    let p = try SiftPredicate(format: format, arguments: args)
    let memory: EngineOutcome
    do {
      memory = .matches(try p.compile().matchingIndices(try JSONRecords.records(from: .array(records))))
    } catch {
      memory = .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
    return (memory, leg.run(p))
  }

  static func rows(_ names: [String?]) -> [SiftValue] {
    names.enumerated().map { i, n in ["id": .int(Int64(i)), "name": n.map(SiftValue.string) ?? .null] }
  }

  @Test func identifiersAreQuotedWithBackticks() throws {
    #expect(MySQLDialect().quoteIdentifier("a`b") == "`a``b`")
    let st = try Self.compiler.compileWhere(try SiftPredicate(format: "name == %@", "x"), entity: "T")
    // Sift's own tables are made in utf8mb4_nopad_bin: the column stays bare, so its index serves.
    #expect(st.sql == "t0.`name` = ?")
    #expect(st.bindings == [.text("x")])
    // A table Sift did not create: its column's collation is unknown, so the comparison names one.
    let existing = try SQLSchema(
      json:
        #"{"layout": "existing", "entities": {"T": {"table": "t", "attributes": {"id": "integer", "name": "string"}}}}"#
    )
    let e = try SQLCompiler(dialect: MySQLDialect(), schema: existing)
      .compileWhere(try SiftPredicate(format: "name == %@", "x"), entity: "T")
    // …and the column in its own collation goes first, so its index serves the exact test.
    #expect(e.sql == "(t0.`name` = ? AND (t0.`name` COLLATE utf8mb4_nopad_bin) = ?)")
    #expect(e.bindings == [.text("x"), .text("x")])
  }

  @Test func nullSafeInequalityIsANegation() throws {
    let st = try Self.compiler.compileWhere(try SiftPredicate(format: "n != m"), entity: "T")
    #expect(st.sql == "NOT (t0.`n` <=> t0.`m`)")
  }

  @Test func icuOnlyRegexIsRefused() throws {
    for pattern in ["[a-z&&[^q]]", "[[a-z]--[q]]", "\\N{LATIN SMALL LETTER A}", "\\u0061", "(?w)a"] {
      let p = try SiftPredicate(format: "name MATCHES %@", .string(pattern))
      expectSiftError(id: "unsupported-in-sql", stage: .sql) { _ = try Self.compiler.compileWhere(p, entity: "T") }
    }
    // Portable syntax compiles.
    _ = try Self.compiler.compileWhere(
      try SiftPredicate(format: "name MATCHES %@", "[a-z]+\\d{2}[[:alpha:]]"), entity: "T")
  }

  /// A dialect with neither localized sort keys nor a collation used to sort by code point.
  @Test func localizedSortsAreRefused() throws {
    for comparison in [SiftSortDescriptor.Comparison.localizedStandard, .localized] {
      let r = SiftFetchRequest(
        entity: "T", sortDescriptors: [SiftSortDescriptor("name", ascending: true, comparison: comparison)])
      expectSiftError(id: "unsupported-in-sql", stage: .sql) { _ = try Self.compiler.compile(r) }
    }
  }

  @Test func batchDeleteNamesItsAlias() throws {
    let st = try Self.compiler.compile(BatchDeleteRequest(entity: "T", predicate: try SiftPredicate(format: "n > 1")))
    #expect(st.first?.sql.hasPrefix("DELETE t0 FROM `t` AS t0 WHERE") == true)
  }

  @Test func caseInsensitiveColumnComparesExactly() throws {
    guard let leg = try MariaDBLeg(schema: try Self.schema, entity: "T", records: []) else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    try leg.db.executeScript(
      "CREATE TABLE ci (id BIGINT PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci);"
        + "INSERT INTO ci VALUES (1, 'abc'), (2, 'ABC'), (3, 'abc '), (4, 'abd')")
    let schema = try SQLSchema(
      json:
        #"{"layout": "existing", "entities": {"Ci": {"table": "ci", "attributes": {"id": "integer", "name": "string"}}}}"#
    )
    let compiler = SQLCompiler(dialect: leg.dialect, schema: schema)
    func ids(_ format: String) throws -> [Int64] {
      let w = try compiler.compileWhere(try SiftPredicate(format: format), entity: "Ci")
      let sql = "SELECT t0.id FROM \(try compiler.fromClause(entity: "Ci")) WHERE \(w.sql) ORDER BY t0.id"
      return try leg.db.execute(SQLStatement(sql: sql, bindings: w.bindings)).compactMap { $0.first?.intValue }
    }
    // MariaDB's own answer under the column's collation: all three.
    let own = try leg.db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM ci WHERE name = 'abc'"))
    #expect(own.first?.first?.intValue == 3)
    #expect(try ids("name == 'abc'") == [1])
    #expect(try ids("name IN {'ABC'}") == [2])
    #expect(try ids("name BEGINSWITH 'AB'") == [2])
    #expect(try ids("name < 'abc '") == [1, 2])  // 'A' (65) sorts before 'a' (97), as memory
    #expect(try ids("name ==[c] 'abc'") == [1, 2])
  }

  @Test func trailingSpacesAreSignificant() throws {
    guard let r = try Self.both("name == 'a'", Self.rows(["a", "a ", "A"])) else { return }
    #expect(r.memory == .matches([0]))
    #expect(r.mariadb == r.memory)
  }

  @Test func foldBeyondASCIIFails() throws {
    guard let ascii = try Self.both("name ==[c] 'abc'", Self.rows(["ABC", "abd", nil])) else { return }
    #expect(ascii.memory == .matches([0]))
    #expect(ascii.mariadb == ascii.memory)
    guard let beyond = try Self.both("name ==[c] 'é'", Self.rows(["É", "e"])) else { return }
    #expect(beyond.memory == .matches([0]))
    guard case .failed(let why) = beyond.mariadb else {
      Issue.record("MariaDB answered \(beyond.mariadb) where it cannot fold")
      return
    }
    #expect(why.hasPrefix("mysql-query:") && why.contains("beyond ASCII"))
  }

  @Test func likeWildcardsAreLiteral() throws {
    let names = ["50%", "500", "a_b", "axb"]
    for (format, expected) in [("name LIKE '50%'", [0]), ("name LIKE 'a_b'", [2]), ("name LIKE 'a?b'", [2, 3])] {
      guard let r = try Self.both(format, Self.rows(names)) else { return }
      #expect(r.memory == .matches(expected), "\(format)")
      #expect(r.mariadb == r.memory, "\(format)")
    }
  }

  @Test func matchesIsWholeString() throws {
    let names = ["abc", "abc\n", "xabc", "a\rc", "ABC", "a\nc"]
    for (format, expected) in [
      ("name MATCHES 'abc'", [0]), ("name MATCHES 'a.c'", [0]), ("name MATCHES[c] 'abc'", [0, 4]),
    ] {
      guard let r = try Self.both(format, Self.rows(names)) else { return }
      #expect(r.memory == .matches(expected), "\(format)")
      #expect(r.mariadb == r.memory, "\(format)")
    }
  }

  @Test func integerDivisionTruncatesAndZeroFails() throws {
    let records: [SiftValue] = [["id": 0, "n": 5, "m": 2], ["id": 1, "n": -7, "m": 2], ["id": 2, "n": 1, "m": 0]]
    for (format, expected) in [
      ("id < 2 AND n / m == 2", [0]), ("id < 2 AND n / m == -3", [1]),
      ("id < 2 AND modulus:by:(n, m) == -1", [1]),
    ] {
      guard let r = try Self.both(format, records) else { return }
      #expect(r.memory == .matches(expected), "\(format)")
      #expect(r.mariadb == r.memory, "\(format)")
    }
    for format in ["n / m == 0", "modulus:by:(n, m) == 0"] {
      guard let r = try Self.both(format, records) else { return }
      guard case .failed(let m) = r.memory, case .failed(let d) = r.mariadb else {
        Issue.record("\(format): memory \(r.memory), mariadb \(r.mariadb)")
        continue
      }
      #expect(m.hasPrefix("division-by-zero:"))
      #expect(d.hasPrefix("mysql-query:") && d.contains("division by zero"))
    }
  }

  @Test func bitwiseResultsAreSigned() throws {
    let records: [SiftValue] = [["id": 0, "n": -1, "m": 0], ["id": 1, "n": 6, "m": 3]]
    for (format, expected) in [("(n | m) == -1", [0]), ("(n & m) == 2", [1]), ("bitwiseXor:with:(n, m) < 0", [0])] {
      guard let r = try Self.both(format, records) else { return }
      #expect(r.memory == .matches(expected), "\(format)")
      #expect(r.mariadb == r.memory, "\(format)")
    }
  }

  /// An integer meeting a double beyond every BIGINT inside a write: a bare
  /// `CAST(… AS DECIMAL(65, 30))` of 1e300 is an overflow error under strict mode there (a
  /// warning in a SELECT); `sift_exact` compares it exactly. The count is the rows memory matches,
  /// read first (`FOR UPDATE`), as MariaDB's UPDATE takes no RETURNING.
  @Test func batchUpdateComparesIntegersWithHugeDoubles() throws {
    let records: [SiftValue] = [
      ["id": 0, "n": 5, "x": 1e300], ["id": 1, "n": 5, "x": -1e300],
      ["id": 2, "n": 1_152_921_504_606_846_976, "x": 1152921504606846976.0],
    ]
    guard let leg = try MariaDBLeg(schema: try Self.schema, entity: "T", records: records) else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    for (format, expected) in [("n < x", 1), ("n == x", 1), ("n > x", 1)] {
      let update = BatchUpdateRequest(
        entity: "T", predicate: try SiftPredicate(format: format), assignments: [("m", .value(7))])
      #expect(try leg.db.run(update, compiler: leg.compiler).count == expected, "\(format)")
    }
    let keys = try leg.db.run(
      BatchDeleteRequest(entity: "T", predicate: try SiftPredicate(format: "n < x")), compiler: leg.compiler,
      resultType: .keys)
    #expect(keys.keys == [[.integer(0)]])
  }

  /// On Sift's tables an equality or range on an indexed text column can use its index: MariaDB
  /// offers none for `(col COLLATE c) = ?`, even with the column's own collation.
  @Test func indexedTextColumnKeepsItsIndex() throws {
    guard let leg = try MariaDBLeg(schema: SQLFixtures.schema, entity: "Venue", records: SQLFixtures.records) else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    for format in ["name == 'Blue Cafe'", "name BEGINSWITH 'Blue'", "name IN {'a', 'b'}"] {
      let w = try leg.compiler.compileWhere(try SiftPredicate(format: format), entity: "Venue")
      let sql = "EXPLAIN SELECT t0.`id` FROM \(try leg.compiler.fromClause(entity: "Venue")) WHERE \(w.sql)"
      let plan = try leg.db.execute(SQLStatement(sql: sql, bindings: w.bindings))
      // EXPLAIN's columns: id, select_type, table, type, possible_keys, key, …
      let possible = plan.first.flatMap { $0.count > 4 ? $0[4] : nil }
      #expect(possible.map { "\($0)".contains("name") } == true, "\(format): \(plan)")
    }
  }
}
