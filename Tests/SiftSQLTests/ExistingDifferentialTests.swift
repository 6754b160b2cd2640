import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// Memory == SQLite == PostgreSQL on databases Sift did not make (Tests/Fixtures/existing/
/// events.*): every date encoding, JSON and native arrays, `numeric`, `uuid`, booleans,
/// `bytea`, and to-many relationships without count columns (decision 10).
@Suite("Differential: existing databases")
struct ExistingDifferentialTests {
  static let fixture = Result { try ExistingEvents() }

  static func date(_ iso: String) -> SiftValue {
    .date(SiftJSON.parseDate(iso) ?? Date(timeIntervalSince1970: 0))
  }

  /// Constants on and between the stored instants: e7's whole second, e2's fraction, a
  /// fraction between them, midnights, before 2001, far past and future.
  static let instants = [
    "2024-01-06T09:00:00Z", "2024-01-06T09:00:00.250Z", "2024-01-06T09:00:00.100Z", "2024-01-06T00:00:00Z",
    "2024-01-05T10:30:00Z", "2000-06-01T12:00:00Z", "2024-02-14T00:00:00Z", "2023-12-30T18:45:00.500Z",
  ]
  static let dateColumns = [
    "at_unix", "at_unix_int", "at_2001", "at_ms", "at_iso", "at_sqlite", "on_day", "at_tz", "at_ts",
  ]

  static let dateCases: [(String, [SiftValue])] = {
    var out: [(String, [SiftValue])] = []
    for column in dateColumns {
      for op in ["==", "!=", "<", "<=", ">", ">="] {
        for i in instants { out.append(("\(column) \(op) %@", [date(i)])) }
      }
      out.append(("%@ < \(column)", [date(instants[0])]))
      out.append(("\(column) BETWEEN %@", [.array([date(instants[3]), date(instants[1])])]))
      out.append(("\(column) IN %@", [.array([date(instants[0]), date(instants[5]), date(instants[3])])]))
      out.append(("\(column) == nil", []))
      out.append(("\(column) != nil", []))
      out.append(("NOT (\(column) > %@)", [date(instants[1])]))
    }
    // Two columns of different encodings meet: both converted to seconds.
    for (a, b) in [
      ("at_iso", "at_tz"), ("at_unix", "at_2001"), ("at_sqlite", "at_ms"), ("on_day", "at_ts"),
      ("at_unix_int", "at_iso"), ("at_sqlite", "at_sqlite"), ("at_iso", "at_iso"),
    ] {
      for op in ["==", "<", ">="] { out.append(("\(a) \(op) \(b)", [])) }
    }
    return out
  }()

  static let arrayCases: [String] = {
    var out: [String] = []
    for a in ["tags", "jtags"] {
      out += [
        "ANY \(a) == 'a'", "ALL \(a) == 'a'", "NONE \(a) == 'b'", "'a' IN \(a)", "\(a) CONTAINS 'c'",
        "\(a).@count > 1", "\(a).@count == 0", "\(a)[FIRST] == 'b'", "\(a)[LAST] == 'c'", "\(a)[1] == 'b'",
        "objectFrom:withIndex:(\(a), 1) == 'b'", "objectFrom:withIndex:(\(a), 0) == nil",
        "\(a)[SIZE] == 0", "\(a) == nil", "\(a) != nil", "ANY \(a) ==[c] 'ä'", "ANY \(a) ==[cd] 'A'",
        "SUBQUERY(\(a), $t, $t == 'c').@count == 2", "ANY \(a) IN {'b', 'z'}", "\(a).@max == 'b'", "\(a).@min == 'a'",
      ]
    }
    out += [
      "ANY scores > 4", "ALL scores > 0", "NONE scores == 7", "7 IN scores", "scores.@sum == 8", "scores.@sum == 0",
      "scores.@avg > 2", "scores.@min == -4", "scores.@max == 7", "scores[FIRST] == 5", "scores[LAST] == 3",
      "scores[0] == 1", "objectFrom:withIndex:(scores, 0) == 1", "scores[SIZE] == 2", "scores.@count == 2",
      "scores == nil",
      "ANY weights > 2", "ALL weights < 3", "weights.@sum == 4", "weights.@avg > 1", "weights.@min < 0",
      "weights.@max == 10", "weights[LAST] == 1", "weights[SIZE] == 0", "ANY weights BETWEEN {1, 2}",
    ]
    return out
  }()

