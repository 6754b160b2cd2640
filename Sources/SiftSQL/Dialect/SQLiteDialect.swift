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
  public var name: String { "sqlite" }
  public func placeholder(_ index: Int) -> String { "?" }
  public var placeholdersAreNumbered: Bool { false }
  public var supportsEmptyInList: Bool { true }
  public func bindBool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
  public var booleansAreIntegers: Bool { true }
  public var nullSafeEqualOperator: String { "IS" }
  public var nullSafeNotEqualOperator: String { "IS NOT" }
  public var supportsNullsOrdering: Bool { true }
  public var unlimitedLimit: SQLValue? { .integer(-1) }
  public var foldFunction: String { "sift_fold" }
  public var foldsConstantsInSwift: Bool { true }
  public var stringSearch: SQLStringSearchStyle { .registeredFunction("sift_search") }
  public var positionFunction: String { "instr" }
  public var prefixRangeScan: Bool { true }
  public var likeFunction: String? { "sift_like" }
  public var regex: SQLRegexStyle { .registeredFunction("sift_matches") }
  public var codePointCollation: String? { nil }
  public var localizedCollation: String? { "SIFT_LOCALIZED" }
  public var powerFunction: String { "sift_pow" }
  public func mathFunction(_ name: String) -> String? { "sift_" + name }
  public var integerDivisionFunction: String? { "sift_div" }
  public var realDivisionFunction: String? { "sift_div" }
  public var modulusFunction: String? { "sift_mod" }
  public var uppercaseFunction: String { "sift_upper" }
  public var lowercaseFunction: String { "sift_lower" }
  public var exactNumericTypeName: String? { nil }
  public var doubleTypeName: String { "REAL" }
  public var integerTypeName: String { "INTEGER" }
  public var xorOperator: String? { nil }
  public var supportsSmartShifts: Bool { true }
  public var arrayRepresentation: SQLArrayRepresentation { .sideTable }
  public func columnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string: return "TEXT"
    case .integer, .boolean: return "INTEGER"
    case .double, .date: return "REAL"
    case .data: return "BLOB"
    case .stringArray: return "TEXT"
    case .integerArray: return "INTEGER"
    case .doubleArray: return "REAL"
    }
  }
  public var setupSQL: [String] { [] }
}
