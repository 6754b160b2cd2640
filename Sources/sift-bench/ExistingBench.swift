import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `--suite existing`: on a 1,000,000-row indexed table Sift did not create (read-only
/// connection, schema read by introspection), the query time of Sift's compiled SQL against
/// the SQL an expert would write for the same question, interleaved on the same connection
/// (`ratio_vs_hand`, budget ≤ 1.2 for every indexable predicate). Each pair is checked to
/// return the same rows before it is timed. Both statements return the matching keys in key
/// order (what `sift batch --db` answers with).
///
/// The table (`reading`, as in ExistingPlanTests, ten times larger): text labels, REAL values,
/// ISO-8601 text (`TIMESTAMP`) and integer millisecond (`DATETIME`) dates, NUMERIC amounts, a foreign key to `sensor`;
/// one index per column, plus `sift_fold(label, 1)` for `[c]` (the README's recipe) and
/// `label COLLATE NOCASE` for the hand-written case-insensitive queries. With `SIFT_POSTGRES`
/// set, the same on PostgreSQL (ExistingBenchPostgres.swift); with `SIFT_MYSQL`, on MySQL or
/// MariaDB (ExistingBenchMySQL.swift).
func runExistingBenchmarks(_ options: BenchOptions) throws {
  let rows = 1_000_000
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bench-existing-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: dir) }
  let path = dir.appendingPathComponent("readings.sqlite").path
  let started = Date()
  try SQLiteDatabase(path: path).executeScript(existingScript(rows: rows))
  emit([
    ("name", "existing.setup"), ("engine", "sqlite"), ("rows", .int(Int64(rows))),
    ("seconds", .double(Date().timeIntervalSince(started))),
  ])

  do {
    let db = try SQLiteDatabase(readOnly: path)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema)
    try compareWithHand("sqlite", db, compiler, existingCases, seconds: options.seconds, clock: .threadCPU)
    // The same with the exact test alone (what BEGINSWITH[c] compiled to before the NOCASE
    // range): the sift_fold index serves it.
    let exactOnly = SQLCompiler(dialect: SQLiteDialect(), schema: try withoutCollations(db.introspectSchema().schema))
    try compareWithHand(
      "sqlite-exact-only", db, exactOnly, nocaseOnlyCases, seconds: options.seconds, clock: .threadCPU)
  }
  // Only the user's NOCASE index (no sift_fold index): BEGINSWITH[c] of a constant uses it
  // through the NOCASE range in front of the exact test (`sqlite-nocase-only`); the same
  // schema without index collations compiles the exact test alone, a scan (`…-before`).
  do {
    try SQLiteDatabase(path: path).executeScript("DROP INDEX reading_label_fold_idx")
    let db = try SQLiteDatabase(readOnly: path)
    let schema = try db.introspectSchema().schema
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    try compareWithHand(
      "sqlite-nocase-only", db, compiler, nocaseOnlyCases, seconds: options.seconds, clock: .threadCPU)
    let before = SQLCompiler(dialect: SQLiteDialect(), schema: try withoutCollations(schema))
    var scans = nocaseOnlyCases
    for i in scans.indices { scans[i].indexable = false }
    try compareWithHand("sqlite-nocase-only-before", db, before, scans, seconds: options.seconds, clock: .threadCPU)
  }
  try runExistingPostgresBenchmarks(options, rows: rows)
  try runExistingMySQLBenchmarks(options, rows: rows)
}

