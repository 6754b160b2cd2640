import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax

/// `--suite existing` on PostgreSQL, when env `SIFT_POSTGRES` holds a conninfo: the `reading`
/// table of ExistingBench.swift with native columns (`timestamptz`, `numeric`, `uuid`) in a
/// temporary schema (dropped at the end), Sift's functions set up, queried on a read-only
/// connection with the introspected schema. The hand-written SQL uses what an expert indexes:
/// `lower(label)` for case-insensitive text, the plain columns otherwise; Sift's forms get
/// the indexes the README recommends (`label COLLATE "C"`, `sift.sift_fold(label, 1) text_pattern_ops`).
func runExistingPostgresBenchmarks(_ options: BenchOptions, rows: Int) throws {
  guard let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !info.isEmpty else {
    emit([("name", "existing.skipped"), ("engine", "postgresql"), ("why", "SIFT_POSTGRES is not set")])
    return
  }
  let owner = try PostgresDatabase.prepared(conninfo: info, schema: .temporary(prefix: "sift_bench"))
  defer { owner.close() }
  let schema = owner.schemaName ?? "public"
  let started = Date()
  try owner.run(existingPostgresScript(rows: rows))
  emit([
    ("name", "existing.setup"), ("engine", "postgresql"), ("rows", .int(Int64(rows))),
    ("seconds", .double(Date().timeIntervalSince(started))),
  ])
  let db = try PostgresDatabase(conninfo: info, schema: .named(schema), readOnly: true)
  defer { db.close() }
  // PostgreSQL declares text and bigint: the schema file says they hold dates.
  let dates = """
    {"entities": {"reading": {"attributes": {"taken_at": {"type": "date", "dateEncoding": "iso8601"},
      "taken_ms": {"type": "date", "dateEncoding": "millisecondsSince1970"}}}}}
    """
  let compiler = SQLCompiler(
    dialect: PostgreSQLDialect(), schema: try db.introspectSchema(named: schema).schema.merging(json: dates))
  try compareWithHand("postgresql", db, compiler, existingPostgresCases, seconds: options.seconds, clock: .wall)
}

let existingPostgresCases: [ExistingBenchCase] = [
  ExistingBenchCase(
    format: "label == %@", args: ["L0123456"],
    hand: "SELECT id FROM reading WHERE label = $1 ORDER BY id", handBindings: [.text("L0123456")]),
  ExistingBenchCase(
    format: "value > %@", args: [499_950.0],
    hand: "SELECT id FROM reading WHERE value > $1 ORDER BY id", handBindings: [.double(499_950)]),
  ExistingBenchCase(
    format: "value BETWEEN %@", args: [.array([1000.0, 1050.0])],
    hand: "SELECT id FROM reading WHERE value BETWEEN $1 AND $2 ORDER BY id",
    handBindings: [.double(1000), .double(1050)]),
  ExistingBenchCase(
    format: "label BEGINSWITH %@", args: ["L012345"],
    hand: "SELECT id FROM reading WHERE label LIKE $1 ORDER BY id", handBindings: [.text("L012345%")]),
  ExistingBenchCase(
    format: "label IN %@", args: [.array(["L0000001", "L0000002", "L0500000"])],
    hand: "SELECT id FROM reading WHERE label IN ($1, $2, $3) ORDER BY id",
    handBindings: [.text("L0000001"), .text("L0000002"), .text("L0500000")]),
  ExistingBenchCase(
    format: "taken_at >= %@ AND taken_at < %@", args: [existingDate(500_000), existingDate(500_050)],
    hand: "SELECT id FROM reading WHERE taken_at >= $1 AND taken_at < $2 ORDER BY id",
    handBindings: [.text(existingISO(500_000)), .text(existingISO(500_050))]),
  ExistingBenchCase(
    format: "taken_ms BETWEEN %@", args: [.array([existingDate(700_000), existingDate(700_050)])],
    hand: "SELECT id FROM reading WHERE taken_ms BETWEEN $1 AND $2 ORDER BY id",
    handBindings: [.integer((1_700_000_000 + 700_000 * 60) * 1000), .integer((1_700_000_000 + 700_050 * 60) * 1000)]),
  ExistingBenchCase(
    format: "taken_tz >= %@ AND taken_tz < %@", args: [existingDate(300_000), existingDate(300_050)],
    hand: "SELECT id FROM reading WHERE taken_tz >= $1::timestamptz AND taken_tz < $2::timestamptz ORDER BY id",
    handBindings: [.text(existingISO(300_000)), .text(existingISO(300_050))]),
  ExistingBenchCase(
    format: "amount == %@", args: [123_456.45],
    hand: "SELECT id FROM reading WHERE amount = $1::numeric ORDER BY id", handBindings: [.text("123456.45")]),
  ExistingBenchCase(
    format: "ref == %@", args: ["00000000-0000-0000-0000-00000001e240"],
    hand: "SELECT id FROM reading WHERE ref = $1::uuid ORDER BY id",
    handBindings: [.text("00000000-0000-0000-0000-00000001e240")]),
  ExistingBenchCase(
    format: "sensor.name == %@", args: ["S0007"],
    hand: "SELECT r.id FROM reading r JOIN sensor s ON s.id = r.sensor_id WHERE s.name = $1 ORDER BY r.id",
    handBindings: [.text("S0007")]),
  ExistingBenchCase(
    format: "sensor.city == %@", args: ["C3"],
    hand: "SELECT r.id FROM reading r JOIN sensor s ON s.id = r.sensor_id WHERE s.city = $1 ORDER BY r.id",
    handBindings: [.text("C3")]),
  ExistingBenchCase(
    format: "sensor.city == nil OR value < %@", args: [5000.0],
    hand:
      "SELECT r.id FROM reading r LEFT JOIN sensor s ON s.id = r.sensor_id WHERE s.city IS NULL OR r.value < $1 ORDER BY r.id",
    handBindings: [.double(5000)]),
  ExistingBenchCase(
    format: "label ==[c] %@", args: ["l0123456"],
    hand: "SELECT id FROM reading WHERE lower(label) = lower($1) ORDER BY id", handBindings: [.text("l0123456")]),
  ExistingBenchCase(
    format: "label BEGINSWITH[c] %@", args: ["l012345"],
    hand: "SELECT id FROM reading WHERE lower(label) LIKE $1 ORDER BY id", handBindings: [.text("l012345%")]),
  ExistingBenchCase(
    format: "value != %@", args: [10.0],
    hand: "SELECT id FROM reading WHERE value IS DISTINCT FROM $1 ORDER BY id", handBindings: [.double(10)],
    indexable: false),
]

