import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftLive

/// Random sequences of inserts, updates and deletes (seeded: a failure names its seed and step,
/// and the same seed replays it). After every transaction: the live sections equal a fresh
/// fetch; the change set, applied to the old sections by UIKit's batch-update rules, gives the
/// fresh fetch; its `CollectionDifference` replays the flat change; only touched objects
/// appear in it; and an object whose section and order relative to every other object held
/// does not move.
@Suite struct LivePropertyTests {
  typealias Live = SiftLiveResults<SiftValue, [String: SiftValue]>
  typealias Record = [String: SiftValue]

  struct Setup: Sendable, CustomStringConvertible {
    var predicate: String?
    var sort: String
    var section: String?
    var description: String { "\(predicate ?? "-") | \(sort) | \(section ?? "-")" }
  }

  static let setups: [Setup] = [
    Setup(predicate: nil, sort: "a asc", section: nil),
    Setup(predicate: "a != 2", sort: "a desc, b asc [c]", section: nil),
    Setup(predicate: "b != 'y' OR a > 1", sort: "b asc [c] nulls last", section: "g"),
    Setup(predicate: nil, sort: "g desc, a asc", section: "g"),
    Setup(predicate: "g != 'r'", sort: "d asc", section: "a"),
    Setup(predicate: nil, sort: "", section: "g"),
    Setup(predicate: "a > 0", sort: "b desc [l], d desc nulls first", section: nil),
  ]

  static func record(_ id: Int64, _ rng: inout SeededRandom) -> Record {
    var r: Record = ["id": .int(id)]
    if !rng.chance(0.15) { r["a"] = .int(Int64(rng.below(5))) }
    r["b"] = rng.pick([
      .string("x"), .string("X"), .string("y"), .string("é"), .string("file10"), .string("file9"), .null,
    ])
    r["g"] = rng.pick([.string("p"), .string("q"), .string("r"), .null])
    if rng.chance(0.8) { r["d"] = .double(Double(rng.below(7)) / 2) }
    return r
  }

  /// A random change of one to three fields.
  static func change(_ r: inout Record, _ rng: inout SeededRandom) {
    let fresh = record(0, &rng)
    for _ in 0..<rng.int(in: 1...3) {
      let k = rng.pick(["a", "b", "g", "d"])
      r[k] = fresh[k] ?? .null
    }
  }

  @Test(arguments: 0..<setups.count) func randomTransactionsMatchAFreshFetch(_ s: Int) throws {
    let setup = Self.setups[s]
    for seed in UInt64(1)...UInt64(40) {
      try run(setup, seed: seed &* 7919 &+ UInt64(s), steps: 25)
    }
  }

  /// Large results (several 512-element chunks) and large transactions (past 64 changes the
  /// entries are merged in one pass).
  @Test(arguments: [1, 3, 4]) func largeResultsAndBatches(_ s: Int) throws {
    for seed in UInt64(1)...UInt64(2) {
      try run(Self.setups[s], seed: seed, steps: 12, initial: 2500, maxEdits: 150)
    }
  }