/// Times each case's compiled SQL against its hand-written SQL on `db`, interleaved, after
/// checking that both return the same rows; prints one line per case and a summary.
/// SQLite runs in this thread, so its time is the thread's CPU time (user + system): on a
/// shared, loaded machine wall time mostly measures the other processes. PostgreSQL works in
/// the server, so its time is wall time, one run per round, compared by 10th percentiles
/// (`PairTiming`).
func compareWithHand(
  _ engine: String, _ db: any SQLDatabase, _ compiler: SQLCompiler, _ cases: [ExistingBenchCase], seconds: Double,
  clock: PairTiming.Clock
) throws {
  var ratios: [Double] = []
  var indexable: [Double] = []
  for c in cases {
    let sift = try compiler.compile(
      SiftFetchRequest(
        entity: "reading", predicate: try SiftPredicate(format: c.format, arguments: c.args),
        resultType: .properties(["id"])))
    let hand = SQLStatement(sql: c.hand, bindings: c.handBindings)
    let expected = try db.execute(hand)
    guard try db.execute(sift) == expected else {
      throw BenchOptions.Failure(
        description: "existing: \(c.format) answers differently from \(c.hand)\n  sift: \(sift.sql)")
    }
    let t = PairTiming(
      seconds: seconds, clock: clock, { blackHole(try? db.execute(sift)) }, { blackHole(try? db.execute(hand)) })
    ratios.append(t.ratio)
    if c.indexable { indexable.append(t.ratio) }
    emit([
      ("name", "existing.query"), ("engine", .string(engine)), ("clock", .string(clock.rawValue)),
      ("format", .string(c.format)),
      ("rows", .int(Int64(expected.count))), ("indexable", .bool(c.indexable)),
      ("sift_ns", .double(t.median.0)), ("hand_ns", .double(t.median.1)),
      ("ratio_vs_hand", .double(t.ratio)), ("ratio_of_best", .double(t.best.0 / t.best.1)),
      ("rounds", .int(Int64(t.rounds))),
      ("sift_sql", .string(sift.sql)), ("hand_sql", .string(c.hand)),
    ])
  }
  emit([
    ("name", "existing.summary"), ("engine", .string(engine)), ("cases", .int(Int64(ratios.count))),
    ("median_ratio_vs_hand", .double(InterleavedTiming.median(ratios))),
    ("worst_ratio_vs_hand", .double(ratios.max() ?? .nan)),
    ("worst_indexable_ratio_vs_hand", .double(indexable.max() ?? .nan)),
    ("budget", .double(1.2)), ("within_budget", .bool(indexable.allSatisfy { $0 <= 1.2 })),
  ])
}

/// One question: the predicate Sift compiles, and the expert's SQL with its bindings.
struct ExistingBenchCase {
  var format: String
  var args: [SiftValue] = []
  var hand: String
  var handBindings: [SQLValue] = []
  /// False for a predicate no index can serve (`!=` matching nearly every row): reported, not
  /// held to the budget.
  var indexable = true
}

/// `reading` n (1…rows) was taken at 1,700,000,000 + 60 n seconds.
func existingDate(_ n: Int, plus seconds: Double = 0) -> SiftValue {
  .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 60 + seconds))
}

