import Foundation
import SiftEvaluation
import SiftLive
import SiftLivePostgres
import SiftPostgres
import SiftSQL
import SiftSyntax

/// `--suite live-postgres` (only when asked for; needs `SIFT_POSTGRES`, a server with
/// `wal_level = logical` and a role with REPLICATION): live results on PostgreSQL, push mode
/// (logical replication) against read-only polling, in one run.
///
/// A writer connection commits single-row updates (autocommit) stamped with a sequence number;
/// the reader takes what the change source reports, re-reads the changed rows by key (one
/// indexed query) or, polling, re-runs each watcher's query, and applies them to every watcher's
/// `SiftLiveResults` (predicate evaluated in memory): the change set is then delivered. Latency
/// is from the writer sending the UPDATE to that change set.
///
/// 1. `live.postgres.latency`: one watcher (`rating < 100`, ~1% of rows), `--pg-rows` rows
///    (default 1,000,000) and `--pg-small-rows` (10,000): push p50/p99 per size and their ratio;
///    polling p50/p99 with `--pg-poll` seconds against interval + 2 × the fetch's query time.
/// 2. `live.postgres.watchers`: `--pg-watchers` watchers (1,000) with different predicates on one
///    table, `--pg-rate` commits/s (100) for `--pg-seconds` (60): p50/p99, the backlog (sent −
///    delivered) at the end and its peak, and server CPU per commit (utime+stime from /proc of
///    the writer's and the reader's backends and the walsender).
func runLivePostgresBenchmarks(_ options: BenchOptions) throws {
  guard let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
    emit([("name", "live.postgres.skipped"), ("why", "SIFT_POSTGRES is not set")])
    return
  }
  let o = options.livePostgres
  var push: [Int: LivePGStats] = [:]
  for rows in [o.smallRows, o.rows] {
    let bench = try LivePGTable(conninfo: conninfo, rows: rows)
    defer { bench.close() }
    let watchers = [try LivePGWatcher(bench.db, bench.table, "rating < 100")]
    let p = try bench.run(
      source: PostgresLivePush(slot: bench.slot, tables: [bench.name]), watchers: watchers, rate: o.latencyRate,
      seconds: o.latencySeconds, insidePredicate: false)
    push[rows] = p
    var fields: [(String, SiftValue)] = [
      ("name", "live.postgres.latency"), ("rows", .int(Int64(rows))), ("push_p50_ms", .double(p.p50)),
      ("push_p99_ms", .double(p.p99)), ("push_commits", .int(Int64(p.delivered))),
      ("push_missing", .int(Int64(p.missing))),
    ]
    if rows == o.rows {
      let query = try watchers[0].queryMilliseconds(bench.db)
      let poll = try bench.run(
        source: PostgresLivePolling(interval: o.poll), watchers: watchers, rate: o.latencyRate,
        seconds: o.latencySeconds, insidePredicate: true)
      fields += [
        ("poll_interval_ms", .double(o.poll * 1000)), ("fetch_query_ms", .double(query)),
        ("poll_p50_ms", .double(poll.p50)), ("poll_p99_ms", .double(poll.p99)),
        ("poll_bound_ms", .double(o.poll * 1000 + 2 * query)), ("poll_commits", .int(Int64(poll.delivered))),
        ("poll_missing", .int(Int64(poll.missing))),
      ]
    }
    if rows == o.rows {
      let push = try livePostgresHubLatency(
        bench, source: PostgresLivePush(slot: bench.slot, tables: [bench.name]), rate: o.latencyRate,
        seconds: o.latencySeconds)
      let poll = try livePostgresHubLatency(
        bench, source: PostgresLivePolling(interval: o.poll), rate: o.latencyRate, seconds: o.latencySeconds)
      emit([
        ("name", "live.postgres.hub"), ("rows", .int(Int64(rows))), ("push_p50_ms", .double(push.p50)),
        ("push_p99_ms", .double(push.p99)), ("push_missing", .int(Int64(push.missing))),
        ("poll_p50_ms", .double(poll.p50)), ("poll_p99_ms", .double(poll.p99)),
        ("poll_missing", .int(Int64(poll.missing))),
      ])
    }
    emit(fields)
  }
  if let small = push[o.smallRows], let large = push[o.rows] {
    emit([
      ("name", "live.postgres.size"), ("small_rows", .int(Int64(o.smallRows))), ("rows", .int(Int64(o.rows))),
      ("small_p50_ms", .double(small.p50)), ("p50_ms", .double(large.p50)),
      ("ratio", .double(large.p50 / max(small.p50, 1e-9))),
    ])
  }
  let bench = try LivePGTable(conninfo: conninfo, rows: o.rows)
  defer { bench.close() }
  var rng = SeededRandom(seed: 33)
  var watchers: [LivePGWatcher] = []
  for _ in 0..<o.watchers {
    let low = rng.below(10_000)
    watchers.append(try LivePGWatcher(bench.db, bench.table, "rating >= \(low) AND rating < \(low + 1 + rng.below(3))"))
  }
  let s = try bench.run(
    source: PostgresLivePush(slot: bench.slot, tables: [bench.name]), watchers: watchers, rate: o.rate,
    seconds: o.seconds, insidePredicate: false)
  emit([
    ("name", "live.postgres.watchers"), ("rows", .int(Int64(o.rows))), ("watchers", .int(Int64(o.watchers))),
    ("rate", .double(o.rate)), ("seconds", .double(o.seconds)), ("sent", .int(Int64(s.sent))),
    ("delivered", .int(Int64(s.delivered))), ("missing", .int(Int64(s.missing))), ("p50_ms", .double(s.p50)),
    ("p99_ms", .double(s.p99)),
    ("p99_first_third_ms", .double(s.p99First)), ("p99_last_third_ms", .double(s.p99Last)),
    ("backlog_end", .int(Int64(s.sent - s.delivered))), ("backlog_peak", .int(Int64(s.peakBacklog))),
    ("change_sets", .int(Int64(s.changeSets))), ("server_cpu_ms_per_commit", .double(s.serverCPUms)),
  ])
}

