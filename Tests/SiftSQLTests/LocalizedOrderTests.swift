import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import Testing

/// `.localizedStandard` sorts give one order on every engine (issue #35, item 10; the known gap
/// `postgres-localized-order` retired): memory and SQLite compare with
/// `SiftSortOrder.localizedStandard`, PostgreSQL sorts by `sift.sift_localized_key`.
@Suite("Localized order: memory == SQLite == PostgreSQL")
struct LocalizedOrderTests {
  /// What ICU's root collation alone (the old `sift_localized`) ordered unlike memory:
  /// compatibility characters, the final sigma, leading zeros; with case and accents around them.
  static let names: [String] = [
    "1", "01", "001", "1x", "01x", "1X", "01X", "x1", "x01", "X1", "X01", "file9", "file10", "File9", "file01",
    "ﬁne", "fine", "FINE", "Fine", "ﬁx", "fiX", "Ǆemal", "ǅemal", "ǆemal", "DŽemal", "Dž", "dž", "σ", "ς", "Σ",
    "Café ς", "Café Σ", "café σ", "é", "e", "E", "É", "straße", "STRASSE", "strasse", "Ａ", "a", "A", "½", "1⁄2",
    "", " ", "a b", "ab", "a-b", "①", "ⅻ", "XII", "x 01", "x 1", "_10", "_010", "2.5", "2.05", "10", "9",
  ]

  static let sorted = SiftFetchRequest(
    entity: "Thing", sortDescriptors: [SiftSortDescriptor("name", comparison: .localizedStandard)],
    resultType: .indices)

  @Test func everyEngineGivesMemorysOrder() throws {
    let engines = try FetchThreeWay(records: Self.names.map { ["name": .string($0)] })
    for r in [
      Self.sorted,
      SiftFetchRequest(
        entity: "Thing",
        sortDescriptors: [SiftSortDescriptor("name", ascending: false, comparison: .localizedStandard)],
        limit: 20, offset: 5, resultType: .indices),
    ] {
      if let report = engines.check(r) { Issue.record("\(report)") }
    }
    #expect(engines.engines.postgres != nil || !PostgresTestServer.isAvailable)
  }

  /// The pairs the known gap named, in memory's order (which the engines above follow).
  @Test func memoryOrdersTheGapsPairsSo() {
    let less: [(String, String)] = [
      ("1", "01"), ("x1", "x01"), ("1X", "01x"), ("x01", "X1"), ("σ", "ς"), ("ς", "Σ"), ("ǅemal", "DŽemal"),
      ("DŽemal", "Ǆemal"), ("fine", "ﬁne"), ("ﬁne", "FINE"), ("file9", "file10"),
    ]
    for (a, b) in less {
      #expect(SiftSortOrder.localizedStandard(a, b) == -1, "\(a) < \(b)")
      #expect(SiftSortOrder.localizedStandard(b, a) == 1, "\(b) > \(a)")
    }
    #expect(SiftSortOrder.localizedStandard("ﬁne", "ﬁne") == 0)
  }

  /// Foundation's own comparison is not transitive here (`ﬁne` < `FILE01` though `fine` >
  /// `file01`); the compatibility forms make memory's order a total order, so a sort of these
  /// agrees with every pair.
  @Test func memorysOrderIsTotal() {
    let words = Self.names + ["FILE01", "file01 Montréal", "FILE01 Zürich", "ﬁx ", "ﬁne O'Brien", "ﬁne 1x"]
    let order = words.sorted { SiftSortOrder.localizedStandard($0, $1) < 0 }
    var bad: [String] = []
    for i in order.indices {
      for j in order.indices where j > i && SiftSortOrder.localizedStandard(order[i], order[j]) >= 0 {
        bad.append("\(order[i]) / \(order[j])")
      }
    }
    #expect(bad.isEmpty, "\(bad.prefix(5))")
  }
}
