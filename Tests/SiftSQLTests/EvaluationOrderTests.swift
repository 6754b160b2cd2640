import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Run-time errors (integer division by zero, bitwise operands that overflowed, computed
/// regexes) happen in SQL exactly where they happen in memory, which evaluates AND/OR left to
/// right and stops at the first deciding term. Fuzzing found `n / 0 == 1 AND FALSEPREDICATE`
/// failing in memory while SQL folded it to `1 = 0`, and `n == 5 AND n / 0 == 1` failing in
/// SQLite only (it propagates `n = 5` into the other term and evaluates `5 / 0` once, before
/// any row, though no record has n = 5), and `ANY nums == 7 / (n + 7)` matching in SQLite
/// though memory fails on the record with n = -7 and no nums (the value is evaluated first).
@Suite("SQL evaluation order vs memory")
struct EvaluationOrderTests {
  static let schemaJSON = """
    {"entities": {"Row": {"table": "row", "attributes": {"n": "integer", "x": "double", "s": "string", "nums": "integerArray"},
      "relationships": {"parts": {"toMany": "Part"}}},
     "Part": {"table": "part", "attributes": {"q": "integer"}}}}
    """
  static let json = """
    [{"n": 3, "x": 2.5, "s": "a", "nums": [1, 2], "parts": [{"q": 1}, {"q": 0}]},
     {"n": -7, "x": -0.5, "s": "(", "nums": [], "parts": []},
     {"n": 0, "x": 0.0, "s": "b", "nums": [0], "parts": [{"q": 2}]},
     {"n": null, "x": null, "s": null, "nums": [4], "parts": [{"q": null}]}]
    """

  static let schema: SQLSchema? = try? SQLSchema(json: schemaJSON)
  static let records: [SiftValue] = {
    guard case .array(let a)? = try? SiftJSON.parse(json) else { return [] }
    return a
  }()

  static let predicates: [String] = [
    // a constant term decides after a term that fails: memory fails, SQL must not fold it away
    "n / 0 == 1 AND FALSEPREDICATE", "n / 0 == 1 OR TRUEPREDICATE", "modulus:by:(n, 0) == 1 AND FALSEPREDICATE",
    "ANY {n / 0, 1} == 1 AND FALSEPREDICATE", "NOT (n / 0 == 1 OR TRUEPREDICATE)",
    // ... and before it: memory never evaluates the failing term
    "FALSEPREDICATE AND n / 0 == 1", "TRUEPREDICATE OR n / 0 == 1",
    // a term that is never true guards the failing one: no error in memory
    "n == 5 AND n / 0 == 1", "n == 5 AND 5 / 0 == 1", "n == 5 AND modulus:by:(n, 0) == 1",
    "n == 5 AND n / (n - n) == 1", "NOT (n != 5 OR n / 0 == 1)", "s == 'zz' AND s MATCHES s",
    "n != 5 OR n / 0 == 1", "n > 100 AND (n * 9223372036854775807) & 1 == 1",
    // the guard passes for some records: both fail
    "n == 3 AND n / 0 == 1", "n == 3 OR n / 0 == 1", "n / 0 == 1 AND n == 3", "s == '(' AND s MATCHES s",
    "s MATCHES s", "n != nil AND n / n == 1", "x > 0 AND n / 0 == 1",
    // inside collections
    "ANY parts.q == 5 AND n / 0 == 1", "SUBQUERY(parts, $p, $p.q == 7 AND n / $p.q == 1).@count > 0",
    "SUBQUERY(parts, $p, $p.q == 0 AND n / $p.q == 1).@count > 0", "ANY nums > 3 AND n / 0 == 1",
    "SUBQUERY(nums, $v, $v == 9 AND n / 0 == 1).@count == 0",
    // the value compared with each element is evaluated once, first, even for no elements
    // (record 1: n = -7 and no nums, no parts)
    "ANY nums == 7 / (n + 7)", "ALL nums == 7 / (n + 7)", "NONE nums == 7 / (n + 7)", "7 / (n + 7) IN nums",
    "nums CONTAINS 7 / (n + 7)", "ANY parts.q == 7 / (n + 7)", "NOT (ANY nums == 7 / (n + 7))",
    "SUBQUERY(nums, $v, $v == 7 / (n + 7)).@count == 0",
    // both sides of a comparison are evaluated, even where the SQL folds or stops early
    "nil BETWEEN {0.0 * n, modulus:by:(1, n)}", "-modulus:by:(-9223372036854775808, n) > nil",
    "modulus:by:(1, n) == nil AND FALSEPREDICATE", "s BEGINSWITH nil AND n / n == 1", "ANY {n / n, nil} == nil",
    // nothing can fail: unchanged
    "n / 2 == 1 AND FALSEPREDICATE", "n == 3 AND n / 3 == 1", "n / 2.0 > 1 OR s == 'b'",
  ]

  @Test(arguments: predicates)
  func sqliteFailsWhereMemoryFails(_ format: String) throws {
    let schema = try #require(Self.schema)
    let p = try SiftPredicate(format: format)
    // Memory and SQLite both match the same records, or both fail.
    let sqlite = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: false)
    if let failure = sqlite.check(p, label: format) { Issue.record("\(failure.report)") }
  }

  /// PostgreSQL (when `SIFT_POSTGRES` names a server) runs the ordered CASE too, and fails
  /// or matches as memory does — except that its planner folds a constant `5 / 0` even in a
  /// CASE branch that is never taken (documented PostgreSQL behaviour; Grammar/notes/sql.md).
  @Test func postgresAgrees() throws {
    let schema = try #require(Self.schema)
    let engines = try ThreeWay(schema: schema, entity: "Row", records: Self.records)
    guard engines.postgres != nil else { return }
    for format in Self.predicates where format != "n == 5 AND 5 / 0 == 1" {
      let o = engines.outcomes(try SiftPredicate(format: format))
      if let pg = o.postgres { #expect(pg.agrees(with: o.memory), "\(format): memory \(o.memory), PostgreSQL \(pg)") }
    }
  }

  /// Predicates that cannot fail keep their plain AND/OR (and the indexes it can use).
  @Test func plainConnectivesWhenNothingCanFail() throws {
    let schema = try #require(Self.schema)
    let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
    let plain = try compiler.compileMatchingIndices(
      try SiftPredicate(format: "n == 3 AND n / 3 == 1 AND s == 'a'"), entity: "Row")
    #expect(!plain.sql.contains("CASE"), "\(plain.sql)")
    let ordered = try compiler.compileMatchingIndices(try SiftPredicate(format: "n == 3 AND n / n == 1"), entity: "Row")
    #expect(ordered.sql.contains("CASE WHEN"), "\(ordered.sql)")
    #expect(
      !ordered.sql.unicodeScalars.contains { $0.properties.generalCategory == .control }, "no control character in SQL")
  }
}
