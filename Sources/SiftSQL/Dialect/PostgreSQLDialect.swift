/// PostgreSQL 12+. `[c]`/`[d]` use `sift_fold(text, int)`, defined by `setupSQL` with
/// `lower()` and the `unaccent` extension; MATCHES uses an anchored `~`/`~*` (POSIX ARE, not
/// ICU: see Grammar/notes/sql.md for the flavour differences).
///
/// ```swift
/// for sql in PostgreSQLDialect.setupSQL { try connection.executeScript(sql) }
/// ```
public struct PostgreSQLDialect: SQLDialect {
  /// Creates the dialect.
  public init() {}

  /// Run once per database before compiled statements: creates `unaccent` and `sift_fold`.
  /// `sift_fold(s, opts)`: bit 1 lower-cases, bit 2 strips diacritics; NULL stays NULL.
  /// `sift_fdiv(a, b)`: double division with IEEE results for a zero divisor.
  ///
  /// ```swift
  /// PostgreSQLDialect.setupSQL.count   // 3
  /// ```
  public static let setupSQL: [String] = [
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    """
    CREATE OR REPLACE FUNCTION sift_fold(s text, opts integer) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN s IS NULL THEN NULL
        WHEN (opts & 3) = 3 THEN lower(unaccent(s))
        WHEN (opts & 1) = 1 THEN lower(s)
        WHEN (opts & 2) = 2 THEN unaccent(s)
        ELSE s END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION sift_fdiv(a double precision, b double precision) RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN b <> 0 THEN a / b
        WHEN a > 0 THEN 'Infinity'::double precision
        WHEN a < 0 THEN '-Infinity'::double precision
        ELSE 'NaN'::double precision END
    $$
    """,
  ]

  public var name: String { "postgresql" }
  public func placeholder(_ index: Int) -> String { "$" + String(index) }
  public var placeholdersAreNumbered: Bool { true }
  public var supportsEmptyInList: Bool { false }
  public func bindBool(_ value: Bool) -> SQLValue { .bool(value) }
  public var booleansAreIntegers: Bool { false }
  public var nullSafeEqualOperator: String { "IS NOT DISTINCT FROM" }
  public var nullSafeNotEqualOperator: String { "IS DISTINCT FROM" }
  public var supportsNullsOrdering: Bool { true }
  public var unlimitedLimit: SQLValue? { nil }
  public var foldFunction: String { "sift_fold" }
  public var foldsConstantsInSwift: Bool { false }
  public var stringSearch: SQLStringSearchStyle { .likePatterns }
  public var positionFunction: String { "strpos" }
  public var prefixRangeScan: Bool { false }
  public var likeFunction: String? { nil }
  public var regex: SQLRegexStyle { .anchoredOperator(caseSensitive: "~", caseInsensitive: "~*") }
  public var codePointCollation: String? { "C" }
  public var localizedCollation: String? { "und-x-icu" }
  public var powerFunction: String { "power" }
  public func mathFunction(_ name: String) -> String? {
    switch name {
    case "sqrt", "ln", "exp", "floor", "trunc": return name
    case "log": return "log"
    case "ceiling": return "ceil"
    default: return nil
    }
  }
  public var integerDivisionFunction: String? { nil }
  public var realDivisionFunction: String? { "sift_fdiv" }
  public var modulusFunction: String? { nil }
  public var uppercaseFunction: String { "upper" }
  public var lowercaseFunction: String { "lower" }
  public var exactNumericTypeName: String? { "NUMERIC" }
  public var doubleTypeName: String { "DOUBLE PRECISION" }
  public var integerTypeName: String { "BIGINT" }
  public var xorOperator: String? { "#" }
  public var supportsSmartShifts: Bool { false }
  public var arrayRepresentation: SQLArrayRepresentation { .sideTable }
  public func columnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string, .stringArray: return "TEXT"
    case .integer, .integerArray: return "BIGINT"
    case .boolean: return "BOOLEAN"
    case .double, .date, .doubleArray: return "DOUBLE PRECISION"
    case .data: return "BYTEA"
    }
  }
  public var setupSQL: [String] { PostgreSQLDialect.setupSQL }
}