  static let otherCases: [String] = [
    // UTI operators: exact identifiers, conformance through SystemTypeIdentifiers.
    "'public.png' UTI-CONFORMS-TO 'public.image'", "'public.image' UTI-CONFORMS-TO 'public.png'",
    "'public.swift-source' UTI-CONFORMS-TO 'public.text'", "'public.png' UTI-EQUALS 'public.png'",
    "title UTI-CONFORMS-TO 'public.item'", "title UTI-EQUALS 'x'", "ANY tags UTI-CONFORMS-TO 'a'",
    "NOT ('com.adobe.pdf' UTI-CONFORMS-TO 'public.text')", "nil UTI-CONFORMS-TO 'public.item'",
    "title UTI-EQUALS nil", "NOT (title UTI-CONFORMS-TO nil)",
    // numeric: exact against double and integer constants.
    "price == 19.99", "price > 12.5", "price < 0.2", "price IN {0.1, 3}", "price BETWEEN {3, 19.99}", "price == 3",
    "price != 19.99", "price >= 100.25", "price == nil",
    // uuid as a string.
    "code == '7d3f0c2e-0000-4000-8000-000000000002'", "code != '7d3f0c2e-0000-4000-8000-000000000002'",
    "code == 'not a uuid'", "code != 'not a uuid'", "code == '7D3F0C2E-0000-4000-8000-000000000002'",
    "code ==[c] '7D3F0C2E-0000-4000-8000-000000000002'", "code BEGINSWITH '7d3f'", "code ENDSWITH 'ff'",
    "code IN {'7d3f0c2e-0000-4000-8000-000000000001', 'x'}", "code < '7d3f0c2e-0000-4000-8000-000000000005'",
    "code == nil",
    // booleans, bytes.
    "flag == YES", "flag == NO", "flag == 1", "flag != YES", "flag == nil", "blob == nil", "blob != nil",
    // to-many without count columns: never nil.
    "tickets.@count > 1", "tickets.@count == 0", "tickets == nil", "tickets != nil", "ANY tickets.seat BEGINSWITH 'A'",
    "tickets[SIZE] == 1", "SUBQUERY(tickets, $t, $t.seat == 'A1').@count == 1", "NOT (tickets == nil)",
    "ANY tickets.@distinctUnionOfObjects.seat == 'A2'", "ANY tickets.@unionOfObjects.seat == 'B1'",
    // many-to-many through a join table, never nil.
    "performers.@count == 2", "performers.@count == 0", "performers == nil", "performers != nil",
    "ANY performers.name == 'Bo'", "ALL performers.name BEGINSWITH 'A'", "NONE performers.name == 'Ann'",
    "performers[SIZE] == 1", "SUBQUERY(performers, $p, $p.name < 'C').@count == 1",
    "ANY performers.@distinctUnionOfObjects.name == 'Cy'",
    // to-one.
    "venue.name == 'Hall'", "venue == nil", "venue != nil AND venue.name != 'Hall'",
    // to-one key paths as semi-joins (`venue_id IN (SELECT id FROM venue WHERE …)`).
    "venue.name BEGINSWITH 'C'", "NOT (venue.name == 'Hall')", "venue.name IN {'Club', 'x'}", "venue.name < 'Hz'",
    "venue.name BETWEEN {'A', 'D'}", "venue.name != 'Hall'", "venue.name == nil", "NOT (venue.name ==[c] 'hall')",
    "venue.name ENDSWITH 'b' OR venue.id == 1", "venue.id > 1",
  ]

  /// Every text operator on a to-one key path (a semi-join, `SemiJoinRuleTests`), each with a
  /// right side made for its shape: a new operator is compared without an edit here.
  static let toOneTextCases: [String] = ComparisonOperator.allCases.filter { $0.rightOperand.isText }.flatMap { op in
    let rights: [String]
    switch op.rightOperand {
    case .wildcardPattern: rights = ["'*a*'", "'C?ub'"]
    case .regularExpression: rights = ["'C.*'", "'[A-Z]a.*'"]
    default: rights = ["'a'", "'Cl'", "'b'"]
    }
    return rights.flatMap { ["venue.name \(op.keyword) \($0)", "venue.name \(op.keyword)[c] \($0)"] }
  }

  static let cases: [(String, [SiftValue])] =
    dateCases + (arrayCases + otherCases + toOneTextCases).map { ($0, []) }

  @Test(arguments: 0..<cases.count)
  func sameAnswers(_ i: Int) throws {
    let f = try ExistingDifferentialTests.fixture.get()
    let (format, args) = ExistingDifferentialTests.cases[i]
    let p = try SiftPredicate(format: format, arguments: args)
    let a = f.answers(p)
    #expect(a.memory != "error", "\(format): memory failed")
    #expect(a.sqlite == a.memory, "\(format) \(args): sqlite \(a.sqlite) memory \(a.memory)\n\(sql(p, f))")
    if let pg = a.postgres {
      #expect(pg == a.memory, "\(format) \(args): postgres \(pg) memory \(a.memory)\n\(sql(p, f))")
    }
  }

  func sql(_ p: SiftPredicate, _ f: ExistingEvents) -> String {
    let lite = (try? ExistingEvents.statement(p, f.sqliteCompiler)).map { "\($0.sql) \($0.bindings)" } ?? "-"
    let pg = (try? ExistingEvents.statement(p, f.postgresCompiler)).map { "\($0.sql) \($0.bindings)" } ?? "-"
    return "sqlite: \(lite)\npostgres: \(pg)"
  }

