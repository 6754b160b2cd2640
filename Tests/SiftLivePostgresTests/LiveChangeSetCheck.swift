import SiftLive
import SiftSyntax

/// Applies a change set to the sections it started from the way a table view does (UIKit's
/// batch-update rules: deletes and moves' origins at old paths, then section inserts, then
/// inserts and moves' destinations at new paths, ascending), independently of how the change
/// set was made. `newID` gives an inserted object's id at its new path.
enum LiveChangeSetCheck {
  static func apply(
    _ cs: SiftChangeSet<SiftValue>, to old: [[SiftValue]], newID: (SiftIndexPath) -> SiftValue?
  ) -> [[SiftValue]]? {
    let removed = Set(cs.deleted + cs.moved.map(\.from))
    let deletedSections = Set(cs.sectionDeletes)
    var kept: [[SiftValue]] = []
    for (s, items) in old.enumerated() where !deletedSections.contains(s) {
      kept.append(
        items.enumerated().filter { !removed.contains(SiftIndexPath(section: s, item: $0.offset)) }.map(\.element))
    }
    let inserts = Set(cs.sectionInserts)
    var result: [[SiftValue]] = []
    var next = kept.makeIterator()
    for j in 0..<(kept.count + inserts.count) {
      if inserts.contains(j) {
        result.append([])
      } else {
        guard let s = next.next() else { return nil }
        result.append(s)
      }
    }
    var placed: [(SiftIndexPath, SiftValue)] = []
    for p in cs.inserted {
      guard let id = newID(p) else { return nil }
      placed.append((p, id))
    }
    for m in cs.moved {
      guard old.indices.contains(m.from.section), old[m.from.section].indices.contains(m.from.item) else { return nil }
      placed.append((m.to, old[m.from.section][m.from.item]))
    }
    for (p, id) in placed.sorted(by: { $0.0 < $1.0 }) {
      guard result.indices.contains(p.section), p.item <= result[p.section].count else { return nil }
      result[p.section].insert(id, at: p.item)
    }
    return result
  }
}

/// A small seeded generator (SplitMix64), so a failing run can be replayed.
struct LiveSeededRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