/// What one run measured.
struct LivePGStats {
  var sent = 0
  var delivered = 0
  var p50 = 0.0
  var p99 = 0.0
  var p99First = 0.0
  var p99Last = 0.0
  var peakBacklog = 0
  var changeSets = 0
  var serverCPUms = 0.0
  /// Commits sent and never delivered (a silent gap: must be 0).
  var missing = 0
}

/// One watcher: its predicate (in memory and as SQL) and its live results over the rows it matches.
final class LivePGWatcher {
  let matcher: SiftMatcher
  let sql: String
  let predicate: SiftPredicate
  var live: SiftLiveResults<Int64, SiftObject>

  init(_ db: PostgresDatabase, _ table: String, _ condition: String) throws {
    predicate = try SiftPredicate(format: condition)
    matcher = try predicate.compile()
    sql = "SELECT id, rating, name, seq FROM \(table) WHERE \(condition.replacingOccurrences(of: "==", with: "="))"
    live = try SiftLiveResults(records: [], ids: [], predicate: predicate, sortDescriptors: Self.sorts)
    try reload(db)
  }

  static let sorts = [SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("id")]

  /// Runs the watcher's query again and rebuilds its results (what polling does).
  @discardableResult
  func reload(_ db: PostgresDatabase) throws -> [Int64: SiftObject] {
    let rows = try LivePGTable.fetchRows(db, sql, [])
    live = try SiftLiveResults(
      records: Array(rows.values), ids: Array(rows.keys), predicate: predicate, sortDescriptors: Self.sorts)
    return rows
  }

  func queryMilliseconds(_ db: PostgresDatabase) throws -> Double {
    var samples: [Double] = []
    for _ in 0..<7 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      _ = try LivePGTable.fetchRows(db, sql, [])
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    return samples.sorted()[samples.count / 2]
  }

  /// The change set for rows re-read by key (nil: the row is gone).
  func apply(_ rows: [Int64: SiftObject?]) throws -> SiftChangeSet<Int64>? {
    var edits: [SiftLiveEdit<Int64, SiftObject>] = []
    for (id, row) in rows {
      let held = live.record(for: id) != nil
      switch (row, held) {
      case (let r?, true): edits.append(.update(id, r))
      case (let r?, false): if try matcher.matches(r) { edits.append(.insert(id, r)) }
      case (nil, true): edits.append(.delete(id))
      case (nil, false): break
      }
    }
    return edits.isEmpty ? nil : try live.apply(edits)
  }
}
