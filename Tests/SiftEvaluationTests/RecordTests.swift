import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

struct Dish: Codable, Sendable {
  var item: String
  var price: Double
  var vegan: Bool
}

struct Place: Codable, Sendable {
  var name: String
  var rating: Double?
  var opened: Date
  var logo: Data
  var tags: [String]
  var menu: [Dish]
  var visits: UInt64
  var site: URL?
}

/// A user record type answering keys itself.
struct UserRow: SiftRecord {
  var fields: [String: SiftValue]
  func value(forKey key: String) -> SiftValue? { fields[key] }
}

@Suite struct RecordTests {
  static let places = [
    Place(
      name: "Red bar", rating: nil, opened: Date(timeIntervalSinceReferenceDate: 100), logo: Data([1, 2]),
      tags: ["wifi"], menu: [Dish(item: "taco", price: 4, vegan: true)], visits: UInt64.max, site: nil),
    Place(
      name: "Blue cafe", rating: 4.5, opened: Date(timeIntervalSinceReferenceDate: 200), logo: Data(),
      tags: [], menu: [], visits: 3, site: URL(string: "https://example.com")),
  ]

  @Test func encodableStructs() throws {
    let v = try SiftRecordEncoder.encode(Self.places[0])
    guard case .dictionary(let d) = v else {
      Issue.record("not a dictionary")
      return
    }
    #expect(d["rating"] == nil)  // nil optionals are missing keys
    #expect(d["opened"] == .date(Date(timeIntervalSinceReferenceDate: 100)))
    #expect(d["logo"] == .data(Data([1, 2])))
    #expect(d["visits"] == .double(Double(UInt64.max)))
    #expect(d["menu"] == [["item": "taco", "price": 4.0, "vegan": true]])

    let rows = try SiftRecordEncoder.records(Self.places)
    func hits(_ format: String) throws -> [Int] { try SiftPredicate(format: format).compile().matchingIndices(rows) }
    #expect(try hits("rating == nil") == [0])
    #expect(try hits("rating > 4") == [1])
    #expect(try hits("ANY menu.vegan == YES") == [0])
    #expect(try hits("opened > CAST(150, 'NSDate')") == [1])
    #expect(try hits("site ENDSWITH 'example.com'") == [1])
    #expect(try hits("tags.@count == 0 AND name BEGINSWITH[c] 'BLUE'") == [1])
    #expect(try SiftRecordEncoder.record(Self.places[1]).keys.contains("site"))
    expectSiftError(id: "not-encodable", stage: .data) { try SiftRecordEncoder.record([1, 2]) }
  }

  @Test func recordKindsAgree() throws {
    let dict: [String: SiftValue] = ["a": 1, "b": ["c": "x"], "l": [["k": 1], ["k": 2]]]
    let m = try SiftPredicate(format: "a == 1 AND b.c == 'x' AND l.k == {1, 2} AND ANY l.k == 2").compile()
    #expect(try m.matches(dict))
    #expect(try m.matches(SiftValue.dictionary(dict)))
    #expect(try m.matches(SiftObject(dict)))
    #expect(try m.matches(UserRow(fields: dict)))
    #expect(try !m.matches(SiftValue.int(3)))
    #expect(UserRow(fields: dict).value(forKeyPath: ["b", "c"]) == "x")
    #expect(SiftObject(dict).value(forKey: "b") == ["c": "x"])
    #expect(SiftObject(dict).siftValue == .dictionary(dict))
  }

  @Test func jsonRecordsLoading() throws {
    let rows = try JSONRecords.load(
      bytes: Array(#"[{"a": 1, "when": {"$date": "2001-01-01T00:00:10Z"}}, {"a": 2.5}]"#.utf8))
    #expect(rows.count == 2)
    let m = try SiftPredicate(format: "when == CAST(10, 'NSDate')").compile()
    #expect(try m.matchingIndices(rows) == [0])
    let lines = try JSONRecords.load(bytes: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
    #expect(lines.count == 2)
    expectSiftError(id: "invalid-records", stage: .data) { try JSONRecords.load(bytes: Array("[1, 2]".utf8)) }
    expectSiftError(id: "invalid-records", stage: .data) { try JSONRecords.load(bytes: Array("{".utf8)) }
  }

  /// Deeply nested data is walked with bounded recursion and never crashes.
  @Test func deepData() throws {
    var v: SiftValue = [1]
    for _ in 0..<2000 { v = .array([v]) }
    let record: SiftValue = ["deep": v]
    #expect(evaluate("deep == deep", on: record) == false)  // past the depth limit: unequal (documented)
    #expect(evaluate("deep[0][0][0] == deep[0][0][0]", on: ["deep": [[[[1]]]]]) == true)
    #expect(evaluate("deep == {1}", on: record) == false)
    _ = SiftObject(value: record)
    #expect(evaluate("deep.x == nil", on: record) == nil)  // mapping deeper than the limit is an error
  }

  /// One matcher shared by many threads gives every thread the same answers.
  @Test func concurrentMatching() async throws {
    let m = try SiftPredicate(format: "SUBQUERY(menu, $m, $m.price < $P).@count > 0 AND name CONTAINS[c] 'o'").compile()
    let venues = Conformance.venues
    let expected = try m.matchingIndices(venues, variables: ["P": 10])
    #expect(!expected.isEmpty)
    let results = try await withThrowingTaskGroup(of: [Int].self) { group in
      for _ in 0..<8 {
        group.addTask { try m.matchingIndices(venues, variables: ["P": 10]) }
      }
      var all: [[Int]] = []
      for try await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == expected })
  }
}
