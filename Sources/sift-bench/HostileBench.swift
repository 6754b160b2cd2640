import Foundation
import SiftColumnar
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
@_spi(Bench) import SiftSyntax

/// `--suite hostile`: the slow cases of issue 23 ("Filters from untrusted clients") over
/// `--records` records (default here 100,000), each run once in memory, SQLite and (with
/// `SIFT_POSTGRES`) PostgreSQL: the seconds, and the number of matches or the error id.
/// Then `hostile.in_columns`: IN a 150,000-element list over the records as columns, against
/// one equality (`in_vs_equality`). Then MATCHES on ordinary patterns: the linear-time automaton against ICU (the matcher
/// before it), as a ratio (≤ 1.2 wanted).
func runHostileBenchmarks(_ options: BenchOptions) throws {
  let n = options.records == 1_000_000 ? 100_000 : options.records
  let records: [SiftValue] = (0..<n).map { i in
    let code = String(repeating: "a", count: 20 + i % 10) + (i % 3 == 0 ? "123" : "b")
    let name = ["Blue bar", "Red cafe", "Green \(i % 100)", "Cafe \(i)"][i % 4]
    return .dictionary([
      "id": .int(Int64(i)), "qty": .int(Int64(i % 997)), "name": .string(name), "code": .string(code),
      "label": .string("n\(i)"), "xs": [1, 2],
    ])
  }
  let schema = try SQLSchema(
    json: #"""
      {"entities": {"item": {"table": "item", "primaryKey": "id", "attributes": {
        "id": "integer", "qty": "integer", "name": "string", "code": "string", "label": "string", "xs": "integerArray"}}}}
      """#)
  let memory = try JSONRecords.records(from: .array(records))
  let sqlite = try SQLiteDatabase()
  try sqlite.load(records, entity: "item", schema: schema, dialect: SQLiteDialect())
  let sqliteCompiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
  var postgres: PostgresDatabase?
  if let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !info.isEmpty {
    let pg = try PostgresDatabase.prepared(conninfo: info, schema: .temporary(prefix: "sift_hostile"))
    try pg.load(records, entity: "item", schema: schema, dialect: PostgreSQLDialect())
    postgres = pg
  }
  defer { postgres?.close() }
  let pgCompiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)

  var nested = "$x20 == 1"
  for level in stride(from: 20, through: 1, by: -1) { nested = "SUBQUERY(xs, $x\(level), \(nested)).@count > 0" }
  let cases: [(String, SiftPredicate)] = [
    ("nested-quantifier regex", try SiftPredicate(format: "code MATCHES '(a+)+b|a+[0-9]+'")),
    ("20 nested SUBQUERYs", try SiftPredicate(format: nested)),
    (
      "10,000 ORed string equalities",
      try SiftPredicate(format: (0..<10_000).map { "label == 'n\($0 * 7)'" }.joined(separator: " OR "))
    ),
    (
      "IN with 150,000 values",
      try SiftPredicate(format: "qty IN %@", arguments: [.array((0..<150_000).map { .int(Int64($0 * 3)) })])
    ),
    (
      "1,000-term OR",
      try SiftPredicate(
        format: (0..<1000).map { $0 % 2 == 0 ? "qty == \($0)" : "label == 'n\($0)'" }.joined(separator: " OR "))
    ),
  ]
  func timed(_ body: () throws -> Int) -> (Double, SiftValue) {
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome: SiftValue
    do { outcome = .int(Int64(try body())) } catch {
      outcome = .string((error as? SiftError)?.diagnostic.id ?? "\(error)")
    }
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, outcome)
  }
  for (label, p) in cases {
    var engines: [(String, () throws -> Int)] = [
      ("memory", { try p.compile().matchingIndices(memory).count }),
      ("sqlite", { try sqlite.execute(try sqliteCompiler.compileMatchingIndices(p, entity: "item")).count }),
    ]
    if let postgres {
      engines.append(
        ("postgresql", { try postgres.execute(try pgCompiler.compileMatchingIndices(p, entity: "item")).count }))
    }
    for (engine, run) in engines {
      let (seconds, outcome) = timed(run)
      emit([
        ("name", "hostile"), ("case", .string(label)), ("engine", .string(engine)), ("records", .int(Int64(n))),
        ("seconds", .double(seconds)), (outcome.kindName == "integer" ? "matches" : "error", outcome),
      ])
    }
  }

  // IN a long list over columns (issue 35: an OR of one kernel per element, 46 s for 150,000
  // integers over 100,000 records): one set lookup a row. Each query, planning included (the
  // list hashed once a query), against the row evaluator's hashed list over the same records
  // (`columns_vs_rows`) and one equality kernel (`in_vs_equality`). Strings too, with [c].
  do {
    let columns = try SiftColumnarRecords(values: records)
    let ints = SiftValue.array((0..<150_000).map { .int(Int64($0 * 3)) })
    let names = SiftValue.array((0..<150_000).map { .string("N\($0 * 3)") })
    for (label, list, equal) in [
      (
        "qty IN 150,000 integers", try SiftPredicate(format: "qty IN %@", arguments: [ints]),
        try SiftPredicate(format: "qty == 3")
      ),
      (
        "label IN[c] 150,000 strings", try SiftPredicate(format: "label IN[c] %@", arguments: [names]),
        try SiftPredicate(format: "label ==[c] 'N3'")
      ),
    ] {
      let inList = try list.compile()
      let single = try equal.compile()
      let expected = try inList.matchingIndices(memory).count
      guard try inList.count(columns) == expected, inList.columnarFallback(for: columns) == nil else {
        throw BenchOptions.Failure(description: "\(label): columns disagree with rows or ran on rows")
      }
      let t = InterleavedTiming(
        seconds: min(options.seconds, 1),
        [
          { blackHole(try? inList.count(columns)) }, { blackHole(try? single.count(columns)) },
          { blackHole(try? inList.matchingIndices(memory)) },
        ])
      emit([
        ("name", "hostile.in_columns"), ("case", .string(label)), ("records", .int(Int64(n))),
        ("matches", .int(Int64(expected))), ("seconds", .double(t.nsPerOp[0] / 1e9)),
        ("rows_seconds", .double(t.nsPerOp[2] / 1e9)), ("columns_vs_rows", .double(t.ratio(0, 2))),
        ("in_vs_equality", .double(t.ratio(0, 1))),
      ])
    }
  }

  // Before the automaton: ICU under its per-row step budget, on the first 300 rows of the
  // nested-quantifier case, extrapolated to all rows; rows it answered "no match" because the
  // budget ran out are the silent wrong answers.
  do {
    let r = try RegexPattern("(a+)+b|a+[0-9]+")
    let sample = records.prefix(300).compactMap { v -> String? in
      if case .dictionary(let d) = v, case .string(let s)? = d["code"] { return s }
      return nil
    }
    var exhausted = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for s in sample where (try? r.backtrackingMatchForBench(s)) == nil { exhausted += 1 }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    emit([
      ("name", "hostile.before"), ("case", "nested-quantifier regex"), ("engine", "ICU, step budget per row"),
      ("sample", .int(Int64(sample.count))),
      ("seconds_extrapolated", .double(seconds * Double(n) / Double(sample.count))),
      ("budget_exhausted_in_sample", .int(Int64(exhausted))),
    ])
  }

  // Ordinary patterns: the automaton (what MATCHES runs now) against ICU (what it ran).
  let subjects = records.prefix(2_000).compactMap { r -> String? in
    if case .dictionary(let d) = r, case .string(let s)? = d["name"] { return s }
    return nil
  }
  for pattern in ["[A-Z][a-z]+ [0-9]+", "(Blue|Red) .*", ".*cafe", #"\w+ \d{1,3}"#, "Cafe [0-9]{2,5}", "[^ ]+ [a-z]+"] {
    let r = try RegexPattern(pattern)
    let t = InterleavedTiming(
      seconds: min(options.seconds, 0.3),
      [
        {
          var k = 0; for s in subjects where (try? r.match(s)) == true { k += 1 }; blackHole(k)
        },
        {
          var k = 0; for s in subjects where (try? r.backtrackingMatchForBench(s)) == true { k += 1 }; blackHole(k)
        },
      ])
    emit([
      ("name", "hostile.regex"), ("pattern", .string(pattern)), ("linear", .bool(r.isLinearForBench)),
      ("automaton_ns_per_match", .double(t.nsPerOp[0] / Double(subjects.count))),
      ("icu_ns_per_match", .double(t.nsPerOp[1] / Double(subjects.count))), ("ratio_vs_icu", .double(t.ratio(0, 1))),
    ])
  }
}
