import CSQLite
import Foundation
@_spi(Bench) import SiftCLI
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `--suite scale [--records N]`: the REPL on big data (issue 16), over N generated venues
/// (`sift --no-sample --generate N`), each figure beside its baseline in the same process:
///
/// - `scale.memory`: `bytes_per_record` (resident memory the generated data set adds) and
///   `json_bytes_per_record` (the same records as a JSON array).
/// - `scale.load`: `load_vs_foundation`, Foundation's `JSONSerialization` time over the REPL's
///   `.load` time on the same bytes (> 1: Sift is faster). Median of per-round ratios.
/// - `scale.scan`: `repl_vs_engine`, the REPL's `.count P` (one thread) over the evaluator's
///   `matchingIndices` on the same records; `parallel_speedup`, the REPL's one-thread scan
///   over its scan on every core. Interleaved rounds (`InterleavedTiming`).
/// - `scale.sqlite_copy`: `sqlite_copy_vs_baseline`, a plain loop of one prepared INSERT per
///   table in one transaction over the same rows (raw SQLite C API) over the REPL's copy on
///   first SQL use (> 1: the REPL is faster). Median of per-round ratios (3 rounds from
///   500,000 records, else 5).
///   Also `rows_only_s` (the loader making the rows, no database) and `writer_only_s` (the
///   baseline's rows through `SQLiteDatabase`'s row writer): where a copy's time goes.
/// - `scale.postgres_copy` (when `SIFT_POSTGRES` holds a conninfo): `postgres_copy_rows_per_s`.
func runScaleBenchmarks(_ options: BenchOptions) throws {
  let n = options.records
  let rounds = n >= 500_000 ? 3 : 5
  let median = InterleavedTiming.median
  // SIFT_BENCH_CASE=load|scan|sqlite_copy|postgres_copy runs that figure only (for profiling).
  let only = ProcessInfo.processInfo.environment["SIFT_BENCH_CASE"]
  func runs(_ name: String) -> Bool { only == nil || only == name }

  // Memory: what the loaded data set holds (resident bytes added while it is built).
  let before = residentBytes()
  var t0 = now()
  let probe = REPLBenchProbe(generated: n)
  let generateSeconds = now() - t0
  let bytesPerRecord = Double(residentBytes() - before) / Double(n)
  var json: [UInt8] = [UInt8(ascii: "[")]
  do {
    let values = REPLBenchProbe.generatedValues(count: n)
    for (i, v) in values.enumerated() {
      if i > 0 { json += Array(",\n".utf8) }
      json += Array(SiftJSON.serialize(v).utf8)
    }
    json.append(UInt8(ascii: "]"))
  }
  let jsonBytesPerRecord = Double(json.count) / Double(n)
  emit([
    ("name", "scale.memory"), ("records", .int(Int64(n))), ("bytes_per_record", .double(bytesPerRecord.rounded())),
    ("json_bytes_per_record", .double(jsonBytesPerRecord.rounded())),
    ("ratio", .double(round2(bytesPerRecord / jsonBytesPerRecord))), ("generate_s", .double(round2(generateSeconds))),
  ])

  // Loading JSON: Foundation and the REPL's `.load`, alternately.
  if runs("load") {
    var loadRatios: [Double] = []
    var foundationTimes: [Double] = []
    var siftTimes: [Double] = []
    let data = Data(json)
    for _ in 0..<rounds {
      t0 = now()
      let parsed = try JSONSerialization.jsonObject(with: data)
      let f = now() - t0
      guard (parsed as? [Any])?.count == n else {
        throw BenchOptions.Failure(description: "Foundation parsed a different count")
      }
      t0 = now()
      let count = try REPLBenchProbe.loadJSON(bytes: json)
      let s = now() - t0
      guard count == n else { throw BenchOptions.Failure(description: "the REPL loaded \(count) records, not \(n)") }
      foundationTimes.append(f)
      siftTimes.append(s)
      loadRatios.append(f / s)
    }

    emit([
      ("name", "scale.load"), ("records", .int(Int64(n))), ("mb", .double(round2(Double(json.count) / 1e6))),
      ("foundation_s", .double(round3(median(foundationTimes)))), ("sift_s", .double(round3(median(siftTimes)))),
      ("load_vs_foundation", .double(round2(median(loadRatios)))),
    ])
  }
  json = []

  // Scans: the REPL's `.count P` against the evaluator's batch over the same records.
  let objects = probe.objects
  let cores = ProcessInfo.processInfo.activeProcessorCount
  for format in runs("scan") ? scanFormats : [] {
    let matcher = try SiftPredicate(format: format).compile()
    let expected = try matcher.matchingIndices(objects).count
    for workers in [1, cores] {
      probe.scanWorkers = workers
      let text = probe.execute(".count " + format)
      guard text == "\(expected)\n" else {
        throw BenchOptions.Failure(
          description: "REPL .count \(format) with \(workers) workers printed \(text), expected \(expected)")
      }
    }
    let t = InterleavedTiming(
      seconds: options.seconds,
      [
        { blackHole(try? matcher.matchingIndices(objects)) },
        {
          probe.scanWorkers = 1; blackHole(probe.execute(".count " + format))
        },
        {
          probe.scanWorkers = cores; blackHole(probe.execute(".count " + format))
        },
      ])
    // CPU time (every thread) of the scan on every core over on one: 1 means the threads add
    // no work, so on an idle machine the speedup is near the core count (a busy shared
    // machine hides that from wall-clock figures).
    var cpu: [Double] = []
    for workers in [1, cores] {
      probe.scanWorkers = workers
      let c0 = cpuSeconds()
      for _ in 0..<5 { blackHole(probe.execute(".count " + format)) }
      cpu.append(cpuSeconds() - c0)
    }
    probe.scanWorkers = cores
    emit([
      ("name", "scale.scan"), ("parallel_cpu_ratio", .double(round2(cpu[1] / cpu[0]))), ("format", .string(format)),
      ("records", .int(Int64(n))),
      ("matches", .int(Int64(expected))), ("engine_ns_per_record", .double(round2(t.nsPerOp[0] / Double(n)))),
      ("repl_ns_per_record", .double(round2(t.nsPerOp[1] / Double(n)))),
      ("repl_parallel_ns_per_record", .double(round2(t.nsPerOp[2] / Double(n)))),
      ("repl_vs_engine", .double(round2(t.ratio(1, 0)))), ("parallel_speedup", .double(round2(t.ratio(1, 2)))),
      ("workers", .int(Int64(cores))),
    ])
  }

  // Copying into SQLite: the REPL's first SQL use against a plain prepared-INSERT loop.
  guard let schema = probe.schema else {
    throw BenchOptions.Failure(description: "the generated set has no SQL schema")
  }
  guard runs("sqlite_copy") || runs("postgres_copy") else { return }
  let rows = try CopyBaseline(schema: schema, entity: "venues", records: REPLBenchProbe.generatedValues(count: n))
  var copyRatios: [Double] = []
  var baseTimes: [Double] = []
  var copyTimes: [Double] = []
  var streamTimes: [Double] = []
  var writerTimes: [Double] = []
  for _ in 0..<(runs("sqlite_copy") ? rounds : 0) {
    let b = try rows.run()
    writerTimes.append(try rows.runThroughWriter(schema: schema, entity: "venues"))
    try probe.resetSQLite()
    t0 = now()
    try probe.copyIntoSQLite()
    let c = now() - t0
    t0 = now()
    guard try probe.streamRows() == rows.rowCount else {
      throw BenchOptions.Failure(description: "the loader made a different number of rows")
    }
    streamTimes.append(now() - t0)
    baseTimes.append(b)
    copyTimes.append(c)
    copyRatios.append(b / c)
  }
  if runs("sqlite_copy") {
    emit([
      ("name", "scale.sqlite_copy"), ("records", .int(Int64(n))), ("rows", .int(Int64(rows.rowCount))),
      ("baseline_s", .double(round3(median(baseTimes)))), ("copy_s", .double(round3(median(copyTimes)))),
      ("rows_only_s", .double(round3(median(streamTimes)))), ("writer_only_s", .double(round3(median(writerTimes)))),
      ("copy_rows_per_s", .double((Double(rows.rowCount) / median(copyTimes)).rounded())),
      ("sqlite_copy_vs_baseline", .double(round2(median(copyRatios)))),
    ])
  }

  if runs("postgres_copy"), let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !conninfo.isEmpty {
    t0 = now()
    try probe.copyIntoPostgres(conninfo: conninfo)
    let s = now() - t0
    emit([
      ("name", "scale.postgres_copy"), ("records", .int(Int64(n))), ("rows", .int(Int64(rows.rowCount))),
      ("copy_s", .double(round3(s))), ("postgres_copy_rows_per_s", .double((Double(rows.rowCount) / s).rounded())),
    ])
  }
}

