import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// Fetch requests executed in memory: sort, page, count, distinct, properties, aggregates,
/// expressions; the same rules SQL follows (Grammar/notes/fetch.md).
@Suite struct FetchTests {
  static let venues: [SiftValue] = [
    ["name": "bravo", "rating": 4, "city": "Oslo", "price": 10, "tags": ["a"]],
    ["name": "Alpha", "rating": 5, "city": "Paris", "price": 2.5],
    ["name": "charlie", "rating": nil, "city": "Oslo", "price": 7],
    ["name": "alpha", "rating": 4, "price": 1],
    ["name": "Élan", "rating": 3, "city": "Paris"],
  ]

  func indices(_ r: SiftFetchRequest, _ records: [SiftValue] = venues) throws -> [Int] {
    guard case .indices(let i) = try r.execute(on: records) else { return [] }
    return i
  }

  func rows(_ r: SiftFetchRequest) throws -> [[SiftValue]] {
    guard case .rows(_, let rows) = try r.execute(on: Self.venues) else { return [] }
    return rows
  }

  @Test func binarySortIsCodePointOrder() throws {
    let r = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("name")])
    #expect(try indices(r) == [1, 3, 0, 2, 4])  // "Alpha" < "alpha" < "bravo" < "charlie" < "Élan"
  }

  @Test func caseInsensitiveSortFoldsAndKeepsInputOrderForTies() throws {
    let r = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive)])
    #expect(try indices(r) == [1, 3, 0, 2, 4])
    let d = SiftFetchRequest(
      entity: "V", sortDescriptors: [SiftSortDescriptor("name", ascending: false, comparison: .caseInsensitive)])
    #expect(try indices(d) == [4, 2, 0, 1, 3])  // ties (Alpha, alpha) still in input order
  }

  @Test func localizedSortPutsAccentsWithTheirLetter() throws {
    let r = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("name", comparison: .localizedStandard)])
    let order = try indices(r).map { i -> String in
      if case .dictionary(let d) = Self.venues[i] { return d["name"]?.stringValue ?? "" }
      return ""
    }
    #expect(order.last == "charlie" || order.last == "Élan")
    #expect(order.firstIndex(of: "Élan")! > order.firstIndex(of: "charlie")!)
  }

  @Test func nilPlacement() throws {
    let asc = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("rating")])
    #expect(try indices(asc) == [2, 4, 0, 3, 1])
    let desc = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("rating", ascending: false)])
    #expect(try indices(desc) == [1, 0, 3, 4, 2])
    let last = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("rating", nulls: .last)])
    #expect(try indices(last) == [4, 0, 3, 1, 2])
  }

  @Test func secondKeyBreaksTies() throws {
    let r = SiftFetchRequest(
      entity: "V", sortDescriptors: [SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("name")])
    #expect(try indices(r) == [1, 3, 0, 4, 2])
  }

  @Test func mixedKindsOrderByKind() throws {
    let mixed: [SiftValue] = [
      ["k": "x"], ["k": 2.5], ["k": nil], ["k": true], ["k": [1]], ["k": 2],
      ["k": .date(Date(timeIntervalSince1970: 0))],
    ]
    let r = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("k")])
    #expect(try indices(r, mixed) == [2, 3, 5, 1, 0, 6, 4])
  }

  @Test func exactNumberOrder() throws {
    let big: [SiftValue] = [["n": 9_007_199_254_740_993], ["n": 9_007_199_254_740_992.0], ["n": .double(.nan)]]
    #expect(try indices(SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("n")]), big) == [2, 1, 0])
  }

  @Test func predicateLimitOffsetAndCount() throws {
    let p = try SiftPredicate(format: "city == 'Oslo' OR city == 'Paris'")
    var r = SiftFetchRequest(
      entity: "V", predicate: p, sortDescriptors: [SiftSortDescriptor("name")], limit: 2, offset: 1)
    #expect(try indices(r) == [0, 2])
    r.resultType = .count
    #expect(try r.execute(on: Self.venues) == .count(2))
    r.offset = 3
    #expect(try r.execute(on: Self.venues) == .count(1))
    r.limit = -1
    expectSiftError(id: "negative-limit", stage: .evaluate) { try r.execute(on: Self.venues) }
    // "Everything after the offset" spelled as the largest limit does not overflow.
    r.limit = Int.max
    #expect(try r.execute(on: Self.venues) == .count(1))
    #expect(SiftFetchRequest(entity: "V", limit: Int.max, offset: 2).window(count: 5) == 2..<5)
  }

  @Test func distinctValuesNilFirst() throws {
    let r = SiftFetchRequest(entity: "V", resultType: .distinct("city"))
    #expect(try r.execute(on: Self.venues) == .values([nil, "Oslo", "Paris"]))
  }

  @Test func propertiesToFetch() throws {
    let r = SiftFetchRequest(
      entity: "V", sortDescriptors: [SiftSortDescriptor("price", ascending: false)], limit: 2,
      resultType: .properties(["name", "price"]))
    #expect(try rows(r) == [["bravo", 10], ["charlie", 7]])
    #expect(
      try r.execute(on: Self.venues).dictionaries == [
        ["name": "bravo", "price": 10], ["name": "charlie", "price": 7],
      ])
  }

  @Test func aggregatesWithGroupBy() throws {
    let aggs = [
      SiftAggregate(.count), SiftAggregate(.count, "rating"), SiftAggregate(.sum, "price"),
      SiftAggregate(.avg, "rating"),
      SiftAggregate(.min, "name"), SiftAggregate(.max, "rating"),
    ]
    let r = SiftFetchRequest(entity: "V", resultType: .aggregates(aggs, groupBy: ["city"]))
    #expect(
      try rows(r) == [
        [nil, 1, 1, 1, 4.0, "alpha", 4],
        ["Oslo", 2, 1, 17, 4.0, "bravo", 4],
        ["Paris", 2, 2, 2.5, 4.0, "Alpha", 5],
      ])
  }

  @Test func aggregatesOfNothing() throws {
    let aggs = [
      SiftAggregate(.count), SiftAggregate(.sum, "price"), SiftAggregate(.avg, "price"), SiftAggregate(.max, "price"),
    ]
    let none = try SiftPredicate(format: "FALSEPREDICATE")
    let r = SiftFetchRequest(entity: "V", predicate: none, resultType: .aggregates(aggs, groupBy: []))
    #expect(try rows(r) == [[0, 0, nil, nil]])
    let grouped = SiftFetchRequest(entity: "V", predicate: none, resultType: .aggregates(aggs, groupBy: ["city"]))
    #expect(try rows(grouped) == [])
  }

  @Test func sumOfStringsIsAnErrorNamingTheKeyPath() throws {
    let r = SiftFetchRequest(entity: "V", resultType: .aggregates([SiftAggregate(.sum, "name")], groupBy: []))
    let e = try #require(throws: SiftError.self) { try r.execute(on: Self.venues) }
    #expect(e.diagnostic.id == "not-a-number")
  }

  @Test func aggregateFromExpression() throws {
    let a = try SiftAggregate(try SiftExpression(format: "average:(rating)"))
    #expect(a.function == .avg && a.keyPath == "rating")
    expectSiftError(id: "not-an-aggregate", stage: .parse, at: 0) {
      try SiftAggregate(try SiftExpression(format: "rating + 1"))
    }
    expectSiftError(id: "not-an-aggregate", stage: .parse, at: 0) {
      try SiftAggregate(try SiftExpression(format: "sum:({1, 2})"))
    }
  }

  @Test func expressionsPerRecordAndOverTheFetch() throws {
    let e = try SiftExpression(format: "price * 2")
    let r = SiftFetchRequest(
      entity: "V", sortDescriptors: [SiftSortDescriptor("name")], limit: 2,
      resultType: .expressions([SiftExpressionDescription(name: "double", expression: e)]))
    #expect(try rows(r) == [[5.0], [2]])
    #expect(try SiftExpression(format: "sum:(price)").aggregateValue(over: Self.venues) == 20.5)
    #expect(try SiftExpression(format: "count:(SELF)").aggregateValue(over: Self.venues) == 5)
    #expect(try SiftExpression(format: "max:(rating) - min:(rating)").aggregateValue(over: Self.venues) == 2)
  }

  @Test func sameAnswersOnFastRecordsAndDictionaries() throws {
    let objects = try JSONRecords.load(bytes: Array(#"[{"n":"b","v":2},{"n":"a","v":null},{"n":"B","v":1}]"#.utf8))
    let dicts: [[String: SiftValue]] = [["n": "b", "v": 2], ["n": "a"], ["n": "B", "v": 1]]
    let r = SiftFetchRequest(entity: "V", sortDescriptors: [SiftSortDescriptor("n", comparison: .caseInsensitive)])
    #expect(try r.matchingIndices(in: objects) == [1, 0, 2])
    #expect(try r.matchingIndices(in: dicts) == [1, 0, 2])
  }

  @Test func sortListParsing() throws {
    let s = try SiftSortDescriptor.parseList("rating desc, name asc [c], -city nulls last")
    #expect(
      s == [
        SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("name", comparison: .caseInsensitive),
        SiftSortDescriptor("city", ascending: false, nulls: .last),
      ])
    let e = try #require(throws: SiftError.self) { try SiftSortDescriptor.parseList("rating sideways") }
    #expect(e.diagnostic.range == SiftSourceRange(start: 7, end: 15))
  }

  /// A small page of many records is selected without sorting the rest: the same records as
  /// the full sort's first page, ties in input order, for every key kind.
  @Test func smallPagesEqualTheFullSortsPrefix() throws {
    let kinds: [(Int) -> SiftValue] = [
      { .int(Int64($0 % 7)) }, { .double(Double($0 % 5) / 2) }, { .string(["b", "A", "a", "é", "B"][$0 % 5]) },
      { $0 % 3 == 0 ? .null : .int(Int64($0 % 4)) }, { $0 % 2 == 0 ? .string("x") : .int(1) },
    ]
    for (k, make) in kinds.enumerated() {
      let records: [SiftValue] = (0..<400).map { ["k": make(($0 * 37) % 101), "m": .int(Int64($0 % 3))] }
      for sorts in ["k", "k desc [c]", "k nulls last, m desc", "k [l]"] {
        let r = SiftFetchRequest(entity: "V", sortDescriptors: try SiftSortDescriptor.parseList(sorts))
        let full = try r.matchingIndices(in: records)
        for (limit, offset) in [(1, 0), (5, 0), (10, 7), (0, 3), (24, 0)] {
          var paged = r
          paged.limit = limit
          paged.offset = offset
          let want = Array(full.dropFirst(offset).prefix(limit))
          #expect(
            try paged.matchingIndices(in: records) == want, "kind \(k) sort \(sorts) limit \(limit) offset \(offset)")
        }
      }
    }
  }

  /// `sum:`, `min:`, `max:`, `average:` of a key over the fetch read the column directly: the
  /// same values as the general evaluation (a TERNARY around it forces that), nil skipped,
  /// overflow continuing in doubles. `count:(x)` counts non-nil values, as SQL's COUNT(x).
  @Test func directAggregatesEqualTheGeneralPath() throws {
    let sets: [[SiftValue]] = [
      [["x": 1], ["x": nil], ["x": 2.5], [:], ["x": 4]],
      [["x": .int(Int64.max)], ["x": 1]],
      [["x": "b"], ["x": "a"], ["x": nil]],
      [["x": [1, 2]], ["x": 3]],
      [],
    ]
    for records in sets {
      for f in ["sum", "min", "max", "average"] {
        let direct = Result { try SiftExpression(format: "\(f):(x)").aggregateValue(over: records) }
        let general = Result {
          try SiftExpression(format: "TERNARY(TRUEPREDICATE, \(f):(x), 0)").aggregateValue(over: records)
        }
        switch (direct, general) {
        case (.success(let a), .success(let b)):
          #expect(a == b, "\(f) over \(records): \(a) vs \(b)")
        case (.failure, .failure): break
        default: Issue.record("\(f) over \(records): \(direct) vs \(general)")
        }
      }
    }
  }

  @Test func countOfAKeyOverTheFetchSkipsNil() throws {
    let records: [SiftValue] = [["x": 1], ["x": nil], [:], ["x": "a"]]
    #expect(try SiftExpression(format: "count:(x)").aggregateValue(over: records) == 2)
    #expect(try SiftExpression(format: "count:(SELF)").aggregateValue(over: records) == 4)
  }
}
