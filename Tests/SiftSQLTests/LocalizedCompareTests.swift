import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// `localizedCompare:` (`.localized`) apart from `localizedStandardCompare:` (`[l]`): its
/// spellings, and memory == SQLite == PostgreSQL (Grammar/notes/fetch.md, "localizedCompare:").
@Suite("localizedCompare: sorts")
struct LocalizedCompareTests {
  static let words =
    LocalizedOrderTests.names + [
      "b", "B", "z", "Z", "ä", "ae", "-x", "_x", " x", "x", "ø", "o", "Ω", "ω", "日本", "中", "co-op", "coop", "Zoë",
      "zoe",
      "ss", "Ss", "ß", "Straße 10", "Straße 9", "file 9", "file 10", "résumé", "resume", "Résumé", "naïve", "naive",
    ]

  @Test func spellings() throws {
    let sorts = try SiftSortDescriptor.parseList(
      "a localizedCompare:, b desc [l], c localizedStandardCompare:, d caseInsensitiveCompare:, e compare:")
    #expect(sorts.map(\.comparison) == [.localized, .localizedStandard, .localizedStandard, .caseInsensitive, .binary])
    #expect(sorts[0].description == "a asc localizedCompare:")
    #expect(try SiftSortDescriptor.parseList(sorts[0].description) == [sorts[0]])
    _ = expectSiftError(id: "bad-sort-key", stage: .parse) { try SiftSortDescriptor.parseList("a localized") }
  }

  @Test func digitsAreTextNotNumbers() {
    #expect(SiftSortOrder.localized("file10", "file9") == -1)
    #expect(SiftSortOrder.localizedStandard("file10", "file9") == 1)
    #expect(SiftSortOrder.localized("a", "B") == -1 && SiftSortOrder.binary("a", "B") == 1)
    #expect(SiftSortOrder.localized("e", "é") == -1 && SiftSortOrder.localized("é", "f") == -1)
    // 0 only for equal strings: Foundation's ties go by code point.
    #expect(SiftSortOrder.localized("fine", "ﬁne") == -1 && SiftSortOrder.localized("ς", "σ") == -1)
  }

  @Test func everyEngineGivesMemorysOrder() throws {
    let engines = try FetchThreeWay(records: Self.words.map { ["name": .string($0)] } + [["name": nil], [:]])
    var requests: [SiftFetchRequest] = []
    for ascending in [true, false] {
      for nulls in [SiftSortDescriptor.NullPlacement.automatic, .first, .last] {
        requests.append(
          SiftFetchRequest(
            entity: "Thing",
            sortDescriptors: [SiftSortDescriptor("name", ascending: ascending, comparison: .localized, nulls: nulls)],
            resultType: .indices))
      }
    }
    var distinct = SiftFetchRequest(
      entity: "Thing", sortDescriptors: try SiftSortDescriptor.parseList("name desc localizedCompare:"), limit: 20,
      offset: 5, resultType: .properties(["name"]))
    distinct.returnsDistinctResults = true
    requests.append(distinct)
    DifferentialFetchTests.expectAgreement(requests.compactMap(engines.check), "words")
    // Not the standard order: the two differ on these words.
    let standard = SiftFetchRequest(
      entity: "Thing", sortDescriptors: [SiftSortDescriptor("name", comparison: .localizedStandard)],
      resultType: .indices)
    if case .rows(let a) = engines.memoryOutcome(requests[0]), case .rows(let b) = engines.memoryOutcome(standard) {
      #expect(a != b)
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomRecordsAgree(seed: UInt64) throws {
    let engines = try FetchThreeWay(records: RandomData.records(seed: seed, count: 80))
    var requests: [SiftFetchRequest] = []
    for list in [
      "name localizedCompare:", "code desc localizedCompare:, name", "place.city localizedCompare: nulls last, n",
    ] {
      requests.append(
        SiftFetchRequest(entity: "Thing", sortDescriptors: try SiftSortDescriptor.parseList(list), resultType: .indices)
      )
    }
    DifferentialFetchTests.expectAgreement(requests.compactMap(engines.check), "seed \(seed)")
  }
}
