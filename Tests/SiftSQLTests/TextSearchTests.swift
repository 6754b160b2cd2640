import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// `TextSearch` (the string-operator primitive memory and SQLite share): Unicode scalars as
/// written, folding only under `[c]`/`[d]`, empty needles false; the SQLite `sift_search`
/// function gives the same answers; an empty MATCHES pattern matches only the empty string.
@Suite("Text search by scalars")
struct TextSearchTests {
  struct Case: Sendable, CustomStringConvertible {
    var needle: String
    var subject: String
    var position: TextSearch.Position
    var options: ComparisonOptions
    var expected: Bool
    var description: String { "\(subject) \(position) \(needle) [\(options.rawValue)] = \(expected)" }
  }

  static let cases: [Case] = [
    Case(needle: "e\u{301}", subject: "naïve café", position: .suffix, options: [], expected: false),
    Case(needle: "é", subject: "Cafe\u{301}", position: .suffix, options: [], expected: false),
    Case(needle: "e\u{301}", subject: "Cafe\u{301}", position: .suffix, options: [], expected: true),
    Case(needle: "cafe", subject: "Cafe\u{301}", position: .prefix, options: [.caseInsensitive], expected: false),
    Case(
      needle: "cafe", subject: "Cafe\u{301}", position: .prefix, options: [.diacriticInsensitive, .caseInsensitive],
      expected: true),
    Case(needle: "e", subject: "Cafe\u{301}", position: .anywhere, options: [], expected: true),
    Case(needle: "caf", subject: "CAFÉ", position: .prefix, options: [.caseInsensitive], expected: true),
    Case(needle: "STRASSE", subject: "Straße", position: .anywhere, options: [.caseInsensitive], expected: true),
    Case(needle: "", subject: "abc", position: .anywhere, options: [], expected: false),
    Case(needle: "", subject: "", position: .prefix, options: [], expected: false),
    Case(needle: "abcd", subject: "abc", position: .suffix, options: [], expected: false),
    Case(needle: "b", subject: "abc", position: .anywhere, options: [], expected: true),
    Case(needle: "🎉", subject: "a🎉b", position: .anywhere, options: [.caseInsensitive], expected: true),
    Case(needle: "ﬁ", subject: "fine", position: .prefix, options: [.caseInsensitive], expected: true),
    Case(needle: "ﬁ", subject: "fine", position: .prefix, options: [.diacriticInsensitive], expected: false),
  ]

  @Test(arguments: cases)
  func findsByScalars(_ c: Case) {
    #expect(TextSearch.find(c.needle, in: c.subject, c.position, c.options) == c.expected)
    // The folded-needle form agrees with folding the needle first.
    let folded = TextFolding.fold(c.needle, c.options)
    #expect(TextSearch.find(foldedNeedle: folded, in: c.subject, c.position, c.options) == c.expected)
  }

  @Test(arguments: cases)
  func sqliteSearchAgrees(_ c: Case) throws {
    let db = try SQLiteDatabase()
    let kind = Int64(c.position.rawValue), opts = Int64(TextFoldCode(c.options).rawValue)
    let rows = try db.execute(
      SQLStatement(
        sql: "SELECT sift_search(?, ?, ?, ?)",
        bindings: [.text(c.subject), .text(c.needle), .integer(kind), .integer(opts)]))
    #expect(rows.first?.first == .integer(c.expected ? 1 : 0))
  }

  /// The wire codes are a contract with SQL written by older versions (and expression indexes
  /// on `sift_fold(column, 1)`): they never change.
  @Test func wireCodesAreFixed() throws {
    #expect([TextSearch.Position.anywhere, .prefix, .suffix].map(\.rawValue) == [0, 1, 2])
    let unknown = Int64(TextSearch.Position.allCases.count)  // codes are 0..<count (everyPositionIsDerived)
    #expect(TextSearch.Position(wire: unknown) == nil && TextSearch.Position(wire: -1) == nil)
    #expect(TextSearch.Position(.beginsWith) == .prefix && TextSearch.Position(.in) == .anywhere)
    #expect(TextFoldCode([.caseInsensitive, .normalized, .localeSensitive]).sql == "1")
    #expect(TextFoldCode([.diacriticInsensitive]).sql == "2")
    #expect(TextFoldCode([.caseInsensitive, .diacriticInsensitive]).sql == "3")
    #expect(TextFoldCode(wire: 7).options == [.caseInsensitive, .diacriticInsensitive])
    #expect(TextFoldCode(wire: 3).diacriticsOnly == .diacriticInsensitive)
    // The PL/pgSQL sift_fold tests the same bits.
    let pg = PostgreSQLDialect.setupSQL.joined(separator: "\n")
    for test in ["opts & 3 = 0", "opts & 1 = 1", "opts & 3 = 1", "opts & 3 = 2"] {
      #expect(pg.contains(test), "\(test)")
    }
  }

  @Test func anUnknownSearchKindIsAnSQLError() throws {
    let db = try SQLiteDatabase()
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) {
      try db.execute(SQLStatement(sql: "SELECT sift_search('abc', 'b', 7, 0)"))
    }
  }

  @Test func equalityIsByScalars() {
    #expect(!TextSearch.equals("Cafe\u{301}", "Café", []))
    #expect(TextSearch.equals("Cafe\u{301}", "CAFÉ", [.caseInsensitive]))
    #expect(TextSearch.equals("ZÜRICH", "zurich", [.caseInsensitive, .diacriticInsensitive]))
    #expect(!TextSearch.equals("ZÜRICH", "zurich", [.caseInsensitive]))
  }

  @Test(arguments: [[], [.caseInsensitive], [.diacriticInsensitive]] as [ComparisonOptions])
  func emptyPatternMatchesOnlyEmpty(_ o: ComparisonOptions) throws {
    let r = try RegexPattern("", options: o)
    #expect(r.matches(""))
    #expect(!r.matches("a"))
    #expect(!r.matches("\n"))
  }

  @Test func emptyPatternInSQLite() throws {
    let db = try SQLiteDatabase()
    let rows = try db.execute(SQLStatement(sql: "SELECT '' REGEXP '', 'a' REGEXP '', sift_matches('', '', 3)"))
    #expect(rows.first == [.integer(1), .integer(0), .integer(1)])
  }
}