func existingPostgresScript(rows: Int) -> String {
  """
  CREATE TABLE sensor (id integer PRIMARY KEY, name text NOT NULL, city text);
  CREATE TABLE reading (id integer PRIMARY KEY, sensor_id integer REFERENCES sensor (id), label text,
    value double precision, taken_at text, taken_ms bigint, taken_tz timestamptz, amount numeric(12, 2), ref uuid);
  INSERT INTO sensor SELECT i, 'S' || lpad(i::text, 4, '0'), CASE WHEN i % 50 = 0 THEN NULL ELSE 'C' || (i % 10) END
    FROM generate_series(1, 1000) i;
  INSERT INTO reading SELECT i, i % 1000 + 1, 'L' || lpad(i::text, 7, '0'), CASE WHEN i % 100 = 0 THEN NULL ELSE i * 0.5 END,
    to_char(to_timestamp(1700000000 + i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    (1700000000 + i * 60)::bigint * 1000, to_timestamp(1700000000 + i * 60), i + 0.45,
    lpad(to_hex(i), 32, '0')::uuid FROM generate_series(1, \(rows)) i;
  CREATE INDEX reading_label_idx ON reading (label);
  CREATE INDEX reading_label_c_idx ON reading (label COLLATE "C");
  CREATE INDEX reading_label_fold_idx ON reading (sift.sift_fold(label, 1) text_pattern_ops);
  CREATE INDEX reading_label_lower_idx ON reading (lower(label) text_pattern_ops);
  CREATE INDEX reading_value_idx ON reading (value);
  CREATE INDEX reading_sensor_idx ON reading (sensor_id);
  CREATE INDEX reading_taken_at_idx ON reading (taken_at);
  CREATE INDEX reading_taken_at_c_idx ON reading (taken_at COLLATE "C");
  CREATE INDEX reading_taken_ms_idx ON reading (taken_ms);
  CREATE INDEX reading_taken_tz_idx ON reading (taken_tz);
  CREATE INDEX reading_amount_idx ON reading (amount);
  CREATE INDEX reading_ref_idx ON reading (ref);
  CREATE INDEX sensor_name_idx ON sensor (name);
  ANALYZE;
  """
}
