/// PostgreSQL 13+ (for `normalize`). `[c]`/`[d]` use `sift.sift_fold(text, int)`, defined by
/// `setupSQL` (in the schema `sift`) from the in-memory folding itself (`TextFolding.fold`, as data); MATCHES uses an
/// anchored `~`/`~*` (POSIX ARE, not ICU: see Grammar/notes/sql.md for the flavour differences).
///
/// ```swift
/// for sql in PostgreSQLDialect.setupSQL { try connection.executeScript(sql) }
/// ```
public struct PostgreSQLDialect: SQLDialect {
  /// The schema Sift's functions and collation live in (`sift`): compiled SQL calls them
  /// qualified (`sift.sift_fold(…)`), so they are found whatever the connection's `search_path`
  /// and a user's `DROP SCHEMA … CASCADE` does not take them away.
  public var functionSchema: String

  /// Creates the dialect; `functionSchema` is where `setupSQL(schema:)` put Sift's functions.
  public init(functionSchema: String = PostgreSQLDialect.defaultFunctionSchema) {
    self.functionSchema = functionSchema
  }

  /// `sift`: the schema `sift setup-sql` creates.
  public static let defaultFunctionSchema = "sift"

  /// Run once per database before compiled statements (`sift setup-sql`); idempotent (`CREATE
  /// OR REPLACE`), no extension needed. Creates the schema `sift` and in it: `sift_fold(s, opts)`:
  /// opts a `TextFoldCode` (1 `[c]`, 2 `[d]`), exactly as `TextFolding.fold` (the tables are built from it once
  /// per process, see `PostgresFoldingTable`; the database's encoding must be UTF8); NULL stays
  /// NULL. `sift_fdiv(a, b)`: double division with IEEE results for a zero divisor (its sign
  /// included: `1 / -0.0` is -infinity; NULL in, NULL out). `sift_exact(x)`: a double as the
  /// exact `numeric` it is, for comparing doubles with 64-bit integers (PostgreSQL's own casts
  /// keep 15 or 17 significant digits). For `.localizedStandard` sorts, ordered as memory orders
  /// (`SiftSortOrder.localizedStandard`), the collations `sift_localized_base` and
  /// `sift_localized_case` and the function `sift_localized_events` (ICU collations, so the server
  /// needs ICU: see `PostgresLocalizedSQL`). `sift_number_text`, `sift_text_number`,
  /// `sift_text_date` and `sift_utf16_length`: CAST between kinds and `FUNCTION(x, 'length')`
  /// (`PostgresCastSQL`). Then grants: `USAGE` on the schema and
  /// `EXECUTE` on its functions to `PUBLIC`, so any role that may read the tables may call them
  /// (`setupSQL(schema:grantees:)` names roles instead). The schema's comment names the setup's
  /// version (`setupVersion`). Re-run it after upgrading Sift.
  ///
  /// ```swift
  /// PostgreSQLDialect.setupSQL.count   // 15
  /// ```
  public static let setupSQL: [String] = setupSQL(schema: defaultFunctionSchema)

  /// `setupSQL` for functions in schema `schema` (a dialect made with `functionSchema: schema`
  /// calls them there), granted to `grantees` (role names; empty: `PUBLIC`). Naming roles revokes
  /// what `PUBLIC` was given, so exactly those roles (and the owner) may use the functions.
  ///
  /// ```swift
  /// PostgreSQLDialect.setupSQL(schema: "sift", grantees: ["app"]).last   // COMMENT ON SCHEMA sift …
  /// ```
  public static func setupSQL(schema: String, grantees: [String] = []) -> [String] {
    functionsSQL(schema: schema) + grantSQL(schema: schema, grantees: grantees) + [
      "COMMENT ON SCHEMA \(qualifier(schema)) IS 'Sift SQL functions, setup \(setupVersion)'"
    ]
  }

  /// The grants of the setup: `USAGE` on the schema and `EXECUTE` on every function in it, to
  /// `PUBLIC` (`grantees` empty) or to the roles named (each quoted), `PUBLIC`'s revoked.
  ///
  /// ```swift
  /// PostgreSQLDialect.grantSQL(schema: "sift", grantees: [])[0]   // GRANT USAGE ON SCHEMA sift TO PUBLIC
  /// ```
  public static func grantSQL(schema: String, grantees: [String]) -> [String] {
    let s = qualifier(schema)
    let to =
      grantees.isEmpty
      ? "PUBLIC"
      : grantees.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        .joined(separator: ", ")
    let revoke =
      grantees.isEmpty
      ? [] : ["REVOKE USAGE ON SCHEMA \(s) FROM PUBLIC", "REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA \(s) FROM PUBLIC"]
    return revoke + ["GRANT USAGE ON SCHEMA \(s) TO \(to)", "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA \(s) TO \(to)"]
  }

