import Foundation
import SiftSQL
import SiftSyntax

/// SQL compilation benchmarks: the time to turn an already parsed predicate into a
/// parameterized WHERE clause (`SQLCompiler.compileWhere`), for SQLite and PostgreSQL.
/// With `--format P --schema S --entity E`: that predicate only. Without options: a few
/// conformance predicates over `Tests/Fixtures/sql/venues.schema.json`, plus their median.
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
      emit([("name", "sql.compile"), ("dialect", .string(d.name)), ("format", .string(format)),
            ("ns_per_op", .double(r.nsPerOp)), ("ops", .int(Int64(r.ops)))])
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
  for d in dialects {
    let compiler = SQLCompiler(dialect: d, schema: schema)
    var medians: [Double] = []
    for format in formats {
      let p = try SiftPredicate(format: format)
      _ = try compiler.compileWhere(p, entity: "Venue")
      let r = measure(seconds: min(options.seconds, 0.2)) { blackHole(try? compiler.compileWhere(p, entity: "Venue")) }
      medians.append(r.nsPerOp)
      emit([("name", "sql.compile"), ("dialect", .string(d.name)), ("format", .string(format)),
            ("ns_per_op", .double(r.nsPerOp))])
    }
    medians.sort()
    emit([("name", "sql.compile.median"), ("dialect", .string(d.name)), ("cases", .int(Int64(medians.count))),
          ("ns_per_op", .double(medians[medians.count / 2])), ("worst_ns_per_op", .double(medians.last ?? 0))])
  }
}
