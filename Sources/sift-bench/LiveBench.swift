import Foundation
import SiftEvaluation
import SiftLive
import SiftSyntax

/// `--suite live` (only when asked for: it builds a million records): one update among
/// 1,000,000 fetched records through `SiftLiveResults` (binary search, no re-fetch) against what
/// one would do without it — store the change, fetch again (`SiftFetchRequest`, filter and sort
/// all records) and diff the old and new ids (`CollectionDifference`). Interleaved rounds; the
/// ratio is live time over re-fetch time (smaller is better).
func runLiveBenchmarks(_ options: BenchOptions) throws {
  let n = 1_000_000
  var rng = SeededRandom(seed: 15)
  var records: [SiftObject] = []
  records.reserveCapacity(n)
  for i in 0..<n {
    records.append(
      SiftObject(["id": .int(Int64(i)), "rating": .int(Int64(rng.below(10_000))), "name": .string("v\(i % 977)")]))
  }
  let ids = (0..<n).map { SiftValue.int(Int64($0)) }
  let predicate = try SiftPredicate(format: "rating >= 0")
  let sorts = try SiftSortDescriptor.parseList("rating desc, name asc")
  let t0 = DispatchTime.now().uptimeNanoseconds
  let live = try SiftLiveResults(records: records, ids: ids, predicate: predicate, sortDescriptors: sorts)
  let buildNs = Double(DispatchTime.now().uptimeNanoseconds - t0)

  // Both sides apply the same stream of updates: record j gets a new rating.
  var liveRng = SeededRandom(seed: 1), fetchRng = SeededRandom(seed: 1)
  func nextUpdate(_ rng: inout SeededRandom) -> (Int, SiftObject) {
    let j = rng.below(n)
    return (
      j, SiftObject(["id": .int(Int64(j)), "rating": .int(Int64(rng.below(10_000))), "name": .string("v\(j % 977)")])
    )
  }
  var moved = 0
  let request = SiftFetchRequest(entity: "Venue", predicate: predicate, sortDescriptors: sorts)
  var fetched = try request.matchingIndices(in: records)
  let t = InterleavedTiming(
    seconds: options.seconds,
    [
      {
        let (j, record) = nextUpdate(&liveRng)
        let changes = try? live.apply([.update(.int(Int64(j)), record)])
        moved += changes?.moved.count ?? 0
      },
      {
        let (j, record) = nextUpdate(&fetchRng)
        records[j] = record
        guard let again = try? request.matchingIndices(in: records) else { return }
        blackHole(again.difference(from: fetched))
        fetched = again
      },
    ])
  emit([
    ("name", "live.update"), ("records", .int(Int64(n))), ("fetched", .int(Int64(live.count))),
    ("sort", .string(sorts.map(\.description).joined(separator: ", "))),
    ("build_ms", .double(buildNs / 1e6)), ("live_ns", .double(t.nsPerOp[0])), ("refetch_ns", .double(t.nsPerOp[1])),
    ("ratio_vs_refetch", .double(t.ratio(0, 1))), ("speedup_vs_refetch", .double(t.ratio(1, 0))),
    ("moves", .int(Int64(moved))),
  ])
}
