/// What a database can do, as data: the compiler asks these questions instead of testing
/// which database it is compiling for. `SQLiteDialect`, `PostgreSQLDialect` and `MySQLDialect`
/// answer them.
///
/// ```swift
/// let d: any SQLDialect = PostgreSQLDialect()
/// d.placeholder(2)                 // "$2"
/// d.quoteIdentifier("a\"b")        // "\"a\"\"b\""
/// ```
public protocol SQLDialect: Sendable {
  /// A short name for messages and golden files: `sqlite`, `postgresql`.
  var name: String { get }
  /// The text of the `index`-th placeholder (1-based): `?` or `$index`.
  func placeholder(_ index: Int) -> String
  /// True when placeholders carry their position (`$1`, `$2`), false when all are alike (`?`).
  var placeholdersAreNumbered: Bool { get }
  /// Quotes an identifier, doubling embedded quotes: `a"b` → `"a""b"`.
  func quoteIdentifier(_ name: String) -> String
  /// Whether `x IN ()` is valid SQL (SQLite yes, PostgreSQL no). Sift never emits it either
  /// way (an empty list compiles to `1 = 0`), but the capability is documented here.
  var supportsEmptyInList: Bool { get }
  /// How a boolean is bound: `.integer(0/1)` for SQLite, `.bool` for PostgreSQL.
  func bindBool(_ value: Bool) -> SQLValue
  /// True when booleans are stored as integers and mix freely with numbers (SQLite). When
  /// false, a boolean operand meeting a number is cast to an integer first.
  var booleansAreIntegers: Bool { get }
  /// Null-safe equality: `IS` (SQLite) or `IS NOT DISTINCT FROM` (PostgreSQL).
  var nullSafeEqualOperator: String { get }
  /// Null-safe inequality: `IS NOT` (SQLite) or `IS DISTINCT FROM` (PostgreSQL).
  var nullSafeNotEqualOperator: String { get }
  /// Whether `ORDER BY x NULLS FIRST/LAST` is accepted (SQLite ≥ 3.30, PostgreSQL).
  var supportsNullsOrdering: Bool { get }
  /// The LIMIT value meaning "no limit" when an OFFSET needs a LIMIT (`-1` for SQLite); nil
  /// when `OFFSET n` may stand alone (PostgreSQL).
  var unlimitedLimit: SQLValue? { get }
  /// Name of the `(text, options) → text` folding function for `[c]`/`[d]` (`sift_fold`).
  var foldFunction: String { get }
  /// True when folding constants in Swift (`TextFolding.fold`) gives exactly what the
  /// database's fold function gives, so constants are folded before binding (SQLite, whose
  /// function *is* `TextFolding.fold`). False means constants are folded in SQL too.
  var foldsConstantsInSwift: Bool { get }
  /// How `CONTAINS`/`BEGINSWITH`/`ENDSWITH` are compiled.
  var stringSearch: SQLStringSearchStyle { get }
  /// `(haystack, needle) → 1-based position or 0`: `instr` (SQLite), `strpos` (PostgreSQL).
  var positionFunction: String { get }
  /// True when text compares by code point (UTF-8 bytes), so an unoptioned BEGINSWITH with a
  /// constant becomes the index-friendly range `x >= ? AND x < ?`.
  var prefixRangeScan: Bool { get }
  /// Operators (`>=`, `<`) comparing text by bytes whatever its collation, for the range a
  /// `BEGINSWITH[c]`/`[d]` with a constant becomes on a folded column (PostgreSQL `~>=~` and
  /// `~<~`, served by a `text_pattern_ops` index with no per-row recheck), or nil (the default).
  var bytewiseRangeOperators: (greaterOrEqual: String, less: String)? { get }
  /// A registered `(text, pattern, options)` LIKE function (SQLite `sift_like`), or nil to
  /// translate the pattern to SQL `LIKE … ESCAPE '\'` (PostgreSQL).
  var likeFunction: String? { get }
  /// How MATCHES is compiled.
  var regex: SQLRegexStyle { get }
  /// Collation that orders text by code point, appended to ordering comparisons (`"C"` on
  /// PostgreSQL); nil when the default already does (SQLite BINARY).
  var codePointCollation: String? { get }
  /// Collation for localized-standard sorting (`SIFT_LOCALIZED` registered by SiftSQLite,
  /// `sift.sift_localized` from `setupSQL` on PostgreSQL, `schema.name` quoted part by part);
  /// nil if unavailable.
  var localizedCollation: String? { get }
  /// The ORDER BY keys, in turn, that sort the text `value` (SQL without bindings) in
  /// localized-standard order, used instead of `localizedCollation` when given (PostgreSQL's
  /// keys over `sift.sift_localized_*`, built the way memory compares, Grammar/notes/fetch.md);
  /// nil by default.
  func localizedSortKeys(_ value: String) -> [String]?
  /// The ORDER BY keys, in turn, that sort the text `value` in `localizedCompare:` order
  /// (`SiftSortOrder.localized`); nil when the dialect cannot (the sort is then refused).
  func localizedCompareSortKeys(_ value: String) -> [String]?
  /// `(base, exponent) → number`: `sift_pow` (registered; see `powerKeepsIntegers`) or `power`.
  var powerFunction: String { get }
  /// The SQL function for a one-argument math built-in (`sqrt`, `ln`, `log`, `exp`,
  /// `ceiling`, `floor`, `trunc`), or nil if the database has none.
  func mathFunction(_ name: String) -> String?
  /// `(a, b)` integer division that truncates and raises an error for a zero divisor, as
  /// memory does; nil when the native `/` already behaves so (PostgreSQL).
  var integerDivisionFunction: String? { get }
  /// `(a, b)` division of doubles with IEEE results (±infinity, NaN) for a zero divisor, as
  /// memory; nil when the native `/` does so.
  var realDivisionFunction: String? { get }
  /// `(a, b)` remainder that raises for a zero integer divisor and uses `fmod` for doubles;
  /// nil to use `%` on integers only (PostgreSQL, which raises on zero).
  var modulusFunction: String? { get }
  /// Unicode upper-/lower-casing functions.
  var uppercaseFunction: String { get }
  /// See `uppercaseFunction`.
  var lowercaseFunction: String { get }
  /// A type both integers and doubles convert to exactly (`NUMERIC` on PostgreSQL, which
  /// otherwise compares `bigint` with `double precision` as doubles and loses precision
  /// beyond 2^53); nil when mixed comparisons are already exact (SQLite).
  var exactNumericTypeName: String? { get }
  /// Type names for `CAST(x AS …)`: a double and a 64-bit integer.
  var doubleTypeName: String { get }
  /// See `doubleTypeName`.
  var integerTypeName: String { get }
  /// The type a boolean is cast to for arithmetic and ordering where booleans are not numbers.
  var booleanIntegerTypeName: String { get }
  /// A function taking a double to the exact value of `exactNumericTypeName` (nil: cast its
  /// shortest text, exact only below 2^53).
  var exactDoubleFunction: String? { get }
  /// The bitwise XOR operator (`#` on PostgreSQL), or nil to emulate it as `(a | b) - (a & b)`.
  var xorOperator: String? { get }
  /// Whether `<<`/`>>` behave like Swift's smart shifts (SQLite yes; PostgreSQL takes the
  /// count modulo 64, so shifts are refused there).
  var supportsSmartShifts: Bool { get }
  /// How scalar-array attributes are stored.
  var arrayRepresentation: SQLArrayRepresentation { get }
  /// Column type for an attribute type (`TEXT`, `BIGINT`, …); arrays live in side tables.
  func columnType(_ type: SQLAttributeType) -> String
  /// Statements to run once per connection/database before compiled SQL can run (functions
  /// the compiled SQL calls). Empty for SQLite, whose functions SiftSQLite registers in C.
  var setupSQL: [String] { get }
  /// The parser stack a WHERE fragment may need, in `SQLParserDepth` estimate units, or nil
  /// when the database's parser has no practical limit. Deeper predicates are refused at
  /// compile time (`too-deep-for-sql`) instead of failing to prepare.
  var parserStackLimit: Int? { get }
  /// A function that passes integers and NULL through and fails on anything else, wrapped
  /// around computed operands of bitwise operators: arithmetic that overflows gives a double
  /// (as in memory), which SQLite's `&` would silently truncate where memory reports
  /// `bitwise-needs-integers`. Nil when the database fails on overflow itself (PostgreSQL).
  var integerCheckFunction: String? { get }
  /// The per-row checks of a column that keeps any kind (`SQLAttributeType.any`), or nil when
  /// the database has no such column (PostgreSQL: the attribute is refused). `orderable(x, y)`
  /// is `x` unless both are non-NULL and not both numbers or both text (then the error
  /// `incomparable-values`, as memory); `text(x, c)` is `x` when text or NULL, else
  /// `not-a-string` (`not-a-collection` when `c` is 1: the container of `IN`/`CONTAINS`).
  var anyValueChecks: (orderable: String, text: String)? { get }
  /// True when `powerFunction` keeps integers exact as memory does (an integer result while
  /// both operands are integers, the exponent is non-negative and the result fits): `**` of
  /// two integers is then typed as an integer. False: the power is always a double.
  var powerKeepsIntegers: Bool { get }
  /// The `abs` function: one that, as memory, gives the double 2^63 for `Int64.min` (SQLite's
  /// registered `sift_abs`; SQLite's own `abs` raises "integer overflow"), or the native `abs`
  /// where overflow is an error anyway (PostgreSQL: "bigint out of range").
  var absoluteValueFunction: String { get }
  /// True when `mathFunction` for `ceiling`, `floor` and `trunc` passes integers through
  /// unchanged (SQLite's registered functions), so operands of unknown type need no cast to
  /// a double. Operands typed as integers never reach the function (the rounding of a whole
  /// number is itself); others are cast to a double when this is false.
  var roundingKeepsIntegers: Bool { get }
  /// True when the database stores a NaN result as NULL (SQLite). Memory keeps NaN, which is
  /// not nil, so the compiler then tests a possibly-NaN value for nil through its operands
  /// (`SQLExpr.nilWhen`) instead of with `IS NULL`.
  var nanBecomesNull: Bool { get }
  /// The aggregate for `@sum`: as memory, integers exactly until the sum overflows, then in
  /// doubles (SQLite's registered `sift_sum`; SQLite's own `SUM` raises "integer overflow"),
  /// or the native `SUM` (PostgreSQL: numeric for bigint, exact).
  var sumFunction: String { get }
  /// The aggregate for `@avg` over doubles: as memory, the plain left-to-right sum divided by
  /// the count (SQLite's registered `sift_avg`; SQLite 3.43+ `AVG` compensates rounding), or
  /// the native `AVG`.
  var averageFunction: String { get }
  /// True when the database computes `-x` as `0 - x`, so `-(0.0)` is +0.0 (SQLite); negation
  /// is then compiled as `x * -1`, which keeps IEEE's -0.0 as memory does.
  var negationLosesSignedZero: Bool { get }
  /// How the native types of a database Sift did not create are read (JSON arrays, native
  /// arrays, native dates, `numeric`, `uuid`): `.sqlite` or `.postgres`.
  var nativeTypes: SQLNativeTypeStyle { get }
  /// How compiled SQL calls one of Sift's conversion functions (CAST between kinds and the
  /// `FUNCTION` selectors that need one), or nil when the dialect has none: the CAST or
  /// selector that needs it is then refused (`unsupported-in-sql`).
  func conversionFunction(_ conversion: SQLConversion) -> String?
  /// A collation put on every text column the compiled SQL reads (`col COLLATE c`), so that
  /// comparisons, `LIKE`, `GROUP BY` and `DISTINCT` on it are by code point without padding
  /// whatever the column's own collation (MySQL's `utf8mb4_nopad_bin`); nil when the database
  /// already compares so or `codePointCollation` serves (the default).
  var textColumnCollation: String? { get }
  /// True when null-safe inequality is written `NOT (x <=> y)` (MySQL, which has no
  /// `IS DISTINCT FROM`) instead of `x nullSafeNotEqualOperator y`; false by default.
  var negatesNullSafeEqual: Bool { get }
  /// The function giving a text's length in characters, as `left`/`right` count them:
  /// `length` (SQLite, PostgreSQL) or `CHAR_LENGTH` (MySQL, whose `length` counts bytes).
  var characterLengthFunction: String { get }
  /// The column type of a key, a foreign key or an indexed column of this attribute type
  /// (MySQL indexes no `LONGTEXT`: `VARCHAR(768)` there); `columnType` by default.
  func keyColumnType(_ type: SQLAttributeType) -> String
  /// The start of a batch delete of `table` (quoted) under the alias `t0`: `DELETE FROM table AS t0`
  /// by default, `DELETE t0 FROM table AS t0` on MariaDB (which takes no alias otherwise).
  func deleteHead(_ table: String) -> String
  /// `(a, b)` integer remainder that truncates and raises for a zero divisor, used when both
  /// operands are integers and `modulusFunction` is nil (MySQL's `%` gives NULL for zero); nil
  /// to use `%`.
  var integerModulusFunction: String? { get }
  /// True when `x IN (SELECT … LIMIT n)` must read the page through a derived table,
  /// `x IN (SELECT * FROM (SELECT … LIMIT n) sift_page)` (MariaDB and MySQL refuse the former).
  var limitInSubqueryNeedsDerivedTable: Bool { get }
  /// Whether `UPDATE`/`DELETE … RETURNING` is available (SQLite, PostgreSQL); when false
  /// (MariaDB, MySQL) a batch write reads the keys it will change first, locked (`FOR UPDATE`),
  /// in its transaction.
  var supportsReturning: Bool { get }
  /// The CAST target of text: `TEXT`, or `CHAR` on MySQL.
  var textTypeName: String { get }
  /// The escape character of `LIKE … ESCAPE e` as SQL: `'\\'`, or `CHAR(92)` on MySQL, whose
  /// string literals read a backslash as an escape unless the session's sql_mode says otherwise.
  var likeEscape: String { get }
  /// True when `&`, `|` and XOR give unsigned 64-bit results (MySQL): the result is then cast
  /// back to a signed integer (`CAST(x AS SIGNED)`, two's complement, as memory).
  var bitwiseResultsAreUnsigned: Bool { get }
}

