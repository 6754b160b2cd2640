import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Numbers at the edges of `Int64` and beyond 2^53: SQLite must return exactly the records
/// in-memory evaluation returns, and fail where memory fails. Memory keeps integers exact
/// (`**`, `abs:`, `ceiling:`, `floor:`, `trunc:`) and continues in `Double` on overflow; the
/// SQL for each must do the same (fuzzing found `abs(n)` of `Int64.min` raising "integer
/// overflow", and `n ** 1`, `ceiling(n)`, `trunc(n)` rounding `Int64.max` through a double).
/// NaN is not nil in memory, though SQLite stores it as NULL (`sqrt(x) == nil` matched
/// negative x in SQLite only).
@Suite("SQL numeric edges vs memory")
struct NumericEdgeTests {
  static let schemaJSON = """
    {"entities": {"Row": {"table": "row", "attributes": {"n": "integer", "x": "double", "flag": "boolean",
      "nums": "integerArray", "ds": "doubleArray"}}}}
    """
  static let json = """
    [{"n": 9223372036854775807, "x": 2.5, "flag": true, "nums": [9223372036854775807, 1, -2], "ds": [0.1, 0.2, 0.3]},
     {"n": -9223372036854775808, "x": -2.5, "flag": false, "nums": [-9223372036854775808, -1], "ds": [1e308, 1e308, -1e308]},
     {"n": 9007199254740993, "x": 1e300, "flag": true, "nums": [9007199254740993, 1, 1], "ds": [9007199254740992.0, 1.0, 1.0]},
     {"n": -7, "x": -0.0, "flag": false, "nums": [], "ds": []},
     {"n": 0, "x": 9007199254740993.0, "nums": [null, 5], "ds": [null]}, {"n": null, "x": null, "flag": null, "nums": [7], "ds": [2.5]}]
    """

  static let schema: SQLSchema? = try? SQLSchema(json: schemaJSON)
  static let records: [SiftValue] = {
    guard case .array(let a)? = try? SiftJSON.parse(json) else { return [] }
    return a
  }()

  static let predicates: [String] = [
    // abs: Int64.min becomes the double 2^63 (SQLite's abs raises "integer overflow")
    "abs(n) > 0", "abs(n) == 9223372036854775808.0", "abs(n) == n", "abs(x) == 2.5", "abs(flag) == 1",
    // **: exact while the integer result fits, else pow in doubles
    "n ** 1 == 9223372036854775807", "n ** 1 == n", "n ** 0 == 1", "n ** 2 > 0", "2 ** 62 + 1 == 4611686018427387905",
    "n ** -1 < 1", "x ** 2 > 6", "(n ** 1) & 1 == 1", "3 ** 39 == 4052555153018976267", "flag ** 2 == 1",
    "ceiling(n ** -1) == 1", "floor(2 ** n) == 0", "trunc(n ** -2) == 0", "(2 ** n) & 1 == 0",
    // a nested power that is an integer stays one: an integer division by zero fails
    "2 ** 0 ** 5 / 0 == 1", "2 ** (n - n) / 0 == 1", "(2 ** (0 ** 5)) / 2 == 0", "sqrt(x) ** (n - n) == 1",
    "ceiling((n * 2) / (n * n)) == 1", "floor((n + n) / (n * n)) == 0",
    // ceiling/floor/trunc keep integers
    "ceiling(n) == 9223372036854775807", "floor(n) == n", "trunc(n) == n", "trunc(x) == 2", "floor(x) == -3",
    "ceiling(x) == -2", "trunc(TERNARY(flag == YES, n, x)) == n", "floor(flag) == 1", "ceiling(n) & 1 == 1",
    "trunc(x) == 9007199254740993",
    // NaN (sqrt of a negative, 0.0 / 0, inf - inf) is not nil in memory; SQLite stores it as NULL
    "sqrt(x) == nil", "sqrt(x) != nil", "sqrt(x) == sqrt(x)", "sqrt(x) != sqrt(x)", "sqrt(x) <= nil",
    "sqrt(x) >= sqrt(x)", "sqrt(x) IN {nil, 1}", "NOT (sqrt(x) == nil)", "ANY {sqrt(x), 1} == nil",
    "sqrt(x) BETWEEN {0, 10}", "sqrt(x) == x", "sqrt(x) != x", "ln(x) == nil", "log(x) != nil",
    "x / 0.0 != nil", "n / 0.0 == nil", "x * x - x * x == nil", "x * x - x * x != 5", "x ** 0.5 == nil",
    "modulus:by:(x, 0.0) == nil", "abs(sqrt(x)) == nil", "ceiling(sqrt(x)) != nil", "-sqrt(x) == nil",
    "exp(sqrt(x)) != nil", "TERNARY(flag == YES, sqrt(x), n) == nil", "TERNARY(flag == YES, n, sqrt(x)) != nil",
    "sqrt(x) ** 0 == 1", "1 ** sqrt(x) == 1", "sqrt(x) ** 0 == nil", "sqrt(x) ** 2 == nil", "sqrt(x) + 1 == nil",
    "(sqrt(x) + 1) * 2 != nil", "1e999 - 1e999 == nil", "1e999 - 1e999 != x", "x != 0.0 / 0",
    // integer arithmetic that overflowed to infinity gives NaN too; a NaN is no bitwise operand
    "(n * n * n * n) ** 5 - (n * n * n * n) ** 5 == nil", "(n * n * n * n) ** 5 - (n * n * n * n) ** 5 != n",
    "((n * n * n * n) ** 5 - (n * n * n * n) ** 5) & 1 == 0", "n / 0 == nil AND FALSEPREDICATE", "(n + 1) & 1 == 0",
    // -(0.0) is -0.0 (SQLite's -x is 0 - x, +0.0): 1 / -0.0 is -infinity
    "1 / -(abs(x) * 0.0) < 0", "-(abs(x) * 0.0) ** -1 < 0", "-n == 9223372036854775808.0",
    // @sum continues in doubles when the integer sum overflows (SQLite's SUM raised); @avg and
    // @sum of doubles are plain left-to-right sums, as memory
    "nums.@sum > 0", "nums.@sum == 9223372036854775806", "nums.@sum < -9223372036854775807", "nums.@sum == 5",
    "nums.@sum == 9007199254740995", "nums.@sum == nil", "nums.@avg > 0", "ds.@sum == 0.6000000000000001",
    "ds.@avg == 0.20000000000000004", "ds.@sum == 9007199254740994.0", "ds.@avg == 3002399751580331.0",
    "ds.@sum == 1e308", "ds.@sum == nil", "ds.@avg == nil", "sum(nums) > 0", "average(ds) > 1",
    // BETWEEN with a nil value or bound is false, although nil <= nil is true
    "n BETWEEN {nil, nil}", "n BETWEEN {x, x}", "n BETWEEN {n, n}", "NOT (n BETWEEN {n, n})", "x BETWEEN {nil, 1}",
  ]

