import SiftSyntax

@testable import SiftLive

/// UIKit's batch-update rules (`performBatchUpdates`), as a checker: deletes (sections and
/// rows) and move origins refer to the old data, inserts and move destinations to the new;
/// a row may not be in two of deleted / moved-from / updated; no move out of a deleted section
/// or into an inserted one. `apply` rebuilds the new ids from the old ones and the change set
/// alone (inserted rows are read from `fresh`, as a table view asks its data source).
enum BatchUpdateOracle {
  struct Violation: Error, CustomStringConvertible { var description: String }

  static func apply<ID: Hashable>(_ cs: SiftChangeSet<ID>, to old: [[ID]], fresh: [[ID]]) throws -> [[ID]] {
    func fail(_ m: String) -> Violation { Violation(description: m) }
    func valid(_ p: SiftIndexPath, in sections: [[ID]]) -> Bool {
      sections.indices.contains(p.section) && sections[p.section].indices.contains(p.item)
    }
    let deletedSections = Set(cs.sectionDeletes)
    let insertedSections = Set(cs.sectionInserts)
    guard deletedSections.count == cs.sectionDeletes.count, insertedSections.count == cs.sectionInserts.count,
      cs.sectionDeletes.allSatisfy({ old.indices.contains($0) })
    else { throw fail("bad section indices") }
    var seen = Set<SiftIndexPath>()
    for p in cs.deleted + cs.moved.map(\.from) + cs.updated {
      guard valid(p, in: old) else { throw fail("old index path \(p) out of range") }
      guard seen.insert(p).inserted else { throw fail("old index path \(p) used twice") }
    }
    for m in cs.moved where deletedSections.contains(m.from.section) { throw fail("move out of deleted section \(m)") }
    for p in cs.updated where deletedSections.contains(p.section) { throw fail("update in deleted section \(p)") }
    // Remove.
    let gone = Set(cs.deleted + cs.moved.map(\.from))
    var survivors: [[ID?]] = []
    for (s, items) in old.enumerated() where !deletedSections.contains(s) {
      survivors.append(items.indices.filter { !gone.contains(SiftIndexPath(section: s, item: $0)) }.map { items[$0] })
    }
    // Insert sections.
    let newCount = old.count - deletedSections.count + insertedSections.count
    guard cs.sectionInserts.allSatisfy({ (0..<newCount).contains($0) }) else {
      throw fail("inserted section out of range")
    }
    var result: [[ID?]] = []
    var next = 0
    for s in 0..<newCount {
      if insertedSections.contains(s) {
        result.append([])
      } else {
        guard next < survivors.count else { throw fail("section count mismatch") }
        result.append(survivors[next])
        next += 1
      }
    }
    guard next == survivors.count else { throw fail("section count mismatch") }
    // Insert rows and move destinations, ascending.
    let moveTo = Dictionary(
      cs.moved.map { ($0.to, old[$0.from.section][$0.from.item]) }, uniquingKeysWith: { a, _ in a })
    guard moveTo.count == cs.moved.count else { throw fail("two moves to one index path") }
    for m in cs.moved where insertedSections.contains(m.to.section) { throw fail("move into inserted section \(m)") }
    guard Set(cs.inserted + cs.moved.map(\.to)).count == cs.inserted.count + cs.moved.count else {
      throw fail("new index path used twice")
    }
    let targets = (cs.inserted.map { ($0, true) } + cs.moved.map { ($0.to, false) }).sorted { $0.0 < $1.0 }
    for (p, isInsert) in targets {
      guard result.indices.contains(p.section), p.item <= result[p.section].count else {
        throw fail("new index path \(p) out of range")
      }
      result[p.section].insert(isInsert ? nil : moveTo[p], at: p.item)
    }
    // Inserted rows: the data source's ids.
    guard result.map(\.count) == fresh.map(\.count) else {
      throw fail("row counts \(result.map(\.count)) ≠ \(fresh.map(\.count))")
    }
    return result.enumerated().map { s, items in items.enumerated().map { r, id in id ?? fresh[s][r] } }
  }
}
