import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Every `TextSearch.Position` — not a list of today's three — searched through its operator
/// in memory, SQLite and PostgreSQL (when `SIFT_POSTGRES` reaches a server), with a constant
/// needle (SQLite's `sift_search` or range, PostgreSQL's LIKE pattern built from the anchors)
/// and with a needle from another column (PostgreSQL's `strpos`/`left`/`right`/`=` chosen by
/// the anchors), each answer held to `TextSearch.find` itself. A position whose anchors or
/// operator the SQL compiler derives wrongly fails here with the position's name.
@Suite("Text search: every position in every engine")
struct TextSearchPositionTests {
  static let subjects = [
    "Blue Bird", "bluebird", "Bird Blue", "blue", "BLUE", "Straße", "STRASSE", "Café", "Cafe\u{301}", "e\u{301}",
    "naïve café", "%_\\", "a%b", "", "ﬁne", "Ærø", "bb",
  ]
  static let needles = ["blue", "Blue", "bird", "BLUE", "ss", "é", "e\u{301}", "%", "_", "\\", "b", "", "fi", "ÆRØ"]
  static let options: [ComparisonOptions] = [
    [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
  ]

  /// One record per (subject, needle) pair: `name` the subject, `code` the needle.
  static func records() -> [SiftValue] {
    var out: [SiftValue] = []
    for (i, s) in subjects.enumerated() {
      for n in needles { out.append(["name": .string(s), "code": .string(n)]) }
      out.append(["code": .string(needles[i % needles.count])])  // name missing
    }
    return out
  }

  static func expected(_ records: [SiftValue], _ p: TextSearch.Position, _ o: ComparisonOptions, needle: String?)
    -> [Int]
  {
    records.indices.filter { i in
      guard case .dictionary(let d) = records[i], case .string(let s)? = d["name"] else { return false }
      guard let n = needle ?? { if case .string(let c)? = d["code"] { return c } else { return nil } }() else {
        return false
      }
      return TextSearch.find(n, in: s, p, o)
    }
  }

  @Test(arguments: TextSearch.Position.allCases)
  func everyEngineSearchesAsTheRule(_ p: TextSearch.Position) throws {
    let records = Self.records()
    let engines = try ThreeWay(schema: try DifferentialSchemas.thing(), entity: "Thing", records: records)
    let op = p.comparisonOperator.keyword
    var checked = 0
    for o in Self.options {
      var cases: [(format: String, args: [SiftValue], needle: String?)] = [("name \(op)\(o) code", [], nil)]
      for n in Self.needles { cases.append(("name \(op)\(o) %@", [.string(n)], n)) }
      for c in cases {
        let predicate = try SiftPredicate(format: c.format, arguments: c.args)
        let want = EngineOutcome.matches(Self.expected(records, p, o, needle: c.needle))
        let got = engines.outcomes(predicate)
        #expect(got.memory == want, "memory: \(predicate.predicateFormat) \(c.args)")
        #expect(got.sqlite == want, "sqlite: \(predicate.predicateFormat) \(c.args)")
        if let pg = got.postgres { #expect(pg == want, "postgresql: \(predicate.predicateFormat) \(c.args)") }
        checked += 1
      }
    }
    #expect(checked == Self.options.count * (Self.needles.count + 1))
  }

  /// The derivations from one position table: its operator maps back to it, its wire code
  /// reads back, codes are distinct, and `sift_search`'s error names every code.
  @Test(arguments: TextSearch.Position.allCases)
  func everyPositionIsDerived(_ p: TextSearch.Position) throws {
    #expect(TextSearch.Position(p.comparisonOperator) == p)
    #expect(TextSearch.Position(wire: Int64(p.rawValue)) == p)
    #expect(TextSearch.Position.allCases.filter { $0.rawValue == p.rawValue } == [p])
    let db = try SQLiteDatabase()
    let unknown = (TextSearch.Position.allCases.map(\.rawValue).max() ?? 0) + 1
    do {
      _ = try db.execute(SQLStatement(sql: "SELECT sift_search('abc', 'b', \(unknown), 0)"))
      Issue.record("sift_search accepted the unknown kind \(unknown)")
    } catch {
      #expect("\(error)".contains("\(p.rawValue) (\(p.comparisonOperator.keyword))"), "\(error)")
    }
  }
}