/// Sift's SQL functions for CAST between kinds and `FUNCTION(x, 'length')`, each the SQL twin
/// of a SiftSyntax rule memory runs (Grammar/notes/sql.md, "CAST and selectors"). SQLite has
/// them per connection (`SQLiteFunctions`); PostgreSQL in the setup's schema.
///
/// ```swift
/// SQLiteDialect().conversionFunction(.numberText)   // "sift_number_text"
/// ```
public enum SQLConversion: String, Sendable, Hashable, CaseIterable {
  /// `sift_number_text(x)`: a number as `CAST(x, "NSString")` prints it (`SiftNumberText.text`).
  case numberText = "sift_number_text"
  /// `sift_text_number(s)`: the number text spells, or NULL (`SiftNumberText.number`).
  case textNumber = "sift_text_number"
  /// `sift_text_date(s)`: ISO-8601 text as seconds since 2001; an error when it is no date.
  case textDate = "sift_text_date"
  /// `sift_date_text(x)`: seconds since 2001 as `CAST(date, "NSString")` prints them.
  case dateText = "sift_date_text"
  /// `sift_utf16_length(s)`: the UTF-16 code units of `s` (`NSString.length`).
  case utf16Length = "sift_utf16_length"
}

extension SQLDialect {
  /// None unless the dialect has them: `localizedCollation` orders localized sorts.
  public func localizedSortKeys(_ value: String) -> [String]? { nil }
  /// None unless the dialect has them: a `localizedCompare:` sort is refused.
  public func localizedCompareSortKeys(_ value: String) -> [String]? { nil }
  /// None unless the dialect has them.
  public var bytewiseRangeOperators: (greaterOrEqual: String, less: String)? { nil }
  /// No limit unless the dialect says so (PostgreSQL's parser stack grows to 10,000 entries).
  public var parserStackLimit: Int? { nil }
  /// Booleans cast to `integerTypeName` unless the dialect says otherwise.
  public var booleanIntegerTypeName: String { integerTypeName }
  /// No exact-double function unless the dialect has one.
  public var exactDoubleFunction: String? { nil }
  /// No check function unless the dialect has one.
  public var integerCheckFunction: String? { nil }
  /// No column of any kind unless the dialect has one.
  public var anyValueChecks: (orderable: String, text: String)? { nil }
  /// The power is a double unless the dialect says otherwise.
  public var powerKeepsIntegers: Bool { false }
  /// The native `abs` unless the dialect has a better one.
  public var absoluteValueFunction: String { "abs" }
  /// Rounding functions take doubles unless the dialect says otherwise.
  public var roundingKeepsIntegers: Bool { false }
  /// NaN is a value unless the dialect says otherwise.
  public var nanBecomesNull: Bool { false }
  /// The native `SUM` unless the dialect has a better one.
  public var sumFunction: String { "SUM" }
  /// The native `AVG` unless the dialect has a better one.
  public var averageFunction: String { "AVG" }
  /// `-x` is IEEE negation unless the dialect says otherwise.
  public var negationLosesSignedZero: Bool { false }
  /// SQLite's functions (`json_each`, `julianday`) unless the dialect says otherwise.
  public var nativeTypes: SQLNativeTypeStyle { .sqlite }
  /// No conversion functions unless the dialect has them.
  public func conversionFunction(_ conversion: SQLConversion) -> String? { nil }
  /// No collation on text columns unless the dialect needs one.
  public var textColumnCollation: String? { nil }
  /// Null-safe inequality is an operator unless the dialect says otherwise.
  public var negatesNullSafeEqual: Bool { false }
  /// `length` unless the dialect says otherwise.
  public var characterLengthFunction: String { "length" }
  /// `columnType` unless the dialect says otherwise.
  public func keyColumnType(_ type: SQLAttributeType) -> String { columnType(type) }
  /// `DELETE FROM table AS t0` unless the dialect says otherwise.
  public func deleteHead(_ table: String) -> String { "DELETE FROM " + table + " AS t0" }
  /// `%` unless the dialect has a function.
  public var integerModulusFunction: String? { nil }
  /// A LIMIT in an IN subquery is fine unless the dialect says otherwise.
  public var limitInSubqueryNeedsDerivedTable: Bool { false }
  /// `RETURNING` unless the dialect says otherwise.
  public var supportsReturning: Bool { true }
  /// `TEXT` unless the dialect says otherwise.
  public var textTypeName: String { "TEXT" }
  /// `'\\'` unless the dialect says otherwise.
  public var likeEscape: String { "'\\'" }
  /// Bitwise results are signed unless the dialect says otherwise.
  public var bitwiseResultsAreUnsigned: Bool { false }

