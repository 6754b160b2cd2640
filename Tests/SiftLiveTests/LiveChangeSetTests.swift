import SiftEvaluation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive

/// Change sets for single edits, written out: NSFetchedResultsController's vocabulary and the
/// rules of Grammar/notes/live.md.
@Suite struct LiveChangeSetTests {
  typealias Live = SiftLiveResults<SiftValue, [String: SiftValue]>

  /// Venues 1…5; ratings 5, 4, 3, 2, 1 (so `rating desc` is id order); cities a, a, b, b, c.
  static func venues() -> [[String: SiftValue]] {
    (1...5).map { i in
      ["id": .int(Int64(i)), "rating": .int(Int64(6 - i)), "city": .string(["a", "a", "b", "b", "c"][i - 1])]
    }
  }

  static func live(_ format: String? = nil, sort: String = "rating desc", section: String? = nil) throws -> Live {
    let rows = venues()
    return try Live(
      records: rows, ids: rows.map { $0["id"] ?? .null }, predicate: try format.map { try SiftPredicate(format: $0) },
      sortDescriptors: try SiftSortDescriptor.parseList(sort), sectionKeyPath: section)
  }

  static func path(_ s: Int, _ i: Int) -> SiftIndexPath { SiftIndexPath(section: s, item: i) }

  func set(_ live: Live, _ id: Int64, _ changes: [String: SiftValue]) throws -> SiftChangeSet<SiftValue> {
    try live.perform { tx in try tx.update(.int(id)) { r in for (k, v) in changes { r[k] = v } } }
  }

  @Test func sortKeyChangeIsAMove() throws {
    let live = try Self.live()
    let cs = try set(live, 1, ["rating": 0])  // first → last
    #expect(cs.moved == [.init(from: Self.path(0, 0), to: Self.path(0, 4))])
    #expect(cs.updated.isEmpty && cs.inserted.isEmpty && cs.deleted.isEmpty)
    #expect(live.ids == [2, 3, 4, 5, 1])
  }

  @Test func updateKeepingTheOrderIsAnUpdateAtTheOldPath() throws {
    let live = try Self.live()
    let cs = try set(live, 3, ["rating": 2.5, "name": "x"])  // still between 2 (4) and 4 (2)
    #expect(cs.updated == [Self.path(0, 2)])
    #expect(cs.moved.isEmpty)
  }

  @Test func startingAndStoppingToMatchAreInsertAndDelete() throws {
    let live = try Self.live("rating >= 3")
    #expect(live.ids == [1, 2, 3])
    let gone = try set(live, 2, ["rating": 0])
    #expect(gone.deleted == [Self.path(0, 1)] && gone.inserted.isEmpty && gone.updated.isEmpty)
    let back = try set(live, 5, ["rating": 9])
    #expect(back.inserted == [Self.path(0, 0)] && back.deleted.isEmpty)
    #expect(live.ids == [5, 1, 3])
    let unseen = try set(live, 4, ["rating": 1])  // does not match before or after
    #expect(unseen.isEmpty)
  }

  @Test func sectionKeyChangeMovesBetweenSections() throws {
    let live = try Self.live(section: "city")
    #expect(live.sections.map(\.name) == ["a", "b", "c"])
    #expect(live.sections.map(\.ids) == [[1, 2], [3, 4], [5]])
    let cs = try set(live, 1, ["city": "b"])
    #expect(cs.moved == [.init(from: Self.path(0, 0), to: Self.path(1, 0))])
    #expect(cs.sectionDeletes.isEmpty && cs.sectionInserts.isEmpty)
    #expect(live.sections.map(\.ids) == [[2], [1, 3, 4], [5]])
  }

  @Test func aSectionThatEmptiesIsDeletedAndANewOneInserted() throws {
    let live = try Self.live(section: "city")
    // 5 leaves section c (deleted) for a new section d: a delete and an insert, not a move.
    let cs = try set(live, 5, ["city": "d"])
    #expect(cs.sectionDeletes == [2] && cs.sectionInserts == [2])
    #expect(cs.deleted == [Self.path(2, 0)] && cs.inserted == [Self.path(2, 0)] && cs.moved.isEmpty)
    #expect(live.sections.map(\.name) == ["a", "b", "d"])
    let del = try live.apply([.delete(1), .delete(2)])
    #expect(del.sectionDeletes == [0] && del.deleted == [Self.path(0, 0), Self.path(0, 1)])
    let ins = try live.apply([.insert(9, ["id": 9, "rating": 7, "city": .null])])
    #expect(ins.sectionInserts == [0] && ins.inserted == [Self.path(0, 0)])
    #expect(live.sections.map(\.name) == ["", "b", "d"])
  }

  @Test func withoutSectionKeyThereIsAlwaysOneSection() throws {
    let live = try Self.live("rating > 10")
    #expect(live.sections.count == 1 && live.sections[0].ids.isEmpty)
    let cs = try live.apply([.insert(9, ["id": 9, "rating": 11])])
    #expect(cs.sectionInserts.isEmpty && cs.inserted == [Self.path(0, 0)])
  }

  @Test func objectsWhoseRelativeOrderHeldDoNotMove() throws {
    // Swap 2 and 3 (ratings 4 and 3): one of them moves, not both; 1, 4, 5 never do.
    let live = try Self.live()
    let cs = try live.perform { tx in
      try tx.update(2) { $0["rating"] = 3 }
      try tx.update(3) { $0["rating"] = 4 }
    }
    #expect(cs.moved.count == 1)
    #expect(cs.updated.count == 1)
    #expect(live.ids == [1, 3, 2, 4, 5])
  }

  @Test func equalKeysKeepInsertionOrderAndReinsertGoesLast() throws {
    let live = try Self.live(sort: "city asc")
    #expect(live.ids == [1, 2, 3, 4, 5])
    let cs = try live.apply([.delete(1), .insert(1, ["id": 1, "city": "a"])])
    #expect(live.ids == [2, 1, 3, 4, 5])
    #expect(cs.moved == [.init(from: Self.path(0, 0), to: Self.path(0, 1))])
    #expect(try live.refetchedSections() == live.sections)
  }

  @Test func collectionDifferenceReplaysTheChange() throws {
    let live = try Self.live(section: "city")
    let before = live.ids
    let cs = try live.perform { tx in
      try tx.update(1) {
        $0["rating"] = 0; $0["city"] = "b"
      }
      try tx.delete(4)
      try tx.insert(["id": 7, "rating": 9, "city": "c"], id: 7)
    }
    #expect(before.applying(cs.difference) == live.ids)
    #expect(cs.difference.insertions.count == 2)
  }

  @Test func badEditsChangeNothing() throws {
    let live = try Self.live("rating > 1", section: "city")
    let before = live.sections
    expectSiftError(id: "live-refused", stage: .live) { try live.apply([.delete(2), .delete(99)]) }
    expectSiftError(id: "live-refused", stage: .live) { try live.apply([.insert(1, ["id": 1])]) }
    expectSiftError(id: "live-refused", stage: .live) { try live.apply([.delete(3), .update(3, [:])]) }
    // A record the predicate cannot be evaluated on (strict: comparing a string with a number).
    expectSiftError(id: "live-refused", stage: .live) { try live.apply([.delete(2), .update(3, ["rating": "high"])]) }
    #expect(live.sections == before)
    #expect(try live.refetchedSections() == before)
  }

  @Test func duplicateIdsAreRefused() throws {
    expectSiftError(id: "live-refused", stage: .live) {
      try Live(records: [[:], [:]], ids: [1, 1], predicate: nil, sortDescriptors: [])
    }
  }
}
