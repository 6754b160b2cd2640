/// PostgreSQL 13+ (for `normalize`). `[c]`/`[d]` use `sift_fold(text, int)`, defined by
/// `setupSQL` from the in-memory folding itself (`TextFolding.fold`, as data); MATCHES uses an
/// anchored `~`/`~*` (POSIX ARE, not ICU: see Grammar/notes/sql.md for the flavour differences).
///
/// ```swift
/// for sql in PostgreSQLDialect.setupSQL { try connection.executeScript(sql) }
/// ```
public struct PostgreSQLDialect: SQLDialect {
  /// Creates the dialect.
  public init() {}

  /// Run once per database (or schema) before compiled statements; idempotent (`CREATE OR
  /// REPLACE`), no extension needed. `sift_fold(s, opts)`: bit 1 `[c]`, bit 2 `[d]`, exactly
  /// as `TextFolding.fold` (the tables are built from it once per process, see
  /// `PostgresFoldingTable`; the database's encoding must be UTF8); NULL stays NULL.
  /// `sift_fdiv(a, b)`: double division with IEEE results for a zero divisor.
  ///
  /// ```swift
  /// PostgreSQLDialect.setupSQL.count   // 2
  /// ```
  public static let setupSQL: [String] = [
    PostgresFoldingSQL.function,
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

  /// `SQLDialect.name` for this database (see the protocol for its meaning).
  public var name: String { "postgresql" }
  /// `SQLDialect.placeholder` for this database (see the protocol for its meaning).
  public func placeholder(_ index: Int) -> String { "$" + String(index) }
  /// `SQLDialect.placeholdersAreNumbered` for this database (see the protocol for its meaning).
  public var placeholdersAreNumbered: Bool { true }
  /// `SQLDialect.supportsEmptyInList` for this database (see the protocol for its meaning).
  public var supportsEmptyInList: Bool { false }
  /// `SQLDialect.bindBool` for this database (see the protocol for its meaning).
  public func bindBool(_ value: Bool) -> SQLValue { .bool(value) }
  /// `SQLDialect.booleansAreIntegers` for this database (see the protocol for its meaning).
  public var booleansAreIntegers: Bool { false }
  /// `SQLDialect.nullSafeEqualOperator` for this database (see the protocol for its meaning).
  public var nullSafeEqualOperator: String { "IS NOT DISTINCT FROM" }
  /// `SQLDialect.nullSafeNotEqualOperator` for this database (see the protocol for its meaning).
  public var nullSafeNotEqualOperator: String { "IS DISTINCT FROM" }
  /// `SQLDialect.supportsNullsOrdering` for this database (see the protocol for its meaning).
  public var supportsNullsOrdering: Bool { true }
  /// `SQLDialect.unlimitedLimit` for this database (see the protocol for its meaning).
  public var unlimitedLimit: SQLValue? { nil }
  /// `SQLDialect.foldFunction` for this database (see the protocol for its meaning).
  public var foldFunction: String { "sift_fold" }
  /// `SQLDialect.foldsConstantsInSwift` for this database (see the protocol for its meaning).
  public var foldsConstantsInSwift: Bool { false }
  /// `SQLDialect.stringSearch` for this database (see the protocol for its meaning).
  public var stringSearch: SQLStringSearchStyle { .likePatterns }
  /// `SQLDialect.positionFunction` for this database (see the protocol for its meaning).
  public var positionFunction: String { "strpos" }
  /// `SQLDialect.prefixRangeScan` for this database (see the protocol for its meaning).
  public var prefixRangeScan: Bool { false }
  /// `SQLDialect.likeFunction` for this database (see the protocol for its meaning).
  public var likeFunction: String? { nil }
  /// `SQLDialect.regex` for this database (see the protocol for its meaning).
  public var regex: SQLRegexStyle { .anchoredOperator(caseSensitive: "~", caseInsensitive: "~*") }
  /// `SQLDialect.codePointCollation` for this database (see the protocol for its meaning).
  public var codePointCollation: String? { "C" }
  /// `SQLDialect.localizedCollation` for this database (see the protocol for its meaning).
  public var localizedCollation: String? { "und-x-icu" }
  /// `SQLDialect.powerFunction` for this database (see the protocol for its meaning).
  public var powerFunction: String { "power" }
  /// `SQLDialect.mathFunction` for this database (see the protocol for its meaning).
  public func mathFunction(_ name: String) -> String? {
    switch name {
    case "sqrt", "ln", "exp", "floor", "trunc": return name
    case "log": return "log"
    case "ceiling": return "ceil"
    default: return nil
    }
  }
  /// `SQLDialect.integerDivisionFunction` for this database (see the protocol for its meaning).
  public var integerDivisionFunction: String? { nil }
  /// `SQLDialect.realDivisionFunction` for this database (see the protocol for its meaning).
  public var realDivisionFunction: String? { "sift_fdiv" }
  /// `SQLDialect.modulusFunction` for this database (see the protocol for its meaning).
  public var modulusFunction: String? { nil }
  /// `SQLDialect.uppercaseFunction` for this database (see the protocol for its meaning).
  public var uppercaseFunction: String { "upper" }
  /// `SQLDialect.lowercaseFunction` for this database (see the protocol for its meaning).
  public var lowercaseFunction: String { "lower" }
  /// `SQLDialect.exactNumericTypeName` for this database (see the protocol for its meaning).
  public var exactNumericTypeName: String? { "NUMERIC" }
  /// `SQLDialect.doubleTypeName` for this database (see the protocol for its meaning).
  public var doubleTypeName: String { "DOUBLE PRECISION" }
  /// `SQLDialect.integerTypeName` for this database (see the protocol for its meaning).
  public var integerTypeName: String { "BIGINT" }
  /// `SQLDialect.xorOperator` for this database (see the protocol for its meaning).
  public var xorOperator: String? { "#" }
  /// `SQLDialect.supportsSmartShifts` for this database (see the protocol for its meaning).
  public var supportsSmartShifts: Bool { false }
  /// `SQLDialect.arrayRepresentation` for this database (see the protocol for its meaning).
  public var arrayRepresentation: SQLArrayRepresentation { .sideTable }
  /// `SQLDialect.columnType` for this database (see the protocol for its meaning).
  public func columnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string, .stringArray: return "TEXT"
    case .integer, .integerArray: return "BIGINT"
    case .boolean: return "BOOLEAN"
    case .double, .date, .doubleArray: return "DOUBLE PRECISION"
    case .data: return "BYTEA"
    }
  }
  /// `SQLDialect.setupSQL` for this database (see the protocol for its meaning).
  public var setupSQL: [String] { PostgreSQLDialect.setupSQL }
}
