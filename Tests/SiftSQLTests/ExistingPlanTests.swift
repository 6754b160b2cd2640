import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// On a 100,000-row indexed table Sift did not create, the compiled WHERE of every indexable
/// predicate is served by an index: `EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN` on PostgreSQL.
/// `reading(id, sensor_id → sensor, label, value, taken_at ISO-8601 text, taken_ms INTEGER
/// milliseconds, amount numeric; taken_tz timestamptz and ref uuid on PostgreSQL)`, one index
/// per column.
@Suite("Query plans on existing databases")
struct ExistingPlanTests {
  static let base = 1_700_000_000.0  // reading n was taken at base + 60 n seconds

  static func at(_ n: Int, plus seconds: Double = 0) -> SiftValue {
    .date(Date(timeIntervalSince1970: base + Double(n) * 60 + seconds))
  }

  /// (predicate, arguments, index names, or name prefixes, the plan must use).
  static let cases: [(String, [SiftValue], [String])] = [
    ("label == %@", ["L000123"], ["reading_label_idx"]),
    ("label != %@ AND label == %@", ["x", "L000123"], ["reading_label_idx"]),
    ("value > %@", [49_990.0], ["reading_value_idx"]),
    ("value BETWEEN %@", [.array([100.0, 110.0])], ["reading_value_idx"]),
    ("label BEGINSWITH %@", ["L00012"], ["reading_label"]),
    ("label IN %@", [.array(["L000001", "L000002", "L000003"])], ["reading_label_idx"]),
    ("id IN %@", [.array([1, 2, 3])], []),
    ("taken_at > %@", [at(99_990)], ["reading_taken_at_idx"]),
    ("taken_at >= %@ AND taken_at < %@", [at(500, plus: 0.5), at(510)], ["reading_taken_at_idx"]),
    ("taken_at BETWEEN %@", [.array([at(500), at(510)])], ["reading_taken_at_idx"]),
    ("taken_at == %@", [at(777)], ["reading_taken_at_idx"]),
    ("taken_ms >= %@", [at(99_990)], ["reading_taken_ms_idx"]),
    ("taken_ms BETWEEN %@", [.array([at(500), at(510, plus: 0.25)])], ["reading_taken_ms_idx"]),
    ("sensor.name == %@", ["S0007"], ["sensor_name_idx", "reading_sensor_idx"]),
    ("sensor.name BEGINSWITH %@", ["S000"], ["sensor_name", "reading_sensor_idx"]),
    ("amount == %@", [123.45], ["reading_amount_idx"]),
    ("amount IN %@", [.array([123.45, 7.5, 3])], ["reading_amount_idx"]),
    ("amount > %@", [99_990.5], ["reading_amount_idx"]),
  ]
  /// PostgreSQL only: the native timestamptz column.
  static let postgresCases: [(String, [SiftValue], [String])] = [
    ("taken_tz > %@", [at(99_990)], ["reading_taken_tz_idx"]),
    ("taken_tz BETWEEN %@", [.array([at(500), at(510, plus: 0.5)])], ["reading_taken_tz_idx"]),
    ("taken_tz == %@", [at(777)], ["reading_taken_tz_idx"]),
    ("ref == %@", ["00000000-0000-0000-0000-00000000007b"], ["reading_ref_idx"]),
  ]

  static func schema(postgres: Bool) throws -> SQLSchema {
    var attributes = [
      SQLAttribute(name: "label", type: .string, indexed: true),
      SQLAttribute(name: "value", type: .double, indexed: true),
      SQLAttribute(name: "sensor_id", type: .integer, indexed: true),
      SQLAttribute(
        name: "amount", type: .double, indexed: true, nativeType: postgres ? "numeric(12,2)" : "NUMERIC(12, 2)"),
      SQLAttribute(name: "taken_at", type: .date, indexed: true, nativeType: "TEXT", dateEncoding: .iso8601),
      SQLAttribute(
        name: "taken_ms", type: .date, indexed: true, nativeType: "INTEGER", dateEncoding: .unixMilliseconds),
    ]
    if postgres {
      attributes.append(
        SQLAttribute(name: "taken_tz", type: .date, indexed: true, nativeType: "timestamptz", dateEncoding: .native))
      attributes.append(SQLAttribute(name: "ref", type: .string, indexed: true, nativeType: "uuid"))
    }
    let reading = SQLEntity(
      name: "reading", attributes: attributes,
      relationships: [SQLRelationship(name: "sensor", target: "sensor", kind: .toOne(foreignKey: "sensor_id"))])
    let sensor = SQLEntity(name: "sensor", attributes: [SQLAttribute(name: "name", type: .string, indexed: true)])
    return try SQLSchema(entities: [reading, sensor], layout: .existing)
  }

  static let sqliteScript = """
    CREATE TABLE sensor (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE reading (id INTEGER PRIMARY KEY, sensor_id INTEGER REFERENCES sensor (id), label TEXT,
      value REAL, taken_at TEXT, taken_ms INTEGER, amount NUMERIC(12, 2));
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
      INSERT INTO sensor SELECT i, 'S' || printf('%04d', i) FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
      INSERT INTO reading SELECT i, i % 1000 + 1, 'L' || printf('%06d', i), i * 0.5,
        strftime('%Y-%m-%dT%H:%M:%SZ', 1700000000 + i * 60, 'unixepoch'), (1700000000 + i * 60) * 1000, i + 0.45 FROM n;
    CREATE INDEX reading_label_idx ON reading (label);
    CREATE INDEX reading_value_idx ON reading (value);
    CREATE INDEX reading_sensor_idx ON reading (sensor_id);
    CREATE INDEX reading_taken_at_idx ON reading (taken_at);
    CREATE INDEX reading_taken_ms_idx ON reading (taken_ms);
    CREATE INDEX reading_amount_idx ON reading (amount);
    CREATE INDEX sensor_name_idx ON sensor (name);
    ANALYZE;
    """