let existingCases: [ExistingBenchCase] = [
  ExistingBenchCase(
    format: "label == %@", args: ["L0123456"],
    hand: "SELECT id FROM reading WHERE label = ? ORDER BY id", handBindings: [.text("L0123456")]),
  ExistingBenchCase(
    format: "value > %@", args: [499_950.0],
    hand: "SELECT id FROM reading WHERE value > ? ORDER BY id", handBindings: [.double(499_950)]),
  ExistingBenchCase(
    format: "value BETWEEN %@", args: [.array([1000.0, 1050.0])],
    hand: "SELECT id FROM reading WHERE value BETWEEN ? AND ? ORDER BY id",
    handBindings: [.double(1000), .double(1050)]),
  ExistingBenchCase(
    format: "label BEGINSWITH %@", args: ["L012345"],
    hand: "SELECT id FROM reading WHERE label >= ? AND label < ? ORDER BY id",
    handBindings: [.text("L012345"), .text("L012346")]),
  ExistingBenchCase(
    format: "label IN %@", args: [.array(["L0000001", "L0000002", "L0500000"])],
    hand: "SELECT id FROM reading WHERE label IN (?, ?, ?) ORDER BY id",
    handBindings: [.text("L0000001"), .text("L0000002"), .text("L0500000")]),
  ExistingBenchCase(
    format: "taken_at >= %@ AND taken_at < %@", args: [existingDate(500_000), existingDate(500_050)],
    hand: "SELECT id FROM reading WHERE taken_at >= ? AND taken_at < ? ORDER BY id",
    handBindings: [.text(existingISO(500_000)), .text(existingISO(500_050))]),
  ExistingBenchCase(
    format: "taken_ms BETWEEN %@", args: [.array([existingDate(700_000), existingDate(700_050)])],
    hand: "SELECT id FROM reading WHERE taken_ms BETWEEN ? AND ? ORDER BY id",
    handBindings: [.integer((1_700_000_000 + 700_000 * 60) * 1000), .integer((1_700_000_000 + 700_050 * 60) * 1000)]),
  ExistingBenchCase(
    format: "amount == %@", args: [123_456.45],
    hand: "SELECT id FROM reading WHERE amount = ? ORDER BY id", handBindings: [.double(123_456.45)]),
  ExistingBenchCase(
    format: "sensor.name == %@", args: ["S0007"],
    hand: "SELECT r.id FROM reading r JOIN sensor s ON s.id = r.sensor_id WHERE s.name = ? ORDER BY r.id",
    handBindings: [.text("S0007")]),
  // A to-one step to a column without an index (a tenth of the rows match), and one a
  // missing target also satisfies: the expert's JOIN / LEFT JOIN.
  ExistingBenchCase(
    format: "sensor.city == %@", args: ["C3"],
    hand: "SELECT r.id FROM reading r JOIN sensor s ON s.id = r.sensor_id WHERE s.city = ? ORDER BY r.id",
    handBindings: [.text("C3")]),
  ExistingBenchCase(
    format: "sensor.city == nil OR value < %@", args: [5000.0],
    hand:
      "SELECT r.id FROM reading r LEFT JOIN sensor s ON s.id = r.sensor_id WHERE s.city IS NULL OR r.value < ? ORDER BY r.id",
    handBindings: [.double(5000)]),
  ExistingBenchCase(
    format: "label ==[c] %@", args: ["l0123456"],
    hand: "SELECT id FROM reading WHERE label = ? COLLATE NOCASE ORDER BY id", handBindings: [.text("l0123456")]),
  ExistingBenchCase(
    format: "label BEGINSWITH[c] %@", args: ["l012345"],
    hand: "SELECT id FROM reading WHERE label LIKE ? ORDER BY id", handBindings: [.text("l012345%")]),
  ExistingBenchCase(
    format: "value != %@", args: [10.0],
    hand: "SELECT id FROM reading WHERE value IS NOT ? ORDER BY id", handBindings: [.double(10)], indexable: false),
]

/// `schema` with no index collations known: BEGINSWITH[c] compiles to the exact test alone.
func withoutCollations(_ schema: SQLSchema) throws -> SQLSchema {
  let entities = schema.entityNames.compactMap { name in
    schema.entity(name).map { e in
      var e = e
      for i in e.indexes.indices { e.indexes[i].collations = [] }
      return e
    }
  }
  return try SQLSchema(entities: entities, dateEncoding: schema.dateEncoding, layout: schema.layout)
}

/// `BEGINSWITH[c]` where the table has the user's `label COLLATE NOCASE` index and no
/// `sift_fold` index (`runExistingBenchmarks` drops it first).
let nocaseOnlyCases: [ExistingBenchCase] = [
  ExistingBenchCase(
    format: "label BEGINSWITH[c] %@", args: ["l012345"],
    hand: "SELECT id FROM reading WHERE label LIKE ? ORDER BY id", handBindings: [.text("l012345%")])
]

/// `2023-11-14T22:13:20Z`: reading n's `taken_at`.
func existingISO(_ n: Int) -> String {
  let f = ISO8601DateFormatter()
  f.formatOptions = [.withInternetDateTime]
  return f.string(from: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 60))
}

