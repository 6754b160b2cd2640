import Foundation
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftPostgres

/// The libpq runner on its own: parameter encoding, result decoding, errors, schema lifecycle.
@Suite("PostgreSQL runner (offline)")
struct PostgresRunnerOfflineTests {
  @Test(arguments: [
    (0.0, "0.0"), (-0.0, "-0.0"), (0.1, "0.1"), (1e300, "1e+300"), (-2.5, "-2.5"),
    (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"), (Double.nan, "NaN"),
    (9007199254740993.0, "9007199254740992.0"),
  ])
  func doubleTextIsExact(value: Double, text: String) {
    #expect(PostgresWireParameter.doubleText(value) == text)
    if !value.isNaN { #expect(Double(PostgresWireParameter.doubleText(value)) == value) }
  }

  @Test func textWithNulIsRefusedNotTruncated() {
    #expect(throws: PostgresError.self) {
      _ = try PostgresWireParameter.encode(.text("a\u{0}b"))
    }
    #expect((try? PostgresWireParameter.encode(.bytes(Data([0, 1, 0]))))?.bytes == Data([0, 1, 0]))
  }

  @Test(arguments: [
    ("\\x", Data()), ("\\x00ff41", Data([0, 255, 65])), ("\\xAbCd", Data([0xab, 0xcd])),
  ])
  func byteaHexDecodes(text: String, data: Data) {
    #expect(PostgresCell.decodeHexBytea(text) == data)
  }

  @Test(arguments: ["", "x00", "\\x0", "\\xzz", "\\x0g"])
  func malformedByteaIsNil(text: String) {
    #expect(PostgresCell.decodeHexBytea(text) == nil)
  }

  @Test(arguments: [
    (PostgresCell(type: PostgresOID.bool, text: "t"), PostgresWireValue.bool(true)),
    (PostgresCell(type: PostgresOID.int8, text: "-9223372036854775808"), .int(Int64.min)),
    (PostgresCell(type: PostgresOID.int4, text: "7"), .int(7)),
    (PostgresCell(type: PostgresOID.float8, text: "-Infinity"), .double(-.infinity)),
    (PostgresCell(type: PostgresOID.numeric, text: "12"), .int(12)),
    (PostgresCell(type: PostgresOID.numeric, text: "1.50"), .double(1.5)),
    (PostgresCell(type: PostgresOID.numeric, text: "99999999999999999999"), .double(1e20)),
    (PostgresCell(type: PostgresOID.text, text: "ß"), .text("ß")),
    (PostgresCell(type: PostgresOID.int8, text: nil), .null),
  ])
  func cellsDecodeByType(cell: PostgresCell, value: PostgresWireValue) throws {
    #expect(try cell.decode() == value)
  }

  @Test func garbageCellIsAnErrorNotACrash() {
    #expect(throws: PostgresError.self) {
      _ = try PostgresCell(type: PostgresOID.int8, text: "12x").decode()
    }
  }

  @Test func unreachableServerThrowsConnectionError() {
    do {
      _ = try PostgresDatabase(conninfo: "host=127.0.0.1 port=1 user=x dbname=x connect_timeout=2")
      Issue.record("connected to port 1?")
    } catch {
      #expect(error.kind == .connection)
      #expect(!error.message.isEmpty)
    }
  }

  @Test func malformedConninfoThrows() {
    expectSiftError(id: "postgres-connection", stage: .sql) { _ = try PostgresDatabase(conninfo: "nonsense=") }
    expectSiftError(id: "postgres-connection", stage: .sql) { _ = try PostgresDatabase(conninfo: "host=a\u{0}") }
  }

  @Test func identifierQuotingDoublesQuotes() {
    #expect(PostgresDatabase.quoteIdentifier("a\"b") == "\"a\"\"b\"")
    #expect(PostgresDatabase.quoteIdentifier("venue") == "\"venue\"")
  }
}

