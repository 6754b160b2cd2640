import Foundation
import SiftTestSupport
import Testing

@testable import SiftEvaluation
@testable import SiftSyntax

/// `JSONRecords` with a date strategy: web-API JSON compares with dates in memory.
@Suite("JSONRecords with a date strategy")
struct JSONRecordDatesTests {
  static let json = Array(
    #"[{"at": "2024-02-01T00:00:00Z"}, {"at": "2024-03-05T10:30:00.5+01:00"}, {"at": null}]"#.utf8)

  @Test func isoTextComparesAsDates() throws {
    let since = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00:00Z
    let p = try SiftPredicate(format: "at > %@", since)
    let plain = try JSONRecords.load(bytes: Self.json)
    expectSiftError(id: "incomparable-values", stage: .evaluate, at: 3) { try p.compile().filter(plain) }
    let records = try JSONRecords.load(bytes: Self.json, dates: SiftJSONDates(defaultFormat: .iso8601))
    #expect(try p.compile().matchingIndices(records) == [1])
    let values = try JSONRecords.values(bytes: Self.json, dates: SiftJSONDates(keys: ["at": .iso8601]))
    #expect(values[1] == ["at": .date(Date(timeIntervalSince1970: 1_709_631_000.5))])
  }

  @Test func aValueThatDoesNotFitNamesRecordAndKey() throws {
    let error = expectSiftError(id: "invalid-records", stage: .data) {
      try JSONRecords.load(
        bytes: Array(#"[{"at": 1}, {"at": "soon"}]"#.utf8), dates: SiftJSONDates(keys: ["at": .iso8601]))
    }
    #expect(error?.message == #"record 0, key "at": 1 is not an ISO-8601 date"#)
  }
}
