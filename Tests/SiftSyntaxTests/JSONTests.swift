import Foundation
import Testing

@testable import SiftSyntax

@Suite("SiftJSON typing rules")
struct JSONTests {
  @Test func typesNumbersAndDates() throws {
    let v = try SiftJSON.parse(
      #"{"i": 1, "d": 1.0, "e": 1e2, "neg": -5, "big": 12345678901234567890, "s": "é\n\u00e9", "n": null, "b": true, "when": {"$date": "2024-03-01T00:00:00Z"}, "a": [1, "x"]}"#
    )
    guard case .dictionary(let d) = v else {
      Issue.record("not an object")
      return
    }
    #expect(d["i"] == .int(1))
    #expect(d["d"] == .double(1))
    #expect(d["e"] == .double(100))
    #expect(d["neg"] == .int(-5))
    #expect(d["big"] == .double(Double("12345678901234567890") ?? 0))
    #expect(d["s"] == .string("é\né"))
    #expect(d["n"] == .null)
    #expect(d["b"] == .bool(true))
    #expect(d["when"] == .date(Date(timeIntervalSince1970: 1_709_251_200)))
    #expect(d["a"] == [1, "x"])
  }

  @Test(arguments: ["2024-03-01T00:00:00Z", "2024-03-01T01:00:00+01:00", "2024-02-29T19:00:00-05:00", "2024-03-01"])
  func datesAgree(_ text: String) {
    #expect(SiftJSON.parseDate(text) == Date(timeIntervalSince1970: 1_709_251_200))
  }

  /// Dates outside the years 0000–9999 (reachable by arithmetic and CAST) have no ISO form:
  /// formatting them trapped converting the seconds to `time_t`. They are written as seconds.
  @Test(arguments: [1e300, -1e300, .infinity, -.infinity, .nan, 253_402_300_800, -62_167_219_201, 9.3e18])
  func datesBeyondTheISOYears(_ seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(SiftJSON.formatDate(date) == "\(seconds)")
    let json = SiftJSON.serialize(["d": .date(date)])
    if seconds.isFinite {
      #expect(try SiftJSON.parse(json) == ["d": .date(date)], "\(json)")
    } else {
      #expect(json == #"{"d": null}"#)
    }
  }

  @Test func isoYearsEdges() {
    #expect(SiftJSON.formatDate(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    #expect(SiftJSON.formatDate(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00Z")
  }

  /// `1e400` compares as infinity and printed `null`, which reads back as nil (issue #35, item
  /// 9d): an infinity is written `1e999`, which reads back as the same value; NaN stays `null`.
  @Test func infinitiesReadBackAsThemselves() throws {
    let v: SiftValue = ["up": .double(.infinity), "down": .double(-.infinity), "nan": .double(.nan)]
    let json = SiftJSON.serialize(v)
    #expect(json == #"{"down": -1e999, "nan": null, "up": 1e999}"#)
    #expect(try SiftJSON.parse(json) == ["up": .double(.infinity), "down": .double(-.infinity), "nan": nil])
    guard case .constant(let literal) = try SiftExpression(format: "1e400").root.kind else {
      Issue.record("1e400 is not a constant")
      return
    }
    #expect(literal == .double(.infinity) && SiftJSON.serialize(literal) == "1e999")
  }

  /// `formatDate` writes its digits by hand (it used `String(format:)`), edge years and fractions
  /// included: a fraction that rounds to 0 ms is left off, one that rounds to 1000 ms carries into
  /// the second (it was dropped: 0.9995 s printed as 00:00:00, nearly a second lost).
  @Test(
    arguments: [
      (-62_167_219_200, "0000-01-01T00:00:00Z"), (-62_167_219_199.9993, "0000-01-01T00:00:00.001Z"),
      (-62_135_596_800, "0001-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
      (-0.001, "1969-12-31T23:59:59.999Z"), (-0.0004, "1970-01-01T00:00:00Z"), (-0.0006, "1969-12-31T23:59:59.999Z"),
      (0, "1970-01-01T00:00:00Z"),
      (0.0004, "1970-01-01T00:00:00Z"), (0.9995, "1970-01-01T00:00:01Z"), (59.9999, "1970-01-01T00:01:00Z"),
      (0.999, "1970-01-01T00:00:00.999Z"),
      (951_782_400, "2000-02-29T00:00:00Z"), (1_000_000_000, "2001-09-09T01:46:40Z"),
      (1_709_251_200.37, "2024-03-01T00:00:00.370Z"), (-2_208_988_800.5, "1899-12-31T23:59:59.500Z"),
      (253_402_300_799.999, "9999-12-31T23:59:59.999Z"), (253_402_300_799.9996, "9999-12-31T23:59:59.999Z"),
    ] as [(Double, String)])
  func formatDateTable(_ seconds: Double, _ text: String) {
    #expect(SiftJSON.formatDate(Date(timeIntervalSince1970: seconds)) == text)
  }

  @Test func roundTrips() throws {
    let v: SiftValue = ["a": [1, 2.5, "x", nil, true], "d": .date(Date(timeIntervalSince1970: 1.5))]
    #expect(try SiftJSON.parse(SiftJSON.serialize(v)) == v)
  }

  @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"\\q\"", "01x", "[" + String(repeating: "[", count: 600)])
  func rejectsBadJSON(_ text: String) {
    #expect(throws: SiftJSON.SyntaxError.self) { try SiftJSON.parse(text) }
  }
}
