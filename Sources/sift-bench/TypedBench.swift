import Foundation
import SiftEvaluation
import SiftSyntax

/// `--suite typed` (issue #32): Swift's own `#Predicate` in memory, read through key paths.
/// Over 100,000 structs of six properties, in one run:
/// - `request.fetch(from:)` of a converted `#Predicate` and `SortDescriptor` against a
///   hand-written `filter` + `sorted` (budget 3×) and against Foundation's own
///   `predicate.evaluate` looped over the array, then the same `sorted` (budget 1×);
/// - a format-string predicate over the same `Encodable` structs (which must encode them)
///   against the least any `Encoder` costs (`floorEncode`, DecodeFloor.swift; budget 1.5×).
func runTypedBenchmarks(_ options: BenchOptions) throws {
  struct Note: Codable, Equatable {
    var id: Int
    var title: String
    var rating: Int
    var pinned: Bool
    var score: Double
    var createdAt: Date
  }
  let n = 100_000
  var rng = SeededRandom(seed: 32)
  let notes = (0..<n).map { i in
    Note(
      id: i + 1, title: "note \(rng.below(10_000))", rating: rng.below(6), pinned: rng.below(3) == 0,
      score: Double(rng.below(500)) / 100, createdAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(i) * 37.5))
  }
  let minimum = 3
  let predicate = #Predicate<Note> { $0.pinned && $0.rating >= minimum }
  let typed = try SiftFetchRequest(
    entity: "Note", predicate: predicate, sortBy: [SortDescriptor(\.createdAt, order: .reverse)])
  let format = SiftFetchRequest(
    entity: "Note", predicate: try SiftPredicate(format: "pinned == YES AND rating >= %@", .int(3)),
    sortDescriptors: [SiftSortDescriptor("createdAt", ascending: false)])
  func byHand() -> [Note] { notes.filter { $0.pinned && $0.rating >= 3 }.sorted { $0.createdAt > $1.createdAt } }
  func foundation() -> [Note] {
    notes.filter { (try? predicate.evaluate($0)) == true }.sorted { $0.createdAt > $1.createdAt }
  }
  let expected = byHand()
  guard try typed.fetch(from: notes) == expected, try format.fetch(from: notes) == expected,
    foundation() == expected, floorEncode(notes) == n
  else { throw BenchOptions.Failure(description: "typed: the fetches disagree") }
  let timing = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(try? typed.fetch(from: notes)) },
      { blackHole(byHand()) },
      { blackHole(foundation()) },
      { blackHole(try? format.fetch(from: notes)) },
      { blackHole(floorEncode(notes)) },
    ])
  let ms = { (i: Int) in SiftValue.double((timing.nsPerOp[i] / 1e5).rounded() / 10) }
  emit([
    ("name", "typed.memory.predicate"), ("records", .int(Int64(n))), ("selected", .int(Int64(expected.count))),
    ("sift_ms", ms(0)), ("filter_sorted_ms", ms(1)), ("foundation_ms", ms(2)),
    ("ratio_vs_filter_sorted", .double(timing.ratio(0, 1))), ("budget_filter_sorted", .double(3)),
    ("ratio_vs_foundation", .double(timing.ratio(0, 2))), ("budget_foundation", .double(1)),
  ])
  emit([
    ("name", "typed.memory.format"), ("records", .int(Int64(n))), ("sift_ms", ms(3)),
    ("encodable_floor_ms", ms(4)), ("ratio_vs_encodable_floor", .double(timing.ratio(3, 4))),
    ("budget", .double(1.5)),
  ])
}