  func run(_ setup: Setup, seed: UInt64, steps: Int, initial: Int = 20, maxEdits: Int = 5) throws {
    var rng = SeededRandom(seed: seed)
    let n = rng.below(initial)
    var nextID: Int64 = 1
    var rows: [Record] = []
    for _ in 0..<n {
      rows.append(Self.record(nextID, &rng))
      nextID += 1
    }
    let live = try Live(
      records: rows, ids: rows.map { $0["id"] ?? .null },
      predicate: try setup.predicate.map { try SiftPredicate(format: $0) },
      sortDescriptors: setup.sort.isEmpty ? [] : try SiftSortDescriptor.parseList(setup.sort),
      sectionKeyPath: setup.section)
    let where_ = "setup \(setup), seed \(seed)"
    #expect(try live.refetchedSections() == live.sections, "\(where_): initial fetch")
    for step in 0..<steps {
      let old = live.sections
      var touched = Set<SiftValue>()
      let fail = rng.chance(0.08)
      // Sorted: dictionary order differs between runs, and the seed must replay the test.
      var existing = live.storedIDs.sorted { SiftSortOrder.compare($0, $1, .binary) < 0 }
      let cs: SiftChangeSet<SiftValue>
      do {
        cs = try live.perform { tx in
          for _ in 0..<rng.int(in: 1...maxEdits) {
            let roll = rng.below(10)
            if roll < 3 || existing.isEmpty {
              let id = SiftValue.int(nextID)
              nextID += 1
              try tx.insert(Self.record(0, &rng).merging(["id": id]) { $1 }, id: id)
              existing.append(id)
              touched.insert(id)
            } else if roll < 8 {
              let id = rng.pick(existing)
              guard tx.record(for: id) != nil else { continue }
              try tx.update(id) { Self.change(&$0, &rng) }
              touched.insert(id)
            } else {
              let id = rng.pick(existing)
              guard tx.record(for: id) != nil else { continue }
              try tx.delete(id)
              touched.insert(id)
            }
          }
          if fail { try tx.delete(.string("no such id")) }
        }
      } catch {
        #expect(fail, "\(where_) step \(step): unexpected \(error)")
        #expect(live.sections == old, "\(where_) step \(step): a failed transaction changed the results")
        continue
      }
      #expect(!fail, "\(where_) step \(step): a bad edit was accepted")
      let fresh = try live.refetchedSections()
      let at = "\(where_) step \(step)"
      #expect(live.sections == fresh, "\(at): live ≠ fresh fetch")
      let replayed = try BatchUpdateOracle.apply(cs, to: old.map(\.ids), fresh: fresh.map(\.ids))
      #expect(replayed == fresh.map(\.ids), "\(at): batch update ≠ fresh fetch")
      #expect(old.flatMap(\.ids).applying(cs.difference) == fresh.flatMap(\.ids), "\(at): difference")
      checkMinimal(cs, old: old, new: fresh, touched: touched, at)
    }
  }

  /// Only touched objects appear; a touched object fetched before and after is either updated
  /// or moved; it moves only when its section or its order relative to another object changed.
  func checkMinimal(
    _ cs: SiftChangeSet<SiftValue>, old: [SiftLiveSection<SiftValue>], new: [SiftLiveSection<SiftValue>],
    touched: Set<SiftValue>, _ at: String
  ) {
    func id(_ p: SiftIndexPath, _ s: [SiftLiveSection<SiftValue>]) -> SiftValue { s[p.section].ids[p.item] }
    let oldIDs = (cs.deleted + cs.updated + cs.moved.map(\.from)).map { id($0, old) }
    let newIDs = (cs.inserted + cs.moved.map(\.to)).map { id($0, new) }
    #expect((oldIDs + newIDs).allSatisfy(touched.contains), "\(at): an untouched object changed")
    var oldPos: [SiftValue: (Int, SiftValue)] = [:], newPos: [SiftValue: (Int, SiftValue)] = [:]
    for (i, x) in old.flatMap({ s in s.ids.map { ($0, s.value) } }).enumerated() { oldPos[x.0] = (i, x.1) }
    for (i, x) in new.flatMap({ s in s.ids.map { ($0, s.value) } }).enumerated() { newPos[x.0] = (i, x.1) }
    let both = Set(oldPos.keys).intersection(newPos.keys)
    let updated = Set(cs.updated.map { id($0, old) })
    let reinserted = Set(cs.deleted.map { id($0, old) }).intersection(cs.inserted.map { id($0, new) })
    let moved = Set(cs.moved.map { id($0.from, old) }).union(reinserted)
    #expect(updated.isDisjoint(with: moved), "\(at): updated and moved")
    for t in touched.intersection(both) {
      #expect(updated.contains(t) || moved.contains(t), "\(at): \(t) changed but not reported")
    }
    for m in moved {
      guard let o = oldPos[m], let n = newPos[m] else {
        Issue.record("\(at): moved \(m) not fetched before and after")
        continue
      }
      let sectionChanged = o.1 != n.1
      let orderChanged = both.contains { x in
        guard x != m, let a = oldPos[x], let b = newPos[x] else { return false }
        return (a.0 < o.0) != (b.0 < n.0)
      }
      #expect(sectionChanged || orderChanged, "\(at): \(m) moved though its place held")
    }
  }
}
