import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

/// `SiftJSONDates`: which JSON values are dates, like JSONDecoder's date strategies.
@Suite("JSON date strategies")
struct JSONDatesTests {
  static func d(_ iso: String) -> SiftValue { .date(SiftJSON.parseDate(iso)!) }

  static let record: SiftValue = [
    "title": "2024", "note": "2024-03-01", "at": "2024-03-01T10:00:00Z", "frac": "2024-03-01T10:00:00.250Z",
    "offset": "2024-03-01T12:00:00+02:00", "n": 1_700_000_000, "ms": 1_700_000_000_500, "nothing": nil,
    "nested": ["at": "2024-03-02T00:00:00Z"], "list": [["at": "2024-03-03T00:00:00Z"]],
    "tagged": d("2024-01-01T00:00:00Z"),
  ]

  @Test func iso8601ForEveryKeyTakesOnlyDateTimes() throws {
    guard case .array(let out) = try SiftJSONDates(defaultFormat: .iso8601).apply(to: [Self.record]),
      case .dictionary(let r) = out.first
    else { throw Failure() }
    #expect(r["title"] == "2024")
    #expect(r["note"] == "2024-03-01")  // a bare date is text unless its key is named
    #expect(r["at"] == Self.d("2024-03-01T10:00:00Z"))
    #expect(r["frac"] == .date(Date(timeIntervalSince1970: 1_709_287_200.25)))
    #expect(r["offset"] == Self.d("2024-03-01T10:00:00Z"))
    #expect(r["n"] == 1_700_000_000)
    #expect(r["nothing"] == .null)
    #expect(r["nested"] == ["at": Self.d("2024-03-02T00:00:00Z")])
    #expect(r["list"] == [["at": Self.d("2024-03-03T00:00:00Z")]])
    #expect(r["tagged"] == Self.d("2024-01-01T00:00:00Z"))
  }

  @Test func numbersForEveryKeyAndPerKey() throws {
    let seconds = try SiftJSONDates(defaultFormat: .seconds).apply(to: ["n": 1_700_000_000, "s": "x"])
    #expect(seconds == ["n": .date(Date(timeIntervalSince1970: 1_700_000_000)), "s": "x"])
    let perKey = try SiftJSONDates(keys: ["ms": .milliseconds, "note": .iso8601, "nested.at": .iso8601])
      .apply(to: Self.record)
    guard case .dictionary(let r) = perKey else { throw Failure() }
    #expect(r["ms"] == .date(Date(timeIntervalSince1970: 1_700_000_000.5)))
    #expect(r["note"] == Self.d("2024-03-01T00:00:00Z"))
    #expect(r["nested"] == ["at": Self.d("2024-03-02T00:00:00Z")])
    #expect(r["at"] == "2024-03-01T10:00:00Z")  // not named, no default
    #expect(r["n"] == 1_700_000_000)
  }

  @Test(
    arguments: [
      (["at": .iso8601], #"[{"at": "yesterday"}]"#, #"record 0, key "at": "yesterday" is not an ISO-8601 date"#),
      (
        ["at": .seconds], #"[{"x": 1}, {"at": "2024-03-01T00:00:00Z"}]"#,
        #"record 1, key "at": "2024-03-01T00:00:00Z" is not a number of seconds since 1970"#
      ),
      (["at": .iso8601], #"[{"at": 5}]"#, #"record 0, key "at": 5 is not an ISO-8601 date"#),
      (
        ["at": .milliseconds], #"[{"at": [1, -2e400]}]"#,
        #"record 0, key "at": a number too large for a Double is not a number of milliseconds since 1970"#
      ),
    ] as [([String: SiftJSONDates.Format], String, String)])
  func namedKeysRefuseWhatDoesNotFit(_ keys: [String: SiftJSONDates.Format], _ json: String, _ message: String) throws {
    let error = expectSiftError(id: "invalid-date", stage: .data) {
      try SiftJSONDates(keys: keys).apply(to: try SiftJSON.parse(json))
    }
    #expect(error?.message == message && error?.stage == .data && error?.id == "invalid-date")
  }

  @Test func specifications() throws {
    #expect(try SiftJSONDates(specifications: ["iso8601"]) == SiftJSONDates(defaultFormat: .iso8601))
    #expect(
      try SiftJSONDates(specifications: ["seconds", "a.b=milliseconds"])
        == SiftJSONDates(defaultFormat: .seconds, keys: ["a.b": .milliseconds]))
    #expect(
      try SiftJSONDates(specifications: [#"{"*": "iso8601", "ms": "milliseconds"}"#])
        == SiftJSONDates(defaultFormat: .iso8601, keys: ["ms": .milliseconds]))
    for bad in ["iso", "a=days", #"{"a": 1}"#, "{"] {
      expectSiftError(id: "invalid-date-format", stage: .data, "\(bad)") { try SiftJSONDates(specifications: [bad]) }
    }
  }

  struct Failure: Error {}
}

/// One ISO-8601 rule for `{"$date"}`, `--dates` and `CAST(text, "NSDate")`: days that do not
/// exist are refused, never rolled into the next month.
@Suite("ISO-8601 days exist")
struct ISODayTests {
  @Test(arguments: ["2023-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00"])
  func impossibleDaysAreNotDates(_ text: String) {
    #expect(SiftJSON.parseDate(text) == nil)
    #expect(SiftDateText.parse(text + "T00:00:00Z") == nil)
    #expect(throws: SiftJSON.SyntaxError.self) { try SiftJSON.parse(#"{"$date": "\#(text)"}"#) }
  }

  /// Fractions are read correctly rounded: the stored text of a millisecond instant is that
  /// instant (digit-by-digit sums drifted by a last bit).
  @Test func fractionsAreExact() {
    for ms in [1_709_251_201_370, 1_709_251_204_521, 1_709_251_203_699, 1_700_000_000_001] as [Int64] {
      let date = Date(timeIntervalSince1970: Double(ms) / 1000)
      let text = SiftJSON.formatDate(date)
      #expect(SiftJSON.parseDate(text) == date, "\(text)")
    }
    #expect(SiftJSON.fractionValue(Array("370".utf8)) == 0.37)
  }

  @Test func leapDaysAre() {
    #expect(SiftJSON.parseDate("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
    #expect(SiftJSON.parseDate("2000-02-29") != nil)
    #expect(SiftJSON.parseDate("1900-02-29") == nil)
  }
}
