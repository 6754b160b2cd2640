import Foundation
import SiftEvaluation
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftSQL

/// `BEGINSWITH[c]` of a constant on SQLite with only the user's `COLLATE NOCASE` index on the
/// column (`SQLCompilation+NoCasePrefix.swift`): a NOCASE range goes in front of the exact
/// folded test when the folded needle allows it; the answers stay memory's.
@Suite("BEGINSWITH[c] and a NOCASE index")
struct NoCasePrefixTests {
  /// Recomputes, over every assigned non-ASCII scalar, what its `[c]` fold can put into an
  /// ASCII prefix: a fold that is all ASCII (`KELVIN SIGN` → `k`, `ﬁ` → `fi`),
  /// and the ASCII run leading a fold that goes on with something else (`İ` → `i` + U+0307,
  /// which can only end a prefix). The pinned rule must be exactly that, and no scalar may fold
  /// to nothing (one that did would let the ASCII after it start the fold).
  @Test func foldedFromNonASCIIIsPinned() {
    var whole = Set<String>()
    var leading = Set<String>()
    var vanishing: [String] = []
    for v in UInt32(0x80)...0x10FFFF {
      guard let s = Unicode.Scalar(v) else { continue }
      switch s.properties.generalCategory {
      case .unassigned, .privateUse, .surrogate: continue
      default: break
      }
      let folded = TextFolding.fold(String(s), [.caseInsensitive])
      if folded.isEmpty { vanishing.append(String(v, radix: 16)) }
      let run = folded.utf8.prefix { $0 < 0x80 }
      if run.count == folded.utf8.count {
        whole.insert(folded)
      } else if !run.isEmpty {
        leading.insert(String(decoding: run, as: UTF8.self))
      }
    }
    #expect(vanishing.isEmpty, "fold to nothing: \(vanishing)")
    #expect(
      whole == SQLCompilation.asciiFoldsOfNonASCII, "pin \(whole.sorted())")
    #expect(leading == SQLCompilation.asciiLeadsOfNonASCIIFolds, "pin \(leading.sorted())")
  }

  @Test func boundsFollowTheRule() {
    #expect(SQLCompilation.caselessRange("ab")! == ("ab", "ac"))
    #expect(SQLCompilation.caselessRange("a@")! == ("a@", "aA"))  // NOCASE reads 'A' as 'a': looser, still a bound
    #expect(SQLCompilation.caselessRange("a\u{7F}")! == ("a\u{7F}", "a\u{80}"))
    #expect(SQLCompilation.caselessRange("") == nil)
    #expect(SQLCompilation.caselessRange("é") == nil)
    #expect(SQLCompilation.caselessRange("a\u{0}") == nil)
    // A whole ASCII fold inside, or a prefix of one at the end: "k" (KELVIN SIGN), "fi" (ﬁ),
    // "f" (the start of ﬀ/ﬁ/ﬂ), "a" (ẚ folds to "aʾ"), "i" (İ); "i" inside is fine.
    for refused in ["k", "ak", "ask", "wifi", "cliff", "stop", "a;b", "caf", "pizza", "hi", "x`y"] {
      #expect(SQLCompilation.caselessRange(refused) == nil, "\(refused)")
    }
    for taken in ["venue b", "hotel", "line", "tie", "fjord", "ab", "zt", "f1"] {
      #expect(SQLCompilation.caselessRange(taken) != nil, "\(taken)")
    }
  }

  static let pieces: [String] = [
    "a", "A", "b", "B", "k", "K", "\u{212A}", "s", "S", "ß", "ẞ", "ſ", "i", "I", "İ", "ı", "f", "F", "ﬁ", "ﬀ", "l",
    "é", "e\u{301}", "\u{301}", "E", "Å", "\u{212B}", "ǅ", "ǆ", "@", "[", "`", "{", "z", "Z", "y", "_", "%", "0", " ",
    "\u{7F}", "\u{80}", "ω", "Ω", "\u{2126}", ";", "\u{37E}", "\u{1FEF}", "t", "ﬅ", "ŉ", "n",
  ]

  static func subjects() -> [String] {
    var rng = SeededRandom(seed: 25)
    var out: [String] = []
    for _ in 0..<600 {
      let n = Int.random(in: 0...4, using: &rng)
      out.append((0..<n).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined())
    }
    return out
  }

  static func database(_ subjects: [String], index: String?) throws -> (SQLiteDatabase, SQLCompiler) {
    let db = try SQLiteDatabase()
    try db.executeScript("CREATE TABLE venue (id INTEGER PRIMARY KEY, name TEXT)")
    if let index { try db.executeScript(index) }
    for (i, s) in subjects.enumerated() {
      _ = try db.execute(
        SQLStatement(
          sql: "INSERT INTO venue VALUES (?, ?)", bindings: [.integer(Int64(i)), i % 97 == 0 ? .null : .text(s)]))
    }
    return (db, SQLCompiler(dialect: SQLiteDialect(), schema: try db.introspectSchema().schema))
  }

  static func ids(_ db: SQLiteDatabase, _ c: SQLCompiler, _ needle: String) throws -> ([Int], String) {
    let w = try c.compileWhere(
      try SiftPredicate(format: "name BEGINSWITH[c] %@", arguments: [.string(needle)]), entity: "venue")
    let st = SQLStatement(sql: "SELECT t0.\"id\" FROM \"venue\" t0 WHERE \(w.sql) ORDER BY 1", bindings: w.bindings)
    return (try db.execute(st).compactMap { $0.first?.intValue.map(Int.init) }, st.sql)
  }

  /// Random subjects and needles (ASCII letters next to the scalars that fold into them, ß,
  /// ligatures, combining marks, NOCASE's neighbours `@ [ \` {`): memory == SQLite without an
  /// index == SQLite with only a NOCASE index, and the NOCASE range is used for many needles.
  @Test func sameAnswersWithAndWithoutTheIndex() throws {
    let subjects = Self.subjects()
    let (plain, plainCompiler) = try Self.database(subjects, index: nil)
    let (indexed, indexedCompiler) = try Self.database(
      subjects, index: "CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE)")
    var needles = Set(subjects.flatMap { s in (1...3).map { String(s.unicodeScalars.prefix($0)) } })
    needles.formUnion(Self.pieces)
    needles.remove("")
    var prefiltered = 0
    for needle in needles.sorted() {
      let m = try SiftPredicate(format: "name BEGINSWITH[c] %@", arguments: [.string(needle)]).compile()
      var memory: [Int] = []
      for (i, s) in subjects.enumerated() where i % 97 != 0 {
        if try m.matches(SiftValue.dictionary(["name": .string(s)])) { memory.append(i) }
      }
      let (a, plainSQL) = try Self.ids(plain, plainCompiler, needle)
      let (b, indexedSQL) = try Self.ids(indexed, indexedCompiler, needle)
      #expect(!plainSQL.contains("NOCASE"))
      if indexedSQL.contains("COLLATE NOCASE") { prefiltered += 1 }
      #expect(a == memory, "\(needle.debugDescription): \(plainSQL)")
      #expect(b == memory, "\(needle.debugDescription): \(indexedSQL)")
    }
    #expect(prefiltered > needles.count / 10, "\(prefiltered) of \(needles.count)")
  }

  static func plan(_ index: String, _ format: String, _ needle: String) throws -> ([String], String) {
    let subjects = (0..<2000).map { "Venue \($0 % 7 == 0 ? "K" : "b")\($0)" }
    let (db, c) = try Self.database(subjects, index: index)
    try db.executeScript("ANALYZE")
    let w = try c.compileWhere(try SiftPredicate(format: format, arguments: [.string(needle)]), entity: "venue")
    let st = SQLStatement(sql: "SELECT t0.\"id\" FROM \"venue\" t0 WHERE " + w.sql, bindings: w.bindings)
    return (try db.explainQueryPlan(st), st.sql)
  }

  @Test func theNoCaseIndexServesTheRange() throws {
    for index in [
      "CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE)",
      "CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE, id)",
    ] {
      let (plan, sql) = try Self.plan(index, "name BEGINSWITH[c] %@", "VENUE B1")
      #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX venue_name_nocase ") }, "\(plan) \(sql)")
      #expect(sql.contains("sift_fold(t0.\"name\", 1) >= ?"), "the exact test stays: \(sql)")
    }
    // Not where it would not be exact or not served: a needle with `k` (KELVIN SIGN folds to
    // it), [cd], a BINARY or a partial index.
    let refused = [
      ("CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE)", "name BEGINSWITH[c] %@", "venue k"),
      ("CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE)", "name BEGINSWITH[cd] %@", "venue b"),
      ("CREATE INDEX venue_name_binary ON venue (name)", "name BEGINSWITH[c] %@", "venue b"),
      (
        "CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE) WHERE id > 5", "name BEGINSWITH[c] %@", "venue b"
      ),
    ]
    for (index, format, needle) in refused {
      let (plan, sql) = try Self.plan(index, format, needle)
      #expect(!sql.contains("NOCASE"), "\(index) \(format) \(needle): \(sql)")
      #expect(plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }
    // With sift's own fold index beside it, the exact test alone is served by that index.
    let both = """
      CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE);
      CREATE INDEX venue_name_fold ON venue (sift_fold(name, 1))
      """
    let (plan, sql) = try Self.plan(both, "name BEGINSWITH[c] %@", "venue b")
    #expect(!sql.contains("NOCASE"), "\(sql)")
    #expect(plan.contains { $0.contains("INDEX venue_name_fold ") }, "\(plan)")
  }

  /// A schema file keeps the collations it was written with.
  @Test func collationsRoundTripThroughTheSchemaFile() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE venue (id INTEGER PRIMARY KEY, name TEXT, city TEXT COLLATE NOCASE);
      CREATE INDEX venue_name_nocase ON venue (name COLLATE NOCASE, id);
      CREATE INDEX venue_city ON venue (city);
      """)
    let schema = try db.introspectSchema().schema
    let indexes = schema.entity("venue")?.indexes ?? []
    #expect(indexes.map(\.collations) == [["NOCASE"], ["NOCASE", "BINARY"]])
    let again = try SQLSchema(json: schema.jsonText)
    #expect(again.entity("venue")?.indexes == indexes)
  }
}
