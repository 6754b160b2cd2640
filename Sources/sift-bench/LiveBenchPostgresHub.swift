import Foundation
import SiftLive
import SiftLivePostgres
import SiftPostgres
import SiftSQL
import SiftSyntax

/// `live.postgres.hub`: the same one-watcher latency through the public API end to end —
/// `PostgresLiveHub` with `source`, `hub.refresh` delivering the watcher's change set — on the
/// table's `rating < 100` (the writer keeps updated rows inside it, so each commit shows).
func livePostgresHubLatency(
  _ bench: LivePGTable, source: any PostgresLiveChangeSource, rate: Double, seconds: Double
) throws -> LivePGStats {
  let hub = try PostgresLiveHub(conninfo: bench.conninfo, schema: bench.name.schema, source: source)
  defer { hub.close() }
  let w = try hub.watch(
    SiftFetchRequest(
      entity: bench.name.name, predicate: try SiftPredicate(format: "rating < 100"),
      sortDescriptors: [SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("id")]))
  func seqs() -> [SiftValue: Int64] {
    var out: [SiftValue: Int64] = [:]
    for id in w.results.ids {
      if case .int(let s)? = w.results.record(for: id)?["seq"] { out[id] = s }
    }
    return out
  }
  var seen = seqs()
  let targets = seen.keys.compactMap { if case .int(let i) = $0 { i } else { nil } }.sorted()
  let clock = LivePGClock(count: min(Int(rate * seconds) + 1, 99_999_999))
  let base = bench.nextBase()
  let done = bench.startWriter(clock: clock, targets: targets, rate: rate, insidePredicate: true, base: base)
  var writerDone = false
  var stats = LivePGStats()
  while true {
    if !writerDone, done.wait(timeout: .now()) == .success { writerDone = true }
    if writerDone && clock.delivered >= clock.sentCount - 1 { break }
    if writerDone, clock.sinceLastSent > 10 { break }
    let events = hub.refresh(timeout: 0.2)
    guard events.contains(where: { if case .changes = $0 { true } else { false } }) else { continue }
    stats.changeSets += 1
    for (id, s) in seqs() where s > base && seen[id] != s {
      seen[id] = s
      clock.deliver(Int(s - base))
    }
    stats.peakBacklog = max(stats.peakBacklog, clock.sentCount - clock.delivered)
  }
  let l = clock.latencies
  stats.sent = clock.sentCount - 1
  stats.delivered = clock.delivered
  stats.missing = clock.missing.count
  stats.p50 = LivePGTable.percentile(l, 0.5)
  stats.p99 = LivePGTable.percentile(l, 0.99)
  return stats
}
