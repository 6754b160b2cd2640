import SiftEvaluation
import SiftLive
import SiftSyntax
import Testing

/// `sectionIndexTitles`, `sectionIndexTitle(forSectionName:)` and
/// `section(forSectionIndexTitle:at:)` (Grammar/notes/live.md, "Section index").
@Suite("Live results: section index")
struct SectionIndexTests {
  typealias Live = SiftLiveResults<SiftValue, [String: SiftValue]>

  static func live(_ cities: [SiftValue]) throws -> Live {
    let records: [[String: SiftValue]] = cities.enumerated().map { ["id": .int(Int64($0.offset)), "city": $0.element] }
    return try Live(
      records: records, ids: records.map { $0["id"] ?? .null }, predicate: nil,
      sortDescriptors: [SiftSortDescriptor("id")], sectionKeyPath: "city")
  }

  @Test func titlesAreFirstLettersUpperCasedOncePerTitle() throws {
    let live = try Self.live(["oslo", "Bergen", "Oslo", .null, "ßtadt", "Bodø", "Ålesund", "oslo"])
    #expect(live.sections.map(\.name) == ["", "Bergen", "Bodø", "Oslo", "oslo", "Ålesund", "ßtadt"])
    #expect(live.sectionIndexTitles == ["B", "O", "Å", "SS"])
    #expect(Live.sectionIndexTitle(forSectionName: "") == nil)
    #expect(Live.sectionIndexTitle(forSectionName: "émile") == "É")
  }

  @Test func aTitleLeadsToItsFirstSection() throws {
    let live = try Self.live(["oslo", "Bergen", "Oslo", "Bodø"])
    #expect(live.section(forSectionIndexTitle: "B", at: 0) == 0)
    #expect(live.section(forSectionIndexTitle: "O", at: 1) == 2)
    // A title no section has: the title at `index` in the index decides; past it, none.
    #expect(live.section(forSectionIndexTitle: "Z", at: 1) == 2)
    #expect(live.section(forSectionIndexTitle: "Z", at: 5) == nil)
  }

  @Test func titlesFollowChanges() throws {
    let live = try Self.live(["Oslo", "Bergen"])
    #expect(live.sectionIndexTitles == ["B", "O"])
    _ = try live.apply([.insert(.int(9), ["id": 9, "city": "Arendal"]), .delete(.int(1))])
    #expect(live.sectionIndexTitles == ["A", "O"])
    #expect(live.section(forSectionIndexTitle: "O", at: 1) == 1)
  }

  @Test func withoutASectionKeyPathThereIsNoIndex() throws {
    let live = try Live(records: [["id": 1]], ids: [.int(1)], predicate: nil, sortDescriptors: [])
    #expect(live.sectionIndexTitles.isEmpty)
    #expect(live.section(forSectionIndexTitle: "A", at: 0) == nil)
  }
}