/// The runner against a live server (skipped, with a note, when `SIFT_POSTGRES` is unset).
@Suite(
  "PostgreSQL runner (live)",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresRunnerLiveTests {
  @Test(arguments: [
    PostgresWireValue.null, .bool(true), .bool(false), .int(0), .int(Int64.max), .int(Int64.min),
    .int(9_007_199_254_740_993), .double(-0.0), .double(0.1), .double(.leastNonzeroMagnitude),
    .double(.infinity), .double(-.infinity), .text(""), .text("ß Σ é e\u{301} 'q' \"d\" % _ \\"),
    .text("'; DROP TABLE venue; --"), .bytes(Data()), .bytes(Data([0, 1, 2, 255, 0])),
  ])
  func valuesRoundTrip(value: PostgresWireValue) throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let rows = try db.query("SELECT $1", [value])
    #expect(rows.count == 1)
    let back = rows.first?.first
    if case .double(let d) = value, case .double(let e)? = back {
      #expect(d.bitPattern == e.bitPattern)  // -0.0 and subnormals survive exactly
    } else if value == .null {
      #expect(back == .null)
    } else {
      #expect(back == value)
    }
  }

  @Test func nanRoundTrips() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let rows = try db.query("SELECT $1", [.double(.nan)])
    guard case .double(let d)? = rows.first?.first else {
      Issue.record("expected a double, got \(rows)")
      return
    }
    #expect(d.isNaN)
  }

  @Test func columnTypesDecode() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let rows = try db.query(
      "SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 2.25::float8, 10::numeric, 2.5::numeric, "
        + "'v'::varchar, 'c'::char(2), true, '\\x00ff'::bytea, NULL::text", [])
    #expect(
      rows == [
        [
          .int(1), .int(2), .int(3), .double(1.5), .double(2.25), .int(10), .double(2.5),
          .text("v"), .text("c "), .bool(true), .bytes(Data([0, 255])), .null,
        ]
      ])
  }

  @Test func serverErrorsCarryMessageAndState() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    do {
      _ = try db.query("SELECT * FROM no_such_table", [])
      Issue.record("query succeeded")
    } catch {
      #expect(error.kind == .query)
      #expect(error.sqlState == "42P01")
      #expect(error.message.contains("no_such_table"))
      #expect(error.statement == "SELECT * FROM no_such_table")
    }
    // The connection is still usable after an error.
    #expect(try db.query("SELECT 1", []) == [[.int(1)]])
  }

  @Test func nulInTextIsAClearError() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    do {
      _ = try db.query("SELECT $1", [.text("a\u{0}b")])
      Issue.record("NUL text was accepted")
    } catch {
      #expect(error.kind == .unsupportedValue)
      #expect(error.message.contains("NUL"))
      #expect(error.message.contains("$1"))
    }
  }

  @Test func temporarySchemaIsCreatedUsedAndDropped() throws {
    guard let info = PostgresTestServer.conninfo else { return }
    let db = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_t"))
    let name = try #require(db.schemaName)
    #expect(name.hasPrefix("sift_t_"))
    try db.run("CREATE TABLE t (a int8); INSERT INTO t VALUES (1), (2)")
    #expect(try db.query("SELECT current_schema()", []) == [[.text(name)]])
    #expect(try db.query("SELECT count(*) FROM t", []) == [[.int(2)]])
    db.close()
    db.close()
    expectSiftError(id: "postgres-connection", stage: .sql) { try db.run("SELECT 1") }
    let check = try PostgresDatabase(conninfo: info)
    defer { check.close() }
    let left = try check.query(
      "SELECT count(*) FROM pg_namespace WHERE nspname = $1", [.text(name)])
    #expect(left == [[.int(0)]])
  }

  @Test func sqlValuesRoundTripThroughTheSQLDatabaseProtocol() throws {
    let db: any SQLDatabase = try PostgresTestServer.open()
    defer { (db as? PostgresDatabase)?.close() }
    let values: [SQLValue] = [
      .null, .bool(false), .integer(-7), .double(-0.0), .text("Σ'\"%_"), .blob(Data([0, 0xff])),
    ]
    let placeholders = (1...values.count).map { "$\($0)" }.joined(separator: ", ")
    let rows = try db.execute(SQLStatement(sql: "SELECT \(placeholders)", bindings: values))
    #expect(rows == [values])
    try db.executeScript("CREATE TABLE t (a BOOLEAN, b BYTEA); INSERT INTO t VALUES (true, '\\x01')")
    #expect(try db.execute(SQLStatement(sql: "SELECT a, b FROM t")) == [[.bool(true), .blob(Data([1]))]])
  }

  @Test func wrongBindingCountIsAServerErrorNotACrash() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    expectSiftError(id: "postgres-query", stage: .sql) {
      _ = try db.execute(SQLStatement(sql: "SELECT $1::int8 + $2::int8", bindings: [.integer(1)]))
    }
    // Unlike SQLite, PostgreSQL accepts typed parameters the statement never uses.
    #expect(try db.execute(SQLStatement(sql: "SELECT 1", bindings: [.integer(1)])) == [[.integer(1)]])
    #expect(try db.execute(SQLStatement(sql: "SELECT 2")) == [[.integer(2)]])
  }

  @Test func siftFunctionsArePreparedInSchemaSift() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let rows = try db.execute(
      SQLStatement(sql: "SELECT sift.sift_fold($1, 3), sift.sift_fold(NULL, 1)", bindings: [.text("Crème")]))
    #expect(rows == [[.text("creme"), .null]])
  }
}