  @Test(arguments: predicates)
  func sqliteAgreesWithMemory(_ format: String) throws {
    let schema = try #require(Self.schema)
    let p = try SiftPredicate(format: format)
    // Memory and SQLite both match the same records, or both fail.
    let sqlite = try ThreeWay(schema: schema, entity: "Row", records: Self.records, usePostgres: false)
    if let failure = sqlite.check(p, label: format) { Issue.record("\(failure.report)") }
    // PostgreSQL compiles or refuses (its power is a double, so `&` of one is refused; it
    // raises "bigint out of range" itself on overflow).
    do {
      let pg = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
      #expect(placeholdersMatch(pg, PostgreSQLDialect()), "\(pg)")
    } catch {
      #expect(error.stage == .sql, "\(error)")
    }
  }

  /// `@avg` of doubles near the limit: PostgreSQL's AVG(double precision) failed with "value
  /// out of range" once the squares overflow (it sums them); the mean is a plain sum over the
  /// count, as in memory. (A sum that itself overflows still fails on PostgreSQL.)
  @Test(.enabled(if: PostgresTestServer.isAvailable, "SIFT_POSTGRES is set"))
  func postgresAverageOfHugeDoubles() throws {
    let schema = try #require(Self.schema)
    let records: [SiftValue] = [["n": 1, "ds": [1e300, 3e300]], ["n": 2, "ds": [1.5]], ["n": 3, "ds": []]]
    let engines = try ThreeWay(schema: schema, entity: "Row", records: records)
    for format in ["ds.@avg == 2e300", "ds.@avg == nil", "ds.@avg < 2", "average(ds) > 1e299"] {
      let (memory, sqlite, postgres) = engines.outcomes(try SiftPredicate(format: format))
      #expect(
        memory == sqlite && memory == postgres,
        "\(format): memory \(memory), SQLite \(sqlite), PostgreSQL \(String(describing: postgres))")
    }
  }

  /// Integer operands of `ceiling:`/`floor:`/`trunc:` never go through a double: SQLite's
  /// `sift_ceiling` takes them as they are (and rounds what overflowed into a double),
  /// PostgreSQL returns an integer-typed operand itself.
  @Test func roundingAnIntegerIsTheInteger() throws {
    let schema = try #require(Self.schema)
    let p = try SiftPredicate(format: "ceiling(n) == 1")
    let lite = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
    #expect(lite.sql.contains("sift_ceiling(t0.\"n\")"), "\(lite.sql)")
    let pg = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compileMatchingIndices(p, entity: "Row")
    #expect(!pg.sql.contains("ceil"), "\(pg.sql)")
  }
}
