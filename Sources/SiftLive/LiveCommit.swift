import SiftEvaluation
import SiftSyntax

/// Committing a transaction: evaluate the touched records, update the sorted entries in place,
/// and work out the change set (Grammar/notes/live.md). Cost: O(k log n) comparisons for k
/// touched records among n fetched, plus O(s log n) to find the s section boundaries again.
extension SiftLiveResults {
  /// One touched id: where it was, where it is.
  struct Touch {
    var id: ID
    var old: Entry?
    var new: Entry?
    var stored: Stored?
    var oldPos = -1
    var newPos = -1
  }

  func commit(_ tx: SiftLiveTransaction<ID, Record>) throws(SiftError) -> SiftChangeSet<ID> {
    // 1. Evaluate every touched record first: an error leaves everything as it was.
    var touches: [Touch] = []
    touches.reserveCapacity(tx.touched.count)
    for id in tx.touched {
      guard let p = tx.pending[id] else { continue }
      let before = store[id]
      let old = before.flatMap { s in s.keys.map { Entry(keys: $0, seq: s.seq, id: id) } }
      var stored: Stored?
      if let r = p.record {
        stored = Stored(record: r, seq: p.seq, keys: try keys(of: r, id: id))
      }
      if before == nil && stored == nil { continue }  // inserted and deleted again
      let new = stored.flatMap { s in s.keys.map { Entry(keys: $0, seq: s.seq, id: id) } }
      touches.append(Touch(id: id, old: old, new: new, stored: stored))
    }
    // 2. Old places.
    let oldStarts = sectionStarts
    let oldSectionKeys = sectionKeys()
    for t in touches.indices {
      if let o = touches[t].old { touches[t].oldPos = lowerBound(o.keys, o.seq) }
    }
    // 3. Update the store and the sorted entries.
    for t in touches { store[t.id] = t.stored }
    nextSeq = tx.nextSeq
    let removed = touches.filter { $0.old != nil }.map(\.oldPos).sorted()
    let added = touches.compactMap(\.new).sorted(by: less)
    replace(removed, with: added)
    sectionStarts = computeSectionStarts()
    for t in touches.indices {
      if let n = touches[t].new { touches[t].newPos = lowerBound(n.keys, n.seq) }
    }
    // 4. The change set.
    return changeSet(touches, oldStarts: oldStarts, oldSectionKeys: oldSectionKeys, removed: removed)
  }

  /// The record's sort keys when it matches; nil when it does not.
  func keys(of record: Record, id: ID) throws(SiftError) -> SiftSortKeys? {
    do {
      return try keysOfRecord(record)
    } catch {
      throw SiftError.live("object \(describe(id)): \(error.diagnostic.message)", underlying: error)
    }
  }

  /// Removes the entries at `removed` (ascending offsets) and inserts `added` (sorted).
  func replace(_ removed: [Int], with added: [Entry]) {
    if removed.count + added.count <= 64 {
      for p in removed.reversed() { entries.remove(at: p) }
      for e in added { entries.insert(e, at: lowerBound(e.keys, e.seq)) }
      return
    }
    // Many changes: one merge pass.
    var out: [Entry] = []
    out.reserveCapacity(entries.count - removed.count + added.count)
    var r = 0, a = 0, i = 0
    entries.forEachElement { e in
      defer { i += 1 }
      if r < removed.count, removed[r] == i {
        r += 1
        return
      }
      while a < added.count, less(added[a], e) {
        out.append(added[a])
        a += 1
      }
      out.append(e)
    }
    out.append(contentsOf: added[a...])
    entries = ChunkedArray(out)
  }

  func less(_ a: Entry, _ b: Entry) -> Bool {
    let c = order.compare(a.keys, b.keys)
    return c != 0 ? c < 0 : a.seq < b.seq
  }

  /// The first offset whose entry is not before (keys, seq).
  func lowerBound(_ keys: SiftSortKeys, _ seq: Int) -> Int {
    var lo = 0, hi = entries.count
    while lo < hi {
      let mid = (lo + hi) / 2
      let c = order.compare(entries[mid].keys, keys)
      if c < 0 || (c == 0 && entries[mid].seq < seq) { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Where each section starts: binary search for the end of each run of equal section keys.
  func computeSectionStarts() -> [Int] {
    guard sectionKeyPath != nil else { return [0] }
    var starts: [Int] = []
    var i = 0
    while i < entries.count {
      starts.append(i)
      let key = entries[i].keys
      var lo = i + 1, hi = entries.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if order.compare(entries[mid].keys, key, prefix: 1) == 0 { lo = mid + 1 } else { hi = mid }
      }
      i = lo
    }
    return starts
  }

  /// Each section's first entry's keys (empty without a section key path).
  func sectionKeys() -> [SiftSortKeys] {
    guard sectionKeyPath != nil else { return [] }
    return sectionStarts.map { entries[$0].keys }
  }

  func indexPath(ofFlat p: Int, starts: [Int]) -> SiftIndexPath {
    var lo = 0, hi = starts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if starts[mid] <= p { lo = mid + 1 } else { hi = mid }
    }
    let s = max(0, lo - 1)
    return SiftIndexPath(section: s, item: p - (starts.isEmpty ? 0 : starts[s]))
  }
}
