import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLRoundTripTests {
  @Test func boundValuesComeBackWithTheirTypes() throws {
    let s = try MySQLTestServer.Scratch()
    let values: [SQLValue] = [
      .null, .integer(Int64.min), .integer(Int64.max), .double(0.1), .double(-1e300),
      .text("it's \"q\" `b` \\ é 🍵 nul\u{0}here"),
      .text(""), .blob(Data([0, 1, 255, 0x5C])), .blob(Data()), .bool(true),
    ]
    let sql = "SELECT " + values.map { _ in "?" }.joined(separator: ", ")
    let row = try #require(try s.db.execute(SQLStatement(sql: sql, bindings: values)).first)
    #expect(Array(row[0..<9]) == Array(values[0..<9]))
    #expect(row[9] == .integer(1))
  }

  @Test func columnsAreReadByTheirRealTypes() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      """
      CREATE TABLE t (ti TINYINT, b1 TINYINT(1), si SMALLINT UNSIGNED, mi MEDIUMINT, i INT, bi BIGINT,
        ubi BIGINT UNSIGNED, f FLOAT, d DOUBLE, dec1 DECIMAL(10,2), dec2 DECIMAL(30,0), dt DATE, dtm DATETIME(6),
        dts DATETIME, ts TIMESTAMP(3) NULL, tm TIME(2), y YEAR, bits BIT(12), j JSON, e ENUM('a','b'), st SET('x','y'),
        vc VARCHAR(20), tx TEXT, vb VARBINARY(8), bl BLOB, ch CHAR(3));
      INSERT INTO t VALUES (-128, 1, 65535, -8388608, -2147483648, -9223372036854775808,
        18446744073709551615, 1.5, 2.25, 12.50, 123456789012345678901234567890, '2024-02-29',
        '2024-02-29 23:59:58.123456', '1999-12-31 00:00:01', '2024-01-01 10:00:00.5', '-838:59:59.5', 2024,
        b'101000000001', '{"a": [1, 2]}', 'b', 'x,y', 'héllo', 'long text', x'00ff', x'', 'ab');
      INSERT INTO t VALUES (NULL, 0, 0, 0, 0, 0, 9223372036854775807, NULL, NULL, -0.5, 1, NULL, NULL, NULL, NULL,
        '00:00:00', NULL, b'0', NULL, NULL, '', NULL, NULL, NULL, NULL, NULL)
      """)
    let rows = try s.db.execute(SQLStatement(sql: "SELECT * FROM t ORDER BY ti IS NULL"))
    #expect(rows.count == 2)
    let expected: [SQLValue] = [
      .integer(-128), .integer(1), .integer(65535), .integer(-8_388_608), .integer(-2_147_483_648), .integer(Int64.min),
      .text("18446744073709551615"), .double(1.5), .double(2.25), .double(12.5), .double(1.2345678901234568e29),
      .text("2024-02-29"), .text("2024-02-29 23:59:58.123456"), .text("1999-12-31 00:00:01"),
      .text("2024-01-01 10:00:00.500"), .text("-838:59:59.50"), .integer(2024), .integer(0b1010_0000_0001),
      .text(#"{"a": [1, 2]}"#), .text("b"), .text("x,y"), .text("héllo"), .text("long text"), .blob(Data([0, 255])),
      .blob(Data()), .text("ab"),
    ]
    #expect(rows[0].count == expected.count)
    for (i, (got, want)) in zip(rows[0], expected).enumerated() { #expect(got == want, "column \(i + 1)") }
    #expect(rows[1][6] == .integer(Int64.max))
    #expect(rows[1][9] == .double(-0.5))
    #expect(rows[1][10] == .integer(1))
    #expect(rows[1][15] == .text("00:00:00.00"))
    #expect(rows[1][17] == .integer(0))
    #expect(rows[1][0] == .null)
  }

  @Test func aTimestampIsReadInUTC() throws {
    let s = try MySQLTestServer.Scratch()
    let rows = try s.db.execute(SQLStatement(sql: "SELECT FROM_UNIXTIME(0), @@session.time_zone"))
    #expect(rows == [[.text("1970-01-01 00:00:00"), .text("+00:00")]])
  }

  @Test func writesCountMatchedRowsAndTransactionsRollBack() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      "CREATE TABLE n (id BIGINT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO n VALUES (1, 0), (2, 0)")
    #expect(try s.db.executeUpdate(SQLStatement(sql: "UPDATE n SET v = ?", bindings: [.integer(0)])) == 2)
    #expect(try s.db.executeUpdate(SQLStatement(sql: "DELETE FROM n WHERE id = ?", bindings: [.integer(9)])) == 0)
    // ROW_COUNT() on the same connection says the same (matched rows), for SQL that counts without RETURNING.
    let counted = try s.db.executeTransaction([
      SQLStatement(sql: "UPDATE n SET v = ? WHERE id >= ?", bindings: [.integer(0), .integer(1)]),
      SQLStatement(sql: "SELECT ROW_COUNT()"),
    ])
    #expect(counted.last == [[.integer(2)]])
    expectSiftError(id: "mysql-query", stage: .sql) {
      try s.db.executeTransaction([
        SQLStatement(sql: "DELETE FROM n WHERE id = ?", bindings: [.integer(1)]),
        SQLStatement(sql: "INSERT INTO n VALUES (?, ?)", bindings: [.integer(2), .integer(0)]),
      ])
    }
    #expect(try s.db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM n")) == [[.integer(2)]])
  }

  @Test func batchesStreamThroughACursor() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE b (id INT PRIMARY KEY)")
    for i in 0..<25 {
      _ = try s.db.execute(SQLStatement(sql: "INSERT INTO b VALUES (?)", bindings: [.integer(Int64(i))]))
    }
    var sizes: [Int] = []
    var seen: [SQLValue] = []
    try s.db.forEachBatch(
      SQLStatement(sql: "SELECT id FROM b WHERE id >= ? ORDER BY id", bindings: [.integer(3)]), size: 10
    ) {
      rows throws(SiftError) in
      sizes.append(rows.count)
      seen += rows.map { $0[0] }
      // Another statement on the same connection between batches.
      _ = try s.db.execute(SQLStatement(sql: "SELECT 1"))
    }
    #expect(sizes == [10, 10, 2])
    #expect(seen == (3..<25).map { .integer(Int64($0)) })
  }

  @Test func placeholderCountMismatchIsAnError() throws {
    let s = try MySQLTestServer.Scratch()
    expectSiftError(id: "mysql-query", stage: .sql) { try s.db.execute(SQLStatement(sql: "SELECT ?", bindings: [])) }
    #expect(try s.db.execute(SQLStatement(sql: "SELECT 1")) == [[.integer(1)]])
  }
}