  /// The setup's statements without the grants and the schema's comment.
  static func functionsSQL(schema: String) -> [String] {
    let s = qualifier(schema)
    return [
      "CREATE SCHEMA IF NOT EXISTS " + s,
      PostgresFoldingSQL.function(schema: s),
      """
      CREATE OR REPLACE FUNCTION \(s).sift_fdiv(a double precision, b double precision) RETURNS double precision
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE
          WHEN b <> 0 THEN a / b
          WHEN a = 0 OR a = 'NaN'::double precision THEN 'NaN'::double precision
          WHEN (a > 0) = (atan2(b, -1) > 0) THEN 'Infinity'::double precision
          ELSE '-Infinity'::double precision END
      $$
      """,
      // Doubles of magnitude 2^53 to 2^63 are integers whose shortest text rounds (2^60 prints as
      // 1.152921504606847e+18): those convert through bigint, exactly. Below 2^53 the shortest
      // text orders the same against every integer (an integer closer than half a step would be
      // a double itself); at and above 2^63 it is beyond every bigint, as the double is.
      """
      CREATE OR REPLACE FUNCTION \(s).sift_exact(x double precision) RETURNS numeric
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE
          WHEN abs(x) >= '9007199254740992'::double precision
            AND x >= '-9223372036854775808'::double precision AND x < '9223372036854775808'::double precision
          THEN x::bigint::numeric
          ELSE x::text::numeric END
      $$
      """,
    ] + PostgresLocalizedSQL.statements(schema: s)
      // CAST between kinds and FUNCTION(x, 'length'): their own block (PostgresCastSQL).
      + PostgresCastSQL.functions(schema: s)
  }

  /// A digest of the setup's text with its default grants (FNV-1a, hex), written into the
  /// schema's comment, so a runner can tell a current setup from one an older Sift made.
  public static let setupVersion: String = {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let text = functionsSQL(schema: defaultFunctionSchema) + grantSQL(schema: defaultFunctionSchema, grantees: [])
    for byte in text.joined(separator: ";").utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }()

  /// `schema` as it is written before a function's name: bare when it is a plain lower-case
  /// identifier (`sift`), else quoted.
  package static func qualifier(_ schema: String) -> String {
    let plain =
      !schema.isEmpty && schema.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || $0 == 95 || ($0 >= 48 && $0 <= 57) }
      && !(schema.utf8.first.map { $0 >= 48 && $0 <= 57 } ?? true)
    return plain ? schema : "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `SQLDialect.name` for this database (see the protocol for its meaning).
  public var name: String { "postgresql" }
  /// `SQLDialect.nativeTypes` for this database (see the protocol for its meaning).
  public var nativeTypes: SQLNativeTypeStyle { .postgres }
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
  public var foldFunction: String { Self.qualifier(functionSchema) + ".sift_fold" }
  /// `SQLDialect.foldsConstantsInSwift` for this database (see the protocol for its meaning).
  public var foldsConstantsInSwift: Bool { false }
  /// `SQLDialect.stringSearch` for this database (see the protocol for its meaning).
  public var stringSearch: SQLStringSearchStyle { .likePatterns }
  /// `SQLDialect.positionFunction` for this database (see the protocol for its meaning).
  public var positionFunction: String { "strpos" }
  /// `SQLDialect.prefixRangeScan` for this database (see the protocol for its meaning).
  public var prefixRangeScan: Bool { false }
  /// `SQLDialect.bytewiseRangeOperators` for this database (see the protocol for its meaning).
  public var bytewiseRangeOperators: (greaterOrEqual: String, less: String)? { ("~>=~", "~<~") }
  /// `SQLDialect.likeFunction` for this database (see the protocol for its meaning).
  public var likeFunction: String? { nil }
  /// `SQLDialect.regex` for this database (see the protocol for its meaning).
  public var regex: SQLRegexStyle { .anchoredOperator(caseSensitive: "~", caseInsensitive: "~*") }
  /// `SQLDialect.codePointCollation` for this database (see the protocol for its meaning).
  public var codePointCollation: String? { "C" }
  /// `SQLDialect.localizedCollation` for this database (see the protocol for its meaning).
  public var localizedCollation: String? { functionSchema + ".sift_localized" }
  /// `SQLDialect.localizedCompareSortKeys`: the compatibility form under ICU's root collation
  /// (`und-x-icu`, which PostgreSQL builds with ICU always have), final sigma read as sigma
  /// (Foundation's `localizedCompare` finds them equal, ICU orders them apart), then the text by
  /// code point: the order of `SiftSortOrder.localized` (Grammar/notes/fetch.md).
  public func localizedCompareSortKeys(_ value: String) -> [String]? {
    [
      "translate(normalize(" + value + ", NFKC), chr(962), chr(963)) COLLATE \"und-x-icu\"",
      value + " COLLATE \"C\"",
    ]
  }

  /// `SQLDialect.localizedSortKeys` for this database: the keys of `PostgresLocalizedSQL`, which
  /// order as memory does (`localizedCollation` alone is ICU's order, not Foundation's).
  public func localizedSortKeys(_ value: String) -> [String]? {
    PostgresLocalizedSQL.keys(value, schema: functionSchema)
  }
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
  public var realDivisionFunction: String? { Self.qualifier(functionSchema) + ".sift_fdiv" }
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
  /// `SQLDialect.exactDoubleFunction` for this database (see the protocol for its meaning).
  public var exactDoubleFunction: String? { Self.qualifier(functionSchema) + ".sift_exact" }
  /// `SQLDialect.booleanIntegerTypeName` for this database (see the protocol for its meaning):
  /// PostgreSQL casts a boolean to `integer` only, never to `bigint`.
  public var booleanIntegerTypeName: String { "INTEGER" }
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
    case .data, .any: return "BYTEA"  // no column of PostgreSQL keeps any kind; `.any` is refused there
    }
  }
  /// `SQLDialect.conversionFunction`: those `setupSQL` creates (`PostgresCastSQL`); no
  /// `sift_date_text`, so `CAST(date, "NSString")` is refused.
  public func conversionFunction(_ conversion: SQLConversion) -> String? {
    conversion == .dateText ? nil : Self.qualifier(functionSchema) + "." + conversion.rawValue
  }
  /// `SQLDialect.setupSQL` for this database (see the protocol for its meaning).
  public var setupSQL: [String] { PostgreSQLDialect.setupSQL }
}
