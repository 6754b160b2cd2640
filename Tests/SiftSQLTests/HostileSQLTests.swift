import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
@_spi(Bench) import SiftSyntax
import Testing

/// The slow and failing cases of issue 23 in SQL: long OR chains prepare and answer as memory
/// does, long IN lists travel as one parameter, catastrophic patterns answer or fail.
@Suite("Bounded cost in SQL")
struct HostileSQLTests {
  static let schemaJSON = #"""
    {"entities": {"item": {"table": "item", "primaryKey": "id", "attributes": {
      "id": "integer", "qty": "integer", "name": "string", "price": "double"}}}}
    """#

  static func engines(_ n: Int = 2000) throws -> ThreeWay {
    let records: [SiftValue] = (0..<n).map { i in
      .dictionary([
        "id": .int(Int64(i)), "qty": .int(Int64(i % 997)), "name": .string("n\(i)"), "price": .double(Double(i) / 4),
      ])
    }
    return try ThreeWay(schema: try SQLSchema(json: schemaJSON), entity: "item", records: records)
  }

  static func agree(_ engines: ThreeWay, _ p: SiftPredicate, _ label: String) {
    let (memory, sqlite, postgres) = engines.outcomes(p)
    #expect(memory == sqlite, "\(label): memory \(memory), SQLite \(sqlite)")
    if let postgres { #expect(memory == postgres, "\(label): memory \(memory), PostgreSQL \(postgres)") }
  }

  @Test func longChainsPrepare() throws {
    let engines = try Self.engines()
    // Not mergeable (alternating keys): grouped in parentheses instead of 1,000 deep.
    let mixed = (0..<1000).map { $0 % 2 == 0 ? "qty == \($0)" : "name == 'n\($0)'" }.joined(separator: " OR ")
    Self.agree(engines, try SiftPredicate(format: mixed), "mixed OR")
    let ands = (0..<1000).map { "qty != \($0 + 1000)" }.joined(separator: " AND ")
    Self.agree(engines, try SiftPredicate(format: ands), "AND chain")
    // One key: merged into one IN (then one parameter).
    let strings = (0..<10_000).map { "name == 'n\($0 * 3)'" }.joined(separator: " OR ")
    let p = try SiftPredicate(format: strings)
    Self.agree(engines, p, "10,000 ORed strings")
    let st = try engines.sqliteCompiler.compileMatchingIndices(p, entity: "item")
    #expect(st.bindings.count < 10, "\(st.bindings.count) bindings")
  }

  @Test func longListsAreOneParameter() throws {
    let engines = try Self.engines()
    let ints: [SiftValue] = (0..<150_000).map { SiftValue.int(Int64($0 * 7)) }
    let strings: [SiftValue] = (0..<5_000).map { SiftValue.string("n\($0 * 5)") }
    let doubles: [SiftValue] = (0..<500).map { SiftValue.double(Double($0) / 2) }
    var mixed: [SiftValue] = (0..<500).map { SiftValue.int(Int64($0)) }
    mixed += [.null, .string("x"), .double(1.5)]
    for args in [ints, strings, doubles, mixed] {
      for key in ["qty", "name", "price"] {
        let p = try SiftPredicate(format: "\(key) IN %@", arguments: [.array(args)])
        Self.agree(engines, p, "\(key) IN \(args.count) values")
      }
    }
    let p = try SiftPredicate(format: "qty IN %@", arguments: [.array((0..<150_000).map { SiftValue.int(Int64($0)) })])
    let st = try engines.sqliteCompiler.compileMatchingIndices(p, entity: "item")
    #expect(st.sql.contains("json_each") && st.bindings.count == 1, "\(st.sql.prefix(200))")
    // The work, not the wall time: the list is one subquery SQLite runs once into a lookup
    // table ("LIST SUBQUERY", not correlated), with one json_each scan in the whole plan.
    let plan = try engines.sqlite.explainQueryPlan(st)
    #expect(plan.contains { $0.hasPrefix("LIST SUBQUERY") }, "\(plan)")
    #expect(!plan.contains { $0.contains("CORRELATED") }, "\(plan)")
    #expect(plan.filter { $0.contains("json_each") }.count == 1, "\(plan)")
    #expect(try engines.sqlite.execute(st).count == 2000)  // every qty (i % 997) is in 0..<150,000
  }

  @Test func deeplyNestedSubqueriesAreRefusedUpFront() throws {
    let schema = try SQLSchema(
      json:
        #"{"entities": {"t": {"table": "t", "primaryKey": "id", "attributes": {"id": "integer", "xs": "integerArray"}}}}"#
    )
    for levels in [8, 9, 20] {
      var format = "$x\(levels) == 1"
      for level in stride(from: levels, through: 1, by: -1) {
        format = "SUBQUERY(xs, $x\(level), \(format)).@count > 0"
      }
      let p = try SiftPredicate(format: format)
      do {
        _ = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compileMatchingIndices(p, entity: "t")
        #expect(levels <= 8, "\(levels) levels compiled")
      } catch {
        #expect(levels > 8 && error.diagnostic.id == "too-deep-for-sql", "\(levels): \(error)")
      }
    }
  }

  @Test func nestedQuantifierPatternMatchesInSQLite() throws {
    let db = try SQLiteDatabase()
    let subject = String(repeating: "a", count: 50) + "123"
    let rows = try db.execute(
      SQLStatement(sql: "SELECT ? REGEXP ?", bindings: [.text(subject), .text("(a+)+b|a+[0-9]+")]))
    #expect(rows == [[.integer(1)]])
    do {
      _ = try db.execute(
        SQLStatement(
          sql: "SELECT ? REGEXP ?", bindings: [.text(String(repeating: "a", count: 40) + "c"), .text(#"(a+)+\1b"#)]))
      Issue.record("no error")
    } catch {
      #expect(error.diagnostic.message.contains("matching steps"), "\(error)")
    }
  }
}

/// MATCHES in memory and in SQLite's functions, on random patterns and subjects: the same
/// answers, and the same as ICU's backtracking matcher (the one before the automaton).
@Suite("Regex automaton: memory and SQLite agree")
struct RegexDifferentialTests {
  @Test func randomPatterns() throws {
    var rng = SeededRandom(seed: 2323)
    let atoms = ["a", "b", ".", #"\d"#, #"\w"#, #"\s"#, "[ab]", "[^a]", "[a-c1]", "(a|b)", "(?:ab|a)", "^", "é", "x"]
    let quantifiers = ["", "", "*", "+", "?", "{2}", "{1,3}", "*?"]
    let alphabet: [Character] = ["a", "b", "c", "1", " ", "\n", "é", "x", "A"]
    let db = try SQLiteDatabase()
    var compared = 0
    for _ in 0..<150 {
      var pattern = ""
      for _ in 0..<rng.int(in: 1...4) {
        let atom = rng.pick(atoms)
        pattern += atom + (atom == "^" ? "" : rng.pick(quantifiers))
      }
      let options = rng.pick(["", "", "[c]", "[d]"])
      guard
        let regex = try? RegexPattern(
          pattern, options: options == "[c]" ? .caseInsensitive : options == "[d]" ? .diacriticInsensitive : [])
      else { continue }
      let matcher = try SiftPredicate(format: "s MATCHES\(options) %@", pattern).compile()
      for _ in 0..<6 {
        let s = String((0..<rng.int(in: 0...6)).map { _ in rng.pick(alphabet) })
        guard let icu = try? regex.backtrackingMatchForBench(s) else { continue }
        let memory = try matcher.matches(SiftValue.dictionary(["s": .string(s)]))
        let o = options == "[c]" ? 1 : options == "[d]" ? 2 : 0
        let rows = try db.execute(
          SQLStatement(sql: "SELECT sift_matches(?, ?, ?)", bindings: [.text(s), .text(pattern), .integer(Int64(o))]))
        #expect(memory == icu, "\(pattern) \(options) on \(s.debugDescription): memory \(memory), ICU \(icu)")
        #expect(rows == [[.integer(memory ? 1 : 0)]], "\(pattern) \(options) on \(s.debugDescription): SQLite \(rows)")
        compared += 1
      }
    }
    #expect(compared > 500)
  }
}