  /// Nothing Sift-only is referenced: no `__sift_*` column or side table in any case's SQL.
  @Test func nothingSiftOnly() throws {
    let f = try ExistingDifferentialTests.fixture.get()
    for (format, args) in ExistingDifferentialTests.cases {
      let p = try SiftPredicate(format: format, arguments: args)
      for compiler in [f.sqliteCompiler, f.postgresCompiler] {
        let st = try ExistingEvents.statement(p, compiler)
        #expect(!st.sql.contains("__sift") && !st.sql.contains("__tags"), "\(format): \(st.sql)")
      }
    }
  }
}

extension ExistingDifferentialTests {
  /// A deterministic generator (SplitMix64), so a failure names a reproducible predicate.
  struct Mix {
    var state: UInt64
    mutating func next(_ n: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(n))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
  }

  /// Random combinations (AND, OR, NOT) of comparisons over every encoding: the same answer
  /// from all three engines.
  @Test func randomCombinations() throws {
    let f = try ExistingDifferentialTests.fixture.get()
    // SIFT_EXISTING_SEED=n probes another sequence.
    var r = Mix(state: UInt64(ProcessInfo.processInfo.environment["SIFT_EXISTING_SEED"] ?? "") ?? 2026)
    let ops = ["==", "!=", "<", "<=", ">", ">="]
    var failures: [String] = []
    for _ in 0..<400 {
      var terms: [(String, [SiftValue])] = []
      for _ in 0..<(1 + r.next(3)) {
        switch r.next(5) {
        case 0, 1:
          let column = r.pick(ExistingDifferentialTests.dateColumns)
          let other = r.pick(ExistingDifferentialTests.dateColumns)
          if r.next(4) == 0 {
            terms.append(("\(column) \(r.pick(ops)) \(other)", []))
          } else {
            terms.append(
              (
                "\(column) \(r.pick(ops)) %@",
                [ExistingDifferentialTests.date(r.pick(ExistingDifferentialTests.instants))]
              ))
          }
        case 2:
          let a = r.pick(["tags", "jtags"])
          terms.append(
            (
              r.pick(["ANY \(a) == 'a'", "\(a).@count >= 1", "\(a) == nil", "\(a)[LAST] == 'c'", "ALL \(a) != 'b'"]), []
            ))
        case 3:
          terms.append(
            (
              r.pick([
                "scores.@sum > 5", "ANY weights < 1", "scores[FIRST] == 7", "weights.@max >= 3", "scores.@avg < 3",
              ]), []
            ))
        default:
          terms.append(
            (
              r.pick([
                "price \(r.pick(ops)) 19.99", "code \(r.pick(["==", "!="])) '7d3f0c2e-0000-4000-8000-000000000005'",
                "flag == YES",
                "tickets.@count \(r.pick(ops)) 1", "venue.name \(r.pick(ops)) 'Hall'", "ANY performers.name == 'Bo'",
              ]), []
            ))
        }
      }
      var format = ""
      var args: [SiftValue] = []
      for (i, t) in terms.enumerated() {
        if i > 0 { format += r.pick([" AND ", " OR "]) }
        format += r.next(4) == 0 ? "NOT (\(t.0))" : "(\(t.0))"
        args += t.1
      }
      let p = try SiftPredicate(format: format, arguments: args)
      let a = f.answers(p)
      if a.sqlite != a.memory || (a.postgres.map { $0 != a.memory } ?? false) {
        failures.append("\(format) \(args): memory \(a.memory) sqlite \(a.sqlite) postgres \(a.postgres ?? "-")")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) disagreements, first: \(failures.prefix(3).joined(separator: "\n"))")
  }
}

extension ExistingDifferentialTests {
  /// Sorting by each date column gives memory's order on both databases (text spellings
  /// mixed within a column), nil first ascending as Sift sorts by default.
  @Test func sortByEachDateColumn() throws {
    let f = try ExistingDifferentialTests.fixture.get()
    for column in ExistingDifferentialTests.dateColumns {
      let seconds: [(id: Int, t: Double?)] = f.memory.indices.map { i in
        if case .date(let d)? = f.memory[i].value(forKey: column) { return (f.ids[i], d.timeIntervalSince1970) }
        return (f.ids[i], nil)
      }
      let expected = seconds.sorted { a, b in
        switch (a.t, b.t) {
        case (nil, nil): return a.id < b.id
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x != y ? x < y : a.id < b.id
        }
      }.map(\.id)
      let request = SiftFetchRequest(entity: "event", sortDescriptors: [SiftSortDescriptor(column)])
      for (name, compiler, db) in f.databases() {
        let st = try compiler.compile(request)
        let rows = try f.locked { try db.execute(st) }
        let ids = rows.compactMap { $0.first?.intValue.map { Int($0) } }
        #expect(ids == expected, "\(name) \(column): \(st.sql)")
      }
    }
  }
}
