import Foundation
import Testing

@testable import SiftSyntax

/// `CAST("<ISO-8601 text>", "NSDate")`: Sift's typed dates (Grammar/README.md), folded into a
/// date constant by the parser and by binding, printed back readably, round-tripping.
@Suite("Dates typed as ISO-8601 text")
struct DateTextTests {
  /// Text, and the seconds since 1970 it names.
  static let valid: [(String, Double)] = [
    ("2024-03-01", 1_709_251_200),
    ("2024-03-01T00:00:00Z", 1_709_251_200),
    ("2024-03-01T09:30:00Z", 1_709_285_400),
    ("2024-03-01T09:30Z", 1_709_285_400),
    ("2024-03-01 09:30:00", 1_709_285_400),
    ("2024-03-01T09:30:00.250Z", 1_709_285_400.25),
    ("2024-03-01T11:30:00+02:00", 1_709_285_400),
    ("2024-03-01T04:00:00-05:30", 1_709_285_400),
    ("2024-02-29", 1_709_164_800),
    ("2001-01-01T00:00:00Z", 978_307_200),
  ]

  @Test("CAST of ISO text is a date constant", arguments: valid)
  func folds(_ text: String, _ seconds: Double) throws {
    for quote in ["\"", "'"] {
      let p = try SiftPredicate.parse("createdAt < CAST(\(quote)\(text)\(quote), \"NSDate\")")
      guard case .comparison(let c) = p.root.kind, case .constant(.date(let d)) = c.rhs.kind else {
        Issue.record("not folded: \(p.root)")
        continue
      }
      #expect(d.timeIntervalSince1970 == seconds, "\(text)")
      assertRoundTrips(p)
    }
  }

  static let invalid = [
    "2024-13-01", "2023-02-29", "2024-04-31", "2024-03-01T24:00:00Z", "2024-03-01T09:60Z", "2024-03-01T09:30:00+2",
    "2024-3-1", "yesterday", "", "2024-03-01T09:30:00Zjunk", "1709251200",
  ]

  @Test("other text stays a CAST, which round-trips", arguments: invalid)
  func keepsOtherText(_ text: String) throws {
    #expect(SiftDateText.parse(text) == nil)
    let p = try SiftPredicate.parse("a < CAST(\"\(text)\", \"NSDate\")")
    guard case .comparison(let c) = p.root.kind, case .cast(_, .date) = c.rhs.kind else {
      Issue.record("folded: \(p.root)")
      return
    }
    assertRoundTrips(p)
  }

  @Test("a bound or substituted string is folded when it is a date, else stays a CAST")
  func bindingFolds() throws {
    let bound = try SiftPredicate(format: "a < CAST(%@, 'NSDate')", "2024-03-01")
    #expect(bound.predicateFormat == #"a < CAST("2024-03-01T00:00:00Z", "NSDate")"#)
    let substituted = try SiftPredicate.parse("a < CAST($D, 'NSDate')").substituting(["D": "2024-03-01T09:30:00.5Z"])
    #expect(substituted.predicateFormat == #"a < CAST("2024-03-01T09:30:00.500Z", "NSDate")"#)
    assertRoundTrips(substituted)
    let notADate = try SiftPredicate.parse("a < CAST($D, 'NSDate')").substituting(["D": "soon"])
    guard case .comparison(let c) = notADate.root.kind, case .cast = c.rhs.kind else {
      Issue.record("text that is not a date must stay a CAST: \(notADate.root)")
      return
    }
  }

  /// Seconds since 2001, and how the date prints.
  static let printed: [(Double, String)] = [
    (0, #"CAST("2001-01-01T00:00:00Z", "NSDate")"#),
    (730_980_000, #"CAST("2024-03-01T10:00:00Z", "NSDate")"#),
    (730_980_000.125, #"CAST("2024-03-01T10:00:00.125Z", "NSDate")"#),
    (-978_307_200, #"CAST("1970-01-01T00:00:00Z", "NSDate")"#),
    (730_980_000.0001, #"CAST(730980000.0001, "NSDate")"#),
    (1e15, #"CAST(1000000000000000.0, "NSDate")"#),
  ]

  @Test("dates print readably when the text names them exactly, else as seconds", arguments: printed)
  func prints(_ seconds: Double, _ expected: String) throws {
    let p = try SiftPredicate(format: "a == %@", SiftValue.date(Date(timeIntervalSinceReferenceDate: seconds)))
    #expect(p.predicateFormat == "a == " + expected)
    assertRoundTrips(p)
  }

  @Test("CAST of a number stays Apple's seconds since 2001")
  func numbers() throws {
    let p = try SiftPredicate.parse("a < CAST(730980000, 'NSDate')")
    #expect(p.predicateFormat == #"a < CAST("2024-03-01T10:00:00Z", "NSDate")"#)
    #expect(try SiftPredicate.parse(p.predicateFormat).root == p.root)
  }
}