  /// Sift orders and prefix-matches text by code point (`COLLATE "C"`) and tests equality in
  /// the column's collation, so the text columns get both indexes an expert would make for
  /// these queries (names sharing a prefix: a case lists the prefix).
  static let postgresScript = """
    CREATE TABLE sensor (id integer PRIMARY KEY, name text NOT NULL);
    CREATE TABLE reading (id integer PRIMARY KEY, sensor_id integer REFERENCES sensor (id), label text,
      value double precision, taken_at text, taken_ms bigint, taken_tz timestamptz, amount numeric(12, 2), ref uuid);
    INSERT INTO sensor SELECT i, 'S' || lpad(i::text, 4, '0') FROM generate_series(1, 1000) i;
    INSERT INTO reading SELECT i, i % 1000 + 1, 'L' || lpad(i::text, 6, '0'), i * 0.5,
      to_char(to_timestamp(1700000000 + i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      (1700000000 + i * 60)::bigint * 1000, to_timestamp(1700000000 + i * 60), i + 0.45,
      lpad(to_hex(i), 32, '0')::uuid FROM generate_series(1, 100000) i;
    CREATE INDEX reading_label_idx ON reading (label);
    CREATE INDEX reading_label_c_idx ON reading (label COLLATE "C");
    CREATE INDEX reading_value_idx ON reading (value);
    CREATE INDEX reading_sensor_idx ON reading (sensor_id);
    CREATE INDEX reading_taken_at_idx ON reading (taken_at COLLATE "C");
    CREATE INDEX reading_taken_ms_idx ON reading (taken_ms);
    CREATE INDEX reading_taken_tz_idx ON reading (taken_tz);
    CREATE INDEX reading_amount_idx ON reading (amount);
    CREATE INDEX reading_ref_idx ON reading (ref);
    CREATE INDEX sensor_name_idx ON sensor (name);
    CREATE INDEX sensor_name_c_idx ON sensor (name COLLATE "C");
    -- Named tables: a bare ANALYZE visits every table of the database, other tests' temporary
    -- ones included, and fails when one of them is dropped meanwhile.
    ANALYZE sensor; ANALYZE reading;
    """

  static func statement(_ format: String, _ args: [SiftValue], _ compiler: SQLCompiler) throws -> SQLStatement {
    let w = try compiler.compileWhere(try SiftPredicate(format: format, arguments: args), entity: "reading")
    return SQLStatement(sql: "SELECT t0.\"id\" FROM \"reading\" t0 WHERE " + w.sql, bindings: w.bindings)
  }

  @Test func sqliteUsesTheIndexes() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(Self.sqliteScript)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try Self.schema(postgres: false))
    for (format, args, indexes) in Self.cases {
      let st = try Self.statement(format, args, compiler)
      let plan = try db.explainQueryPlan(st)
      #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(format): \(plan) \(st.sql)")
      #expect(plan.contains { $0.hasPrefix("SEARCH") }, "\(format): \(plan) \(st.sql)")
      for index in indexes {
        #expect(plan.contains { $0.contains("INDEX \(index)") }, "\(format) needs \(index): \(plan) \(st.sql)")
      }
    }
    // The same plan answers as memory would: spot checks of the text and millisecond dates.
    let count = { (format: String, args: [SiftValue]) throws -> Int64? in
      let st = try Self.statement(format, args, compiler)
      return try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM (\(st.sql))", bindings: st.bindings)).first?.first?
        .intValue
    }
    #expect(try count("taken_at > %@", [Self.at(99_990)]) == 10)
    #expect(try count("taken_at >= %@ AND taken_at < %@", [Self.at(500, plus: 0.5), Self.at(510)]) == 9)
    #expect(try count("taken_at == %@", [Self.at(777)]) == 1)
    #expect(try count("taken_ms BETWEEN %@", [.array([Self.at(500), Self.at(510, plus: 0.25)])]) == 11)
    #expect(try count("sensor.name == %@", ["S0007"]) == 100)
    #expect(try count("amount IN %@", [.array([123.45, 7.5, 3])]) == 1)
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresUsesTheIndexes() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run(Self.postgresScript)
    // Whether the index *can* serve the statement, not whether this planner run prefers it.
    try db.run("SET enable_seqscan = off")
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: try Self.schema(postgres: true))
    for (format, args, indexes) in Self.cases + Self.postgresCases {
      let st = try Self.statement(format, args, compiler)
      let rows = try db.execute(SQLStatement(sql: "EXPLAIN " + st.sql, bindings: st.bindings))
      let plan = rows.compactMap { row -> String? in
        if case .text(let s)? = row.first { return s }
        return nil
      }
      #expect(!plan.contains { $0.contains("Seq Scan") }, "\(format): \(plan.joined(separator: " | ")) \(st.sql)")
      for index in indexes {
        #expect(
          plan.contains { $0.contains(index) }, "\(format) needs \(index): \(plan.joined(separator: " | ")) \(st.sql)")
      }
      let n = try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM (\(st.sql)) s", bindings: st.bindings))
      #expect(n.first?.first?.intValue ?? 0 > 0, "\(format): no rows")
    }
  }
}
