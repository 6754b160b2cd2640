import SiftEvaluation

/// From the touched objects' old and new places to a change set (Grammar/notes/live.md).
///
/// Untouched objects never move: their sort keys did not change, so their order among
/// themselves did not either. A touched object that is fetched before and after stays put
/// when it sits between the same untouched neighbours, in the same section, and belongs to a
/// longest run of such objects whose order among themselves held; every other one moves.
/// That is the fewest moves that leave the untouched objects in place, and an object whose
/// order relative to every other object held never moves.
extension SiftLiveResults {
  func changeSet(_ touches: [Touch], oldStarts: [Int], oldSectionKeys: [SiftSortKeys], removed: [Int]) -> SiftChangeSet<
    ID
  > {
    var cs = SiftChangeSet<ID>()
    // Sections: matched by section key; the rest deleted or inserted.
    var oldToNew: [Int?] = [0]
    var newMatched: [Bool] = [true]
    if sectionKeyPath != nil {
      let newKeys = sectionKeys()
      oldToNew = Array(repeating: nil, count: oldSectionKeys.count)
      newMatched = Array(repeating: false, count: newKeys.count)
      var i = 0, j = 0
      while i < oldSectionKeys.count, j < newKeys.count {
        let c = order.compare(oldSectionKeys[i], newKeys[j], prefix: 1)
        if c == 0 {
          oldToNew[i] = j
          newMatched[j] = true
          i += 1
          j += 1
        } else if c < 0 {
          i += 1
        } else {
          j += 1
        }
      }
      cs.sectionDeletes = oldToNew.indices.filter { oldToNew[$0] == nil }
      cs.sectionInserts = newMatched.indices.filter { !newMatched[$0] }
    }
    // Objects fetched before and after: which of them keep their place.
    let added = touches.filter { $0.new != nil }.map(\.newPos).sorted()
    var groups: [Int: [Int]] = [:]  // gap among untouched objects → touches
    var stays = Array(repeating: false, count: touches.count)
    for (t, touch) in touches.enumerated() where touch.old != nil && touch.new != nil {
      let gapOld = touch.oldPos - Self.rank(touch.oldPos, in: removed)
      let gapNew = touch.newPos - Self.rank(touch.newPos, in: added)
      let from = indexPath(ofFlat: touch.oldPos, starts: oldStarts)
      let to = indexPath(ofFlat: touch.newPos, starts: sectionStarts)
      if gapOld == gapNew, oldToNew[from.section] == to.section { groups[gapOld, default: []].append(t) }
    }
    for (_, members) in groups {
      let byOld = members.sorted { touches[$0].oldPos < touches[$1].oldPos }
      for i in Self.longestIncreasing(byOld.map { touches[$0].newPos }) { stays[byOld[i]] = true }
    }
    // The lists.
    for (t, touch) in touches.enumerated() {
      switch (touch.old != nil, touch.new != nil) {
      case (true, true):
        let from = indexPath(ofFlat: touch.oldPos, starts: oldStarts)
        let to = indexPath(ofFlat: touch.newPos, starts: sectionStarts)
        if stays[t] {
          cs.updated.append(from)
        } else if oldToNew[from.section] == nil || !newMatched[to.section] {
          // UIKit refuses moves out of a deleted section or into an inserted one.
          cs.deleted.append(from)
          cs.inserted.append(to)
          cs.removals.append((touch.oldPos, touch.id, nil))
          cs.insertions.append((touch.newPos, touch.id, nil))
        } else {
          cs.moved.append(SiftChangeSet.Move(from: from, to: to))
          cs.removals.append((touch.oldPos, touch.id, touch.newPos))
          cs.insertions.append((touch.newPos, touch.id, touch.oldPos))
        }
      case (true, false):
        cs.deleted.append(indexPath(ofFlat: touch.oldPos, starts: oldStarts))
        cs.removals.append((touch.oldPos, touch.id, nil))
      case (false, true):
        cs.inserted.append(indexPath(ofFlat: touch.newPos, starts: sectionStarts))
        cs.insertions.append((touch.newPos, touch.id, nil))
      case (false, false):
        break
      }
    }
    cs.normalize()
    return cs
  }

  /// How many of `sorted` are below `p`.
  static func rank(_ p: Int, in sorted: [Int]) -> Int {
    var lo = 0, hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < p { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// The indices of one longest strictly increasing subsequence of `values` (O(m log m)).
  static func longestIncreasing(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // index of the smallest tail of each length
    var previous = Array(repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
      var lo = 0, hi = tails.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
      }
      if lo > 0 { previous[i] = tails[lo - 1] }
      if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var out: [Int] = []
    var i = tails.last ?? -1
    while i >= 0 {
      out.append(i)
      i = previous[i]
    }
    return out.reversed()
  }
}
