/// SQLite 3.30+ with the functions `SiftSQLite` registers on every connection
/// (`sift_fold`, `sift_search`, `sift_like`, `sift_matches`, `regexp`, `sift_pow`, math and
/// case functions, and the `SIFT_LOCALIZED` collation).
///
/// ```swift
/// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
/// ```
public struct SQLiteDialect: SQLDialect {
  /// Creates the dialect.
  public init() {}
  /// `SQLDialect.name` for this database (see the protocol for its meaning).
  public var name: String { "sqlite" }
  /// `SQLDialect.placeholder` for this database (see the protocol for its meaning).
  public func placeholder(_ index: Int) -> String { "?" }
  /// `SQLDialect.placeholdersAreNumbered` for this database (see the protocol for its meaning).
  public var placeholdersAreNumbered: Bool { false }
  /// `SQLDialect.supportsEmptyInList` for this database (see the protocol for its meaning).
  public var supportsEmptyInList: Bool { true }
  /// `SQLDialect.bindBool` for this database (see the protocol for its meaning).
  public func bindBool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
  /// `SQLDialect.booleansAreIntegers` for this database (see the protocol for its meaning).
  public var booleansAreIntegers: Bool { true }
  /// `SQLDialect.nullSafeEqualOperator` for this database (see the protocol for its meaning).
  public var nullSafeEqualOperator: String { "IS" }
  /// `SQLDialect.nullSafeNotEqualOperator` for this database (see the protocol for its meaning).
  public var nullSafeNotEqualOperator: String { "IS NOT" }
  /// `SQLDialect.supportsNullsOrdering` for this database (see the protocol for its meaning).
  public var supportsNullsOrdering: Bool { true }
  /// `SQLDialect.unlimitedLimit` for this database (see the protocol for its meaning).
  public var unlimitedLimit: SQLValue? { .integer(-1) }
  /// `SQLDialect.foldFunction` for this database (see the protocol for its meaning).
  public var foldFunction: String { "sift_fold" }
  /// `SQLDialect.foldsConstantsInSwift` for this database (see the protocol for its meaning).
  public var foldsConstantsInSwift: Bool { true }
  /// `SQLDialect.stringSearch` for this database (see the protocol for its meaning).
  public var stringSearch: SQLStringSearchStyle { .registeredFunction("sift_search") }
  /// `SQLDialect.positionFunction` for this database (see the protocol for its meaning).
  public var positionFunction: String { "instr" }
  /// `SQLDialect.prefixRangeScan` for this database (see the protocol for its meaning).
  public var prefixRangeScan: Bool { true }
  /// `SQLDialect.parserStackLimit`: SQLite before 3.46 stops at 100 parser stack entries; 20
  /// are left for the statement around the WHERE fragment (`SELECT COUNT(*) FROM (SELECT …`).
  public var parserStackLimit: Int? { 80 }
  /// `SQLDialect.integerCheckFunction` for this database (see the protocol for its meaning).
  public var integerCheckFunction: String? { "sift_int" }
  /// `SQLDialect.anyValueChecks` for this database (see the protocol for its meaning).
  public var anyValueChecks: (orderable: String, text: String)? { ("sift_orderable", "sift_text") }
  /// `SQLDialect.powerKeepsIntegers`: `sift_pow` follows `NumberRules.exactPower`, as memory.
  public var powerKeepsIntegers: Bool { true }
  /// `SQLDialect.absoluteValueFunction`: `sift_abs` (`abs(Int64.min)` is 2^63, as memory).
  public var absoluteValueFunction: String { "sift_abs" }
  /// `SQLDialect.roundingKeepsIntegers`: `sift_ceiling`/`sift_floor`/`sift_trunc` pass
  /// integers through.
  public var roundingKeepsIntegers: Bool { true }
  /// `SQLDialect.nanBecomesNull`: SQLite has no NaN; a NaN result (`sqrt(-1)`, `0.0 / 0`,
  /// `inf - inf`) is stored as NULL.
  public var nanBecomesNull: Bool { true }
  /// `SQLDialect.sumFunction`: `sift_sum` (overflow continues in doubles, as memory).
  public var sumFunction: String { "sift_sum" }
  /// `SQLDialect.averageFunction`: `sift_avg` (a plain sum, as memory).
  public var averageFunction: String { "sift_avg" }
  /// `SQLDialect.negationLosesSignedZero`: SQLite codes `-x` as `0 - x`.
  public var negationLosesSignedZero: Bool { true }
  /// `SQLDialect.likeFunction` for this database (see the protocol for its meaning).
  public var likeFunction: String? { "sift_like" }
  /// `SQLDialect.regex` for this database (see the protocol for its meaning).
  public var regex: SQLRegexStyle { .registeredFunction("sift_matches") }
  /// `SQLDialect.codePointCollation` for this database (see the protocol for its meaning).
  public var codePointCollation: String? { nil }
  /// `SQLDialect.localizedCollation` for this database (see the protocol for its meaning).
  public var localizedCollation: String? { "SIFT_LOCALIZED" }
  /// `SQLDialect.localizedCompareSortKeys`: the `SIFT_LOCALIZED_COMPARE` collation SiftSQLite
  /// registers (`SiftSortOrder.localized`).
  public func localizedCompareSortKeys(_ value: String) -> [String]? { [value + " COLLATE \"SIFT_LOCALIZED_COMPARE\""] }
  /// `SQLDialect.powerFunction` for this database (see the protocol for its meaning).
  public var powerFunction: String { "sift_pow" }
  /// `SQLDialect.mathFunction` for this database (see the protocol for its meaning).
  public func mathFunction(_ name: String) -> String? { "sift_" + name }
  /// `SQLDialect.integerDivisionFunction` for this database (see the protocol for its meaning).
  public var integerDivisionFunction: String? { "sift_div" }
  /// `SQLDialect.realDivisionFunction` for this database (see the protocol for its meaning).
  public var realDivisionFunction: String? { "sift_div" }
  /// `SQLDialect.modulusFunction` for this database (see the protocol for its meaning).
  public var modulusFunction: String? { "sift_mod" }
  /// `SQLDialect.uppercaseFunction` for this database (see the protocol for its meaning).
  public var uppercaseFunction: String { "sift_upper" }
  /// `SQLDialect.lowercaseFunction` for this database (see the protocol for its meaning).
  public var lowercaseFunction: String { "sift_lower" }
  /// `SQLDialect.exactNumericTypeName` for this database (see the protocol for its meaning).
  public var exactNumericTypeName: String? { nil }
  /// `SQLDialect.doubleTypeName` for this database (see the protocol for its meaning).
  public var doubleTypeName: String { "REAL" }
  /// `SQLDialect.integerTypeName` for this database (see the protocol for its meaning).
  public var integerTypeName: String { "INTEGER" }
  /// `SQLDialect.xorOperator` for this database (see the protocol for its meaning).
  public var xorOperator: String? { nil }
  /// `SQLDialect.supportsSmartShifts` for this database (see the protocol for its meaning).
  public var supportsSmartShifts: Bool { true }
  /// `SQLDialect.arrayRepresentation` for this database (see the protocol for its meaning).
  public var arrayRepresentation: SQLArrayRepresentation { .sideTable }
  /// `SQLDialect.columnType` for this database (see the protocol for its meaning).
  public func columnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string: return "TEXT"
    case .integer, .boolean: return "INTEGER"
    case .double, .date: return "REAL"
    case .data, .any: return "BLOB"  // BLOB affinity: each value kept as given
    case .stringArray: return "TEXT"
    case .integerArray: return "INTEGER"
    case .doubleArray: return "REAL"
    }
  }
  /// `SQLDialect.conversionFunction`: every one, registered by `SQLiteFunctions`.
  public func conversionFunction(_ conversion: SQLConversion) -> String? { conversion.rawValue }
  /// `SQLDialect.setupSQL` for this database (see the protocol for its meaning).
  public var setupSQL: [String] { [] }
}