func existingScript(rows: Int) -> String {
  """
  PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
  CREATE TABLE sensor (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
  CREATE TABLE reading (id INTEGER PRIMARY KEY, sensor_id INTEGER REFERENCES sensor (id), label TEXT,
    value REAL, taken_at TIMESTAMP, taken_ms DATETIME, amount NUMERIC(12, 2));
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
    INSERT INTO sensor SELECT i, 'S' || printf('%04d', i), CASE WHEN i % 50 = 0 THEN NULL ELSE 'C' || (i % 10) END FROM n;
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
    INSERT INTO reading SELECT i, i % 1000 + 1, 'L' || printf('%07d', i), CASE WHEN i % 100 = 0 THEN NULL ELSE i * 0.5 END,
      strftime('%Y-%m-%dT%H:%M:%SZ', 1700000000 + i * 60, 'unixepoch'), (1700000000 + i * 60) * 1000, i + 0.45 FROM n;
  CREATE INDEX reading_label_idx ON reading (label);
  CREATE INDEX reading_label_fold_idx ON reading (sift_fold(label, 1));
  CREATE INDEX reading_label_nocase_idx ON reading (label COLLATE NOCASE);
  CREATE INDEX reading_value_idx ON reading (value);
  CREATE INDEX reading_sensor_idx ON reading (sensor_id);
  CREATE INDEX reading_taken_at_idx ON reading (taken_at);
  CREATE INDEX reading_taken_ms_idx ON reading (taken_ms);
  CREATE INDEX reading_amount_idx ON reading (amount);
  CREATE INDEX sensor_name_idx ON sensor (name);
  ANALYZE;
  """
}

/// Two bodies timed in alternating rounds, on this thread's CPU clock or on the wall clock.
///
/// CPU clock (work done in this process): each round runs a batch of about 5 ms of each body;
/// `ratio` is the median over rounds of a's time over b's (as `InterleavedTiming`). Wall clock
/// (work done in a server): each round runs each body once, and `ratio` compares their 10th
/// percentiles — on a loaded machine most runs wait for a CPU, and the low percentile is the
/// run that did not. `best`: each body's fastest round.
struct PairTiming {
  enum Clock: String { case wall, threadCPU = "thread-cpu" }

  var median: (Double, Double)
  var best: (Double, Double)
  var ratio: Double
  var rounds: Int

  init(seconds: Double, clock: Clock, _ a: () -> Void, _ b: () -> Void) {
    func now() -> UInt64 {
      guard clock == .threadCPU else { return DispatchTime.now().uptimeNanoseconds }
      var ts = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
      return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
    func batchSize(_ body: () -> Void) -> Int {
      guard clock == .threadCPU else { return 1 }
      var batch = 1
      while true {
        let t0 = now()
        for _ in 0..<batch { body() }
        if now() - t0 > 5_000_000 || batch > 1 << 20 { return batch }
        batch *= 2
      }
    }
    func time(_ body: () -> Void, _ batch: Int) -> Double {
      let t0 = now()
      for _ in 0..<batch { body() }
      return Double(now() - t0) / Double(batch)
    }
    a()
    b()  // warm both before the first round
    let batches = (batchSize(a), batchSize(b))
    var xs: [Double] = [], ys: [Double] = [], rs: [Double] = []
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 2 * 1e9)
    repeat {
      // Alternate which body goes first, so neither always follows the other.
      let (x, y) =
        rs.count % 2 == 0
        ? {
          let x = time(a, batches.0); return (x, time(b, batches.1))
        }()
        : {
          let y = time(b, batches.1); return (time(a, batches.0), y)
        }()
      xs.append(x)
      ys.append(y)
      rs.append(x / y)
    } while DispatchTime.now().uptimeNanoseconds < deadline || rs.count < 9
    median = (InterleavedTiming.median(xs), InterleavedTiming.median(ys))
    best = (xs.min() ?? .nan, ys.min() ?? .nan)
    if clock == .threadCPU {
      ratio = InterleavedTiming.median(rs)
    } else {
      func low(_ v: [Double]) -> Double { v.sorted()[v.count / 10] }
      ratio = low(xs) / low(ys)
    }
    rounds = rs.count
  }
}
