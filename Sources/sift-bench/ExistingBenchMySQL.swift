import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax

/// `--suite existing` on MySQL/MariaDB, when env `SIFT_MYSQL` holds a `mysql://` URL: the
/// `reading` table of ExistingBench.swift with native columns (`VARCHAR` under the server's
/// default collation, `DOUBLE`, `DATETIME(6)`, `TIMESTAMP(6)`, `DECIMAL(12,2)`) in a database
/// of its own (`sift_bench_<random>`, dropped at the end), queried on a read-only connection
/// with the introspected schema. The hand-written SQL is what an expert writes on MariaDB for
/// the same rows: plain comparisons where the column's collation already gives Sift's answer
/// on this data, `BINARY` where only an exact comparison does.
func runExistingMySQLBenchmarks(_ options: BenchOptions, rows: Int) throws {
  guard let url = ProcessInfo.processInfo.environment["SIFT_MYSQL"], !url.isEmpty else {
    emit([("name", "existing.skipped"), ("engine", "mysql"), ("why", "SIFT_MYSQL is not set")])
    return
  }
  let name = "sift_bench_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
  let admin = try MySQLDatabase(url: url, readOnly: false)
  defer {
    try? admin.executeScript("DROP DATABASE IF EXISTS " + MySQLDatabase.quoteIdentifier(name))
    admin.close()
  }
  for statement in MySQLDialect.setupSQL { try admin.executeScript(statement) }
  try admin.executeScript("CREATE DATABASE " + MySQLDatabase.quoteIdentifier(name) + " CHARACTER SET utf8mb4")
  var parsed = try MySQLURL(url)
  parsed.database = name
  let benchURL = existingMySQLURL(parsed)
  let started = Date()
  do {
    let owner = try MySQLDatabase(
      url: benchURL, readOnly: false, timeouts: MySQLTimeouts(connect: 10, lock: 10, statement: 1800))
    defer { owner.close() }
    try owner.executeScript(existingMySQLScript(rows: rows))
  }
  let db = try MySQLDatabase(url: benchURL)
  defer { db.close() }
  emit([
    ("name", "existing.setup"), ("engine", .string(db.isMariaDB ? "mariadb" : "mysql")), ("rows", .int(Int64(rows))),
    ("seconds", .double(Date().timeIntervalSince(started))),
  ])
  // The BIGINT holds milliseconds: the schema file says it is a date.
  let dates = """
    {"entities": {"reading": {"attributes": {"taken_ms": {"type": "date", "dateEncoding": "millisecondsSince1970"}}}}}
    """
  let compiler = SQLCompiler(
    dialect: MySQLDialect(), schema: try db.introspectSchema(named: name).schema.merging(json: dates))
  try compareWithHand(
    db.isMariaDB ? "mariadb" : "mysql", db, compiler, existingMySQLCases, seconds: options.seconds, clock: .wall)
}

/// `url` as text (the password percent-encoded).
func existingMySQLURL(_ url: MySQLURL) -> String {
  let enc: (String) -> String = { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
  var text = "mysql://" + enc(url.user)
  if let p = url.password { text += ":" + enc(p) }
  return text + "@\(url.server)/" + enc(url.database ?? "")
}

/// `2023-11-14 22:13:20`: reading n's `taken_at` as MariaDB writes a `DATETIME` (UTC).
func existingMySQLDateTime(_ n: Int) -> String {
  String(existingISO(n).dropLast().replacingOccurrences(of: "T", with: " "))
}

/// The SQLite cases whose hand-written SQL MariaDB runs as it is (`?` placeholders, plain
/// comparisons, joins), then those MariaDB says its own way.
let existingMySQLCases: [ExistingBenchCase] =
  existingCases.filter { sameOnMySQL.contains($0.format) } + [
    ExistingBenchCase(
      format: "label BEGINSWITH %@", args: ["L012345"],
      hand: "SELECT id FROM reading WHERE label LIKE ? ORDER BY id", handBindings: [.text("L012345%")]),
    ExistingBenchCase(
      format: "taken_at >= %@ AND taken_at < %@", args: [existingDate(500_000), existingDate(500_050)],
      hand: "SELECT id FROM reading WHERE taken_at >= ? AND taken_at < ? ORDER BY id",
      handBindings: [.text(existingMySQLDateTime(500_000)), .text(existingMySQLDateTime(500_050))]),
    ExistingBenchCase(
      format: "taken_tz >= %@ AND taken_tz < %@", args: [existingDate(300_000), existingDate(300_050)],
      hand: "SELECT id FROM reading WHERE taken_tz >= ? AND taken_tz < ? ORDER BY id",
      handBindings: [.text(existingMySQLDateTime(300_000)), .text(existingMySQLDateTime(300_050))]),
    ExistingBenchCase(
      format: "amount == %@", args: [123_456.45],
      hand: "SELECT id FROM reading WHERE amount = ? ORDER BY id", handBindings: [.text("123456.45")]),
    ExistingBenchCase(
      format: "label ==[c] %@", args: ["l0123456"],
      hand: "SELECT id FROM reading WHERE label = ? ORDER BY id", handBindings: [.text("l0123456")]),
    ExistingBenchCase(
      format: "label BEGINSWITH[c] %@", args: ["l012345"],
      hand: "SELECT id FROM reading WHERE label LIKE ? ORDER BY id", handBindings: [.text("l012345%")]),
    ExistingBenchCase(
      format: "value != %@", args: [10.0],
      hand: "SELECT id FROM reading WHERE NOT (value <=> ?) ORDER BY id", handBindings: [.double(10)],
      indexable: false),
  ]

let sameOnMySQL: Set<String> = [
  "label == %@", "value > %@", "value BETWEEN %@", "label IN %@", "taken_ms BETWEEN %@", "sensor.name == %@",
  "sensor.city == %@", "sensor.city == nil OR value < %@",
]

func existingMySQLScript(rows: Int) -> String {
  """
  CREATE TABLE sensor (id INT PRIMARY KEY, name VARCHAR(16) NOT NULL, city VARCHAR(16));
  CREATE TABLE reading (id INT PRIMARY KEY, sensor_id INT, label VARCHAR(16), value DOUBLE,
    taken_at DATETIME(6), taken_ms BIGINT, taken_tz TIMESTAMP(6) NULL, amount DECIMAL(12, 2),
    FOREIGN KEY (sensor_id) REFERENCES sensor (id));
  INSERT INTO sensor SELECT seq, CONCAT('S', LPAD(seq, 4, '0')), IF(seq % 50 = 0, NULL, CONCAT('C', seq % 10))
    FROM seq_1_to_1000;
  INSERT INTO reading SELECT seq, seq % 1000 + 1, CONCAT('L', LPAD(seq, 7, '0')), IF(seq % 100 = 0, NULL, seq * 0.5),
    FROM_UNIXTIME(1700000000 + seq * 60), (1700000000 + seq * 60) * 1000, FROM_UNIXTIME(1700000000 + seq * 60),
    seq + 0.45 FROM seq_1_to_\(rows);
  CREATE INDEX reading_label_idx ON reading (label);
  CREATE INDEX reading_value_idx ON reading (value);
  CREATE INDEX reading_taken_at_idx ON reading (taken_at);
  CREATE INDEX reading_taken_ms_idx ON reading (taken_ms);
  CREATE INDEX reading_taken_tz_idx ON reading (taken_tz);
  CREATE INDEX reading_amount_idx ON reading (amount);
  CREATE INDEX sensor_name_idx ON sensor (name);
  ANALYZE TABLE sensor, reading;
  """
}