let scanFormats = ["distance < 1", "ANY tags == \"wifi\"", "name BEGINSWITH[c] \"quiet\" AND city ==[c] \"tokyo\""]

/// The baseline for copies: the rows SiftSQL's loader inserts for the records, grouped by
/// statement, inserted with the raw SQLite C API (one prepared INSERT per table, bound and
/// stepped per row, in one transaction) into a fresh in-memory database with the same tables.
struct CopyBaseline {
  var ddl: [String]
  var tables: [(sql: String, width: Int, values: [SQLValue])] = []
  var rowCount = 0

  init(schema: SQLSchema, entity: String, records: [SiftValue]) throws {
    ddl = SQLDDL(schema: schema, dialect: SQLiteDialect()).createStatements()
    var index: [String: Int] = [:]
    for s in try SQLDataLoader(schema: schema, dialect: SQLiteDialect()).insertStatements(for: records, entity: entity)
    {
      let i = index[s.sql] ?? tables.count
      if i == tables.count {
        index[s.sql] = i
        tables.append((s.sql, s.bindings.count, []))
      }
      tables[i].values += s.bindings
      rowCount += 1
    }
  }

  /// The same rows through `SQLiteDatabase`'s row writer (diagnostic).
  func runThroughWriter(schema: SQLSchema, entity: String) throws -> Double {
    let db = try SiftSQLite.SQLiteDatabase()
    let t0 = now()
    try db.createTables(schema, dialect: SQLiteDialect())
    try db.executeScript("BEGIN")
    let w = try db.rowWriter(for: try SQLDataLoader(schema: schema, dialect: SQLiteDialect()).tables(for: entity))
    for (ti, table) in tables.enumerated() {
      var i = 0
      while i < table.values.count {
        try w.write(ti, Array(table.values[i..<(i + table.width)]))
        i += table.width
      }
    }
    try w.finish()
    try db.executeScript("COMMIT")
    return now() - t0
  }

