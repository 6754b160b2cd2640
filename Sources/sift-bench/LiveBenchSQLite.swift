import Foundation
import SiftLiveSQLite
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `--suite live`, SQLite half: a table of 200,000 rows watched by `SQLiteLiveTable`. One round
/// changes one row with plain SQL on the watched connection and calls `refresh()` (the update
/// hook names the row; only it is read again); the other changes one row the same way and runs
/// the fetch again (`SELECT id … ORDER BY`, the statement Sift compiles for the request) and diffs
/// the ids, which is what a program without live results would do. Interleaved on one
/// connection; each refresh also applies the other round's row (two changed rows).
func runLiveSQLiteBenchmarks(_ options: BenchOptions) throws {
  let n = 200_000
  let db = try SQLiteDatabase()
  try db.executeScript("CREATE TABLE venue (id INTEGER PRIMARY KEY, rating INTEGER NOT NULL, name TEXT NOT NULL)")
  var rng = SeededRandom(seed: 15)
  try db.executeScript("BEGIN")
  for i in 0..<n {
    _ = try db.execute(
      SQLStatement(
        sql: "INSERT INTO venue (id, rating, name) VALUES (?, ?, ?)",
        bindings: [.integer(Int64(i)), .integer(Int64(rng.below(10_000))), .text("v\(i % 977)")]))
  }
  try db.executeScript("COMMIT")
  let predicate = try SiftPredicate(format: "rating >= 0")
  let sorts = try SiftSortDescriptor.parseList("rating desc, name asc")
  let t0 = DispatchTime.now().uptimeNanoseconds
  let live = try SQLiteLiveTable(database: db, table: "venue", predicate: predicate, sortDescriptors: sorts)
  let buildNs = Double(DispatchTime.now().uptimeNanoseconds - t0)

  let schema = try SQLSchema(
    json:
      #"{"entities": {"Venue": {"table": "venue", "attributes": {"id": "integer", "rating": "integer", "name": "string"}}}}"#
  )
  let request = SiftFetchRequest(
    entity: "Venue", predicate: predicate, sortDescriptors: sorts, resultType: .properties(["id"]))
  let fetch = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compile(request)
  func ids() throws -> [SQLValue] { try db.execute(fetch).map { $0.first ?? .null } }
  var fetched = try ids()
  func update() throws {
    _ = try db.execute(
      SQLStatement(
        sql: "UPDATE venue SET rating = ? WHERE id = ?",
        bindings: [.integer(Int64(rng.below(10_000))), .integer(Int64(rng.below(n)))]))
  }
  var changed = 0
  let t = InterleavedTiming(
    seconds: options.seconds,
    [
      {
        try? update()
        changed += (try? live.refresh())?.map { $0.moved.count + $0.updated.count } ?? 0
      },
      {
        try? update()
        guard let again = try? ids() else { return }
        blackHole(again.difference(from: fetched))
        fetched = again
      },
    ])
  emit([
    ("name", "live.sqlite.update"), ("records", .int(Int64(n))), ("fetched", .int(Int64(live.results.count))),
    ("build_ms", .double(buildNs / 1e6)), ("live_ns", .double(t.nsPerOp[0])), ("requery_ns", .double(t.nsPerOp[1])),
    ("ratio_vs_requery", .double(t.ratio(0, 1))), ("full_rereads", .int(Int64(live.fullRereads))),
    ("changes", .int(Int64(changed))),
  ])
}