  /// Default quoting: double quotes, embedded quotes doubled (both databases).
  public func quoteIdentifier(_ name: String) -> String {
    if !name.utf8.contains(0x22) { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// How string searches compile (see `SQLDialect.stringSearch`).
///
/// ```swift
/// SQLiteDialect().stringSearch   // .registeredFunction("sift_search")
/// ```
public enum SQLStringSearchStyle: Sendable, Hashable {
  /// `name(haystack, needle, kind, options)` with kind a `TextSearch.Position`'s wire code;
  /// used when options are present (unoptioned CONTAINS uses the position function).
  case registeredFunction(String)
  /// `haystack LIKE pattern ESCAPE '\'` with the needle's `\ % _` escaped in Swift.
  case likePatterns
}

/// How MATCHES compiles (see `SQLDialect.regex`).
///
/// ```swift
/// PostgreSQLDialect().regex   // .anchoredOperator(caseSensitive: "~", caseInsensitive: "~*")
/// ```
public enum SQLRegexStyle: Sendable, Hashable {
  /// A registered `(text, pattern, options)` function with whole-string ICU semantics.
  case registeredFunction(String)
  /// An operator applied to `'^(?:' || pattern || ')$'`.
  case anchoredOperator(caseSensitive: String, caseInsensitive: String)
  /// A PCRE operator (MariaDB's `REGEXP`) applied to
  /// `'(*ANY)(*UCP)^(?:' || pattern || ')\z'` (`(?i)` after the verbs for `[c]`): line
  /// terminators as ICU's, Unicode classes, the whole string. Constant patterns whose syntax
  /// ICU and PCRE read differently are refused at compile time (Grammar/notes/mysql.md).
  case anchoredPCRE(operator: String)
}

/// Storage of scalar-array attributes (`tags: stringArray`).
///
/// ```swift
/// SQLiteDialect().arrayRepresentation   // .sideTable
/// ```
public enum SQLArrayRepresentation: Sendable, Hashable {
  /// A table `<table>__<column>(owner, position, value)`; the same EXISTS/COUNT machinery
  /// as to-many relationships works on both databases.
  case sideTable
}

extension SQLDialect {
  /// The mean of the numeric values of `v` as a double, nil when there are none (`average:`,
  /// `@avg`): the dialect's own function, or for the native `AVG` a plain sum over the count,
  /// as memory computes it (PostgreSQL's `AVG(double precision)` also sums the squares and
  /// fails with "value out of range" once they overflow, e.g. at 1e300).
  func average(of v: SQLFragment) -> SQLFragment {
    if averageFunction.uppercased() == "AVG" {
      return SQLFragment("(SUM(CAST(\(v) AS \(sql: doubleTypeName))) / NULLIF(COUNT(\(v)), 0))")
    }
    return SQLFragment("\(sql: averageFunction)(CAST(\(v) AS \(sql: doubleTypeName)))")
  }
}