@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLSessionTests {
  @Test func everySessionComparesBoundTextByCodePointInUTC() throws {
    let s = try MySQLTestServer.Scratch()
    for db in [s.db, try s.reader()] {
      let row = try #require(
        try db.execute(
          SQLStatement(
            sql: "SELECT ? = ?, ? = ?, ? || ?, CHAR_LENGTH(?), @@session.time_zone, @@session.sql_mode",
            bindings: [.text("a"), .text("a "), .text("a"), .text("A"), .text("x"), .text("y"), .text(#"\%"#)])
        ).first)
      #expect(Array(row[0..<5]) == [.integer(0), .integer(0), .text("xy"), .integer(2), .text("+00:00")])
      guard case .text(let mode) = row[5] else { Issue.record("sql_mode \(row[5])"); continue }
      #expect(
        mode.contains("STRICT_ALL_TABLES") && mode.contains("NO_BACKSLASH_ESCAPES") && !mode.contains("ANSI_QUOTES"))
    }
  }
}

extension MySQLRoundTripTests {
  @Test func aBatchBodyThatThrowsLeavesTheConnectionUsable() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE c (id INT PRIMARY KEY); INSERT INTO c VALUES (1), (2), (3)")
    let stop = SiftError(stage: .sql, id: "cancelled", message: "stop")
    let e = expectSiftError(id: "cancelled") {
      try s.db.forEachBatch(SQLStatement(sql: "SELECT id FROM c"), size: 1) { _ throws(SiftError) in throw stop }
    }
    #expect(e?.message == "stop")
    #expect(try s.db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM c")) == [[.integer(3)]])
  }

  @Test func aProcedureWithSeveralResultSetsLeavesTheConnectionUsable() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE PROCEDURE two() BEGIN SELECT 1; SELECT 2, 3; END")
    #expect(try s.db.execute(SQLStatement(sql: "CALL two()")) == [[.integer(1)]])
    #expect(try s.db.execute(SQLStatement(sql: "SELECT ?", bindings: [.integer(4)])) == [[.integer(4)]])
    try s.db.executeScript("CALL two()")
    #expect(try s.db.execute(SQLStatement(sql: "SELECT 5")) == [[.integer(5)]])
  }
}

extension MySQLRoundTripTests {
  @Test func explainRunsWithBoundValues() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE e (id INT PRIMARY KEY, k INT, KEY by_k (k))")
    let plan = try s.reader().execute(
      SQLStatement(sql: "EXPLAIN SELECT id FROM e WHERE k = ?", bindings: [.integer(3)]))
    #expect(plan.count == 1)
    #expect(plan.first?.contains(.text("by_k")) == true, "\(plan)")
  }

  @Test func oneConnectionSharedByThreadsRunsOneStatementAtATime() throws {
    let s = try MySQLTestServer.Scratch()
    let db = s.db
    final class Results: @unchecked Sendable {
      let lock = NSLock()
      var values: [Int64] = []
    }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 16) { i in
      for j in 0..<5 {
        let n = Int64(i * 100 + j)
        if let row = try? db.execute(SQLStatement(sql: "SELECT ? + 0", bindings: [.integer(n)])).first,
          case .integer(let got)? = row.first
        {
          results.lock.withLock { results.values.append(got) }
        }
      }
    }
    #expect(results.values.sorted() == (0..<16).flatMap { i in (0..<5).map { Int64(i * 100 + $0) } })
  }
}
