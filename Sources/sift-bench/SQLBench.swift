import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// SQL compilation benchmarks: the time to turn an already parsed predicate into a
/// parameterized WHERE clause (`SQLCompiler.compileWhere`), for SQLite and PostgreSQL.
/// With `--format P --schema S --entity E`: that predicate only. Without options: a few
/// conformance predicates over `Tests/Fixtures/sql/venues.schema.json`, each timed against
/// SQLite preparing the statement it compiles to, plus their medians.
func runSQLBenchmarks(_ options: BenchOptions) throws {
  let defaultSchema = BenchOptions.fixturesDirectory.deletingLastPathComponent()
    .appendingPathComponent("sql/venues.schema.json")
  let schemaURL = options.schema.map { URL(fileURLWithPath: $0) } ?? defaultSchema
  let schema = try SQLSchema(json: String(contentsOf: schemaURL, encoding: .utf8))
  let dialects: [any SQLDialect] = [SQLiteDialect(), PostgreSQLDialect()]

  if let format = options.format {
    guard let entity = options.entity else { throw BenchOptions.Failure(description: "--schema needs --entity E") }
    let p = try SiftPredicate(format: format, arguments: options.arguments)
    for d in dialects {
      let compiler = SQLCompiler(dialect: d, schema: schema)
      _ = try compiler.compileWhere(p, entity: entity)
      let r = measure(seconds: options.seconds) { blackHole(try? compiler.compileWhere(p, entity: entity)) }
      emit([
        ("name", "sql.compile"), ("dialect", .string(d.name)), ("format", .string(format)),
        ("ns_per_op", .double(r.nsPerOp)), ("ops", .int(Int64(r.ops))),
      ])
    }
    return
  }

  let formats = [
    "priceCategory == \"$$\"", "name BEGINSWITH[c] \"blue\"", "distance < 5 AND favorite == YES",
    "rating != nil AND rating > 4.5", "priceCategory IN {\"$\", \"$$\"}", "ANY tags == \"vegan\"",
    "location.city ==[cd] \"zurich\"", "menu.@avg.price > 30",
    "SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0",
    "(specialCount > 5 OR favorite == YES) AND distance < 5",
  ]
  // The baseline, in the same process and interleaved with compiling (`InterleavedTiming`):
  // SQLite preparing a statement built on the compiled WHERE (the count fetch request;
  // `SQLiteDatabase.check`: prepare and finalize, no run), the step every SQLite query takes
  // after compiling. Ratios below 1 mean compiling costs less than SQLite's own parse.
  let database = try SQLiteDatabase()
  try database.createTables(schema, dialect: SQLiteDialect())
  let sqlite = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
  let postgres = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
  var rows: [(sqlite: Double, postgres: Double, prepare: Double, ratio: Double)] = []
  for format in formats {
    let p = try SiftPredicate(format: format)
    let statement = try sqlite.compile(SiftFetchRequest(entity: "Venue", predicate: p, resultType: .count))
    _ = try postgres.compileWhere(p, entity: "Venue")
    try database.check(statement)
    let t = InterleavedTiming(
      seconds: min(options.seconds, 0.2),
      [
        { blackHole(try? sqlite.compileWhere(p, entity: "Venue")) },
        { blackHole(try? postgres.compileWhere(p, entity: "Venue")) },
        { blackHole(try? database.check(statement)) },
      ])
    rows.append((t.nsPerOp[0], t.nsPerOp[1], t.nsPerOp[2], t.ratio(0, 2)))
    emit([
      ("name", "sql.compile"), ("format", .string(format)), ("sqlite_ns", .double(t.nsPerOp[0])),
      ("postgresql_ns", .double(t.nsPerOp[1])), ("sqlite_prepare_ns", .double(t.nsPerOp[2])),
      ("ratio_vs_prepare", .double(t.ratio(0, 2))),
    ])
  }
  // The medians over the cases, each column on its own; worst: the slowest case.
  let median = InterleavedTiming.median
  emit([
    ("name", "sql.compile.median"), ("cases", .int(Int64(rows.count))),
    ("sqlite_ns", .double(median(rows.map(\.sqlite)))), ("postgresql_ns", .double(median(rows.map(\.postgres)))),
    ("sqlite_prepare_ns", .double(median(rows.map(\.prepare)))),
    ("ratio_vs_prepare", .double(median(rows.map(\.ratio)))),
    ("worst_sqlite_ns", .double(rows.map(\.sqlite).max() ?? 0)),
    ("worst_postgresql_ns", .double(rows.map(\.postgres).max() ?? 0)),
  ])
}