  /// Seconds from creating the tables to COMMIT.
  func run() throws -> Double {
    var db: OpaquePointer?
    guard sqlite3_open(":memory:", &db) == SQLITE_OK, let db else {
      throw BenchOptions.Failure(description: "sqlite3_open")
    }
    defer { sqlite3_close(db) }
    func exec(_ sql: String) throws {
      guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
        throw BenchOptions.Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
      }
    }
    let t0 = now()
    for s in ddl { try exec(s) }
    try exec("BEGIN")
    for table in tables {
      var st: OpaquePointer?
      guard sqlite3_prepare_v2(db, table.sql, -1, &st, nil) == SQLITE_OK, let st else {
        throw BenchOptions.Failure(description: "prepare \(table.sql)")
      }
      var i = 0
      while i < table.values.count {
        for c in 0..<table.width { bindBaseline(table.values[i + c], st, Int32(c + 1)) }
        guard sqlite3_step(st) == SQLITE_DONE else {
          throw BenchOptions.Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        sqlite3_reset(st)
        i += table.width
      }
      sqlite3_finalize(st)
    }
    try exec("COMMIT")
    return now() - t0
  }
}

private func bindBaseline(_ v: SQLValue, _ st: OpaquePointer, _ i: Int32) {
  switch v {
  case .null: sqlite3_bind_null(st, i)
  case .integer(let n): sqlite3_bind_int64(st, i, n)
  case .bool(let b): sqlite3_bind_int64(st, i, b ? 1 : 0)
  case .double(let d): sqlite3_bind_double(st, i, d)
  case .text(let s):
    s.withCString { _ = sqlite3_bind_text64(st, i, $0, UInt64(strlen($0)), transientDestructor, UInt8(SQLITE_UTF8)) }
  case .blob(let d):
    d.withUnsafeBytes { _ = sqlite3_bind_blob64(st, i, $0.baseAddress, UInt64($0.count), transientDestructor) }
  }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bytes.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
private func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }
private func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

/// CPU seconds this process has used, every thread.
private func cpuSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Resident bytes of this process (`/proc/self/statm`; 0 where there is none). The data set's
/// figure is the growth while it is built, the way the issue measured peak memory.
private func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
