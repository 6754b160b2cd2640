import SiftSyntax

/// MariaDB 10.6+ and MySQL 8 with the functions
/// `MySQLDialect.setupSQL` creates (`sift setup-sql --dialect mysql`, into the database the user
/// names; `sift` by default). Placeholders are `?`, identifiers are quoted with backticks. Every
/// text column is read under `utf8mb4_nopad_bin`, so `==`, `<`, `IN`, `LIKE`, `GROUP BY` and
/// `DISTINCT` compare by code point without padding whatever the column's collation; what
/// MariaDB cannot say as memory does is refused at compile time, or fails at run time with the
/// reason (Grammar/notes/mysql.md holds the table of differences and how the SQL compensates).
///
/// ```swift
/// let d = MySQLDialect()
/// d.quoteIdentifier("a`b")     // "`a``b`"
/// d.placeholder(2)             // "?"
/// ```
public struct MySQLDialect: SQLDialect {
  /// The database Sift's functions live in (`sift`): compiled SQL calls them qualified.
  public var functionDatabase: String

  /// Creates the dialect; `functionDatabase` is where `setupSQL(database:)` put Sift's functions.
  public init(functionDatabase: String = MySQLDialect.defaultFunctionDatabase) {
    self.functionDatabase = functionDatabase
  }

  /// `sift`: the database `sift setup-sql --dialect mysql` creates.
  public static let defaultFunctionDatabase = "sift"

  /// The collation every text column is read under and Sift's tables are made with: by code
  /// point (UTF-8 bytes), no padding (`'a' = 'a '` is false), case and accents distinct.
  public static let textCollation = "utf8mb4_nopad_bin"

  /// The statements creating Sift's functions in the database `sift` (idempotent: `CREATE OR
  /// REPLACE`); see `setupSQL(database:)`.
  public static let setupSQL: [String] = setupSQL(database: defaultFunctionDatabase)

  /// The statements creating, in `database`, the functions compiled SQL calls: `sift_fold(s,
  /// opts)` (`[c]`/`[d]`: exact for ASCII text, an error naming the limit for other text),
  /// `sift_idiv`/`sift_imod` (integer division and remainder, truncating, an error for a zero
  /// divisor as memory), `sift_fdiv` (double division; a zero divisor is an error, as MariaDB
  /// has no infinity), `sift_exact` (a double as the exact DECIMAL, to meet a BIGINT) and
  /// `sift_utf16_length` (`NSString.length`). Each is one statement (no
  /// `DELIMITER` needed through the client library).
  ///
  /// ```swift
  /// MySQLDialect.setupSQL(database: "sift").count   // 7
  /// ```
  public static func setupSQL(database: String) -> [String] {
    let d = MySQLDialect(functionDatabase: database)
    let text = "LONGTEXT CHARACTER SET utf8mb4 COLLATE " + textCollation
    let mask = TextFoldCode.mask, c = TextFoldCode.caseInsensitive.sql
    let supplementary = "'[^\u{10000}-\u{10FFFF}]'"
    return [
      "CREATE DATABASE IF NOT EXISTS " + d.quoteIdentifier(database) + " CHARACTER SET utf8mb4 COLLATE "
        + textCollation,
      """
      CREATE OR REPLACE FUNCTION \(d.foldFunction)(s \(text), opts INT) RETURNS \(text)
      DETERMINISTIC NO SQL
      BEGIN
        IF s IS NULL OR opts & \(mask) = 0 THEN RETURN s; END IF;
        IF LENGTH(s) <> CHAR_LENGTH(s) THEN
          SIGNAL SQLSTATE '0A000' SET MESSAGE_TEXT =
            '[c]/[d] of text beyond ASCII is not available on MariaDB/MySQL (Grammar/notes/mysql.md)';
        END IF;
        IF opts & \(c) = \(c) THEN RETURN LOWER(s); END IF;
        RETURN s;
      END
      """,
      """
      CREATE OR REPLACE FUNCTION \(d.function("sift_idiv"))(a BIGINT, b BIGINT) RETURNS BIGINT
      DETERMINISTIC NO SQL
      BEGIN
        IF b = 0 THEN SIGNAL SQLSTATE '22012' SET MESSAGE_TEXT = 'division by zero'; END IF;
        RETURN a DIV b;
      END
      """,
      """
      CREATE OR REPLACE FUNCTION \(d.function("sift_imod"))(a BIGINT, b BIGINT) RETURNS BIGINT
      DETERMINISTIC NO SQL
      BEGIN
        IF b = 0 THEN SIGNAL SQLSTATE '22012' SET MESSAGE_TEXT = 'division by zero'; END IF;
        RETURN a % b;
      END
      """,
      """
      CREATE OR REPLACE FUNCTION \(d.function("sift_fdiv"))(a DOUBLE, b DOUBLE) RETURNS DOUBLE
      DETERMINISTIC NO SQL
      BEGIN
        IF b = 0 THEN
          SIGNAL SQLSTATE '22012' SET MESSAGE_TEXT =
            'division of a double by zero: MariaDB/MySQL have no infinity or NaN (Grammar/notes/mysql.md)';
        END IF;
        RETURN a / b;
      END
      """,
      // A double as the exact DECIMAL it is, to meet a BIGINT: doubles of magnitude 2^53 to 2^63
      // through SIGNED (their shortest text rounds: 2^60 prints as 1.152921504606847e18), those
      // beyond every BIGINT as ±10^20 (same order against every BIGINT; a bare CAST overflows,
      // an error inside a write under strict mode), the rest through their shortest text.
      """
      CREATE OR REPLACE FUNCTION \(d.function("sift_exact"))(x DOUBLE) RETURNS DECIMAL(65, 30)
      DETERMINISTIC NO SQL
      RETURN CASE
        WHEN x >= 9223372036854775808 THEN 100000000000000000000
        WHEN x < -9223372036854775808 THEN -100000000000000000000
        WHEN ABS(x) >= 9007199254740992 THEN CAST(x AS SIGNED)
        ELSE CAST(CAST(x AS CHAR) AS DECIMAL(65, 30)) END
      """,
      """
      CREATE OR REPLACE FUNCTION \(d.function("sift_utf16_length"))(s \(text)) RETURNS BIGINT
      DETERMINISTIC NO SQL
      RETURN CHAR_LENGTH(s) + CHAR_LENGTH(REGEXP_REPLACE(s, \(supplementary), ''))
      """,
    ]
  }

  /// `` `database`.name ``: one of Sift's functions, qualified.
  func function(_ name: String) -> String { quoteIdentifier(functionDatabase) + "." + name }

  /// `SQLDialect.name` for this database (see the protocol for its meaning).
  public var name: String { "mysql" }
  /// `SQLDialect.placeholder` for this database (see the protocol for its meaning).
  public func placeholder(_ index: Int) -> String { "?" }
  /// `SQLDialect.placeholdersAreNumbered` for this database (see the protocol for its meaning).
  public var placeholdersAreNumbered: Bool { false }
  /// `SQLDialect.quoteIdentifier`: backticks, an embedded backtick doubled.
  public func quoteIdentifier(_ name: String) -> String {
    "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
  }
  /// `SQLDialect.supportsEmptyInList` for this database (see the protocol for its meaning).
  public var supportsEmptyInList: Bool { false }
  /// `SQLDialect.bindBool`: `TINYINT(1)` 0 or 1.
  public func bindBool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
  /// `SQLDialect.booleansAreIntegers`: MySQL's `TRUE` is 1.
  public var booleansAreIntegers: Bool { true }
  /// `SQLDialect.nullSafeEqualOperator`: `<=>`.
  public var nullSafeEqualOperator: String { "<=>" }
  /// `SQLDialect.nullSafeNotEqualOperator`: unused (`negatesNullSafeEqual`), the operator named
  /// for messages.
  public var nullSafeNotEqualOperator: String { "<=>" }
  /// `SQLDialect.negatesNullSafeEqual`: `NOT (x <=> y)`.
  public var negatesNullSafeEqual: Bool { true }
  /// `SQLDialect.supportsNullsOrdering`: no `NULLS FIRST`; `(x IS NULL) DESC, x` instead.
  public var supportsNullsOrdering: Bool { false }
  /// `SQLDialect.unlimitedLimit`: an OFFSET needs a LIMIT (the largest `BIGINT`).
  public var unlimitedLimit: SQLValue? { .integer(Int64.max) }
  /// `SQLDialect.foldFunction`: `sift_fold` of the setup (ASCII only, see `setupSQL`).
  public var foldFunction: String { function("sift_fold") }
  /// `SQLDialect.foldsConstantsInSwift`: the function folds ASCII as `TextFolding.fold` does and
  /// refuses other text, so a constant folded in Swift meets only the same answers.
  public var foldsConstantsInSwift: Bool { true }
  /// `SQLDialect.stringSearch`: `LIKE … ESCAPE CHAR(92)` (under the code-point collation).
  public var stringSearch: SQLStringSearchStyle { .likePatterns }
  /// `SQLDialect.positionFunction`: `INSTR(haystack, needle)`.
  public var positionFunction: String { "INSTR" }
  /// `SQLDialect.prefixRangeScan` for this database (see the protocol for its meaning).
  public var prefixRangeScan: Bool { false }
  /// `SQLDialect.limitInSubqueryNeedsDerivedTable`: MariaDB refuses `IN (SELECT … LIMIT n)`.
  public var limitInSubqueryNeedsDerivedTable: Bool { true }
  /// `SQLDialect.supportsReturning`: no (MariaDB's UPDATE and multi-table DELETE take none).
  public var supportsReturning: Bool { false }
  /// `SQLDialect.textTypeName`: `CHAR` (MySQL's CAST takes no `TEXT`).
  public var textTypeName: String { "CHAR" }
  /// `SQLDialect.likeEscape`: `CHAR(92)`, a backslash whatever the session's sql_mode.
  public var likeEscape: String { "CHAR(92)" }
  /// `SQLDialect.likeFunction` for this database (see the protocol for its meaning).
  public var likeFunction: String? { nil }
  /// `SQLDialect.regex`: PCRE's `REGEXP`, anchored, ICU's line terminators.
  public var regex: SQLRegexStyle { .anchoredPCRE(operator: "REGEXP") }
  /// `SQLDialect.codePointCollation`: nil, text columns are already read under
  /// `textColumnCollation`.
  public var codePointCollation: String? { nil }
  /// `SQLDialect.textColumnCollation`: `utf8mb4_nopad_bin`.
  public var textColumnCollation: String? { MySQLDialect.textCollation }
  /// `SQLDialect.characterLengthFunction`: `CHAR_LENGTH` (MySQL's `LENGTH` counts bytes).
  public var characterLengthFunction: String { "CHAR_LENGTH" }
  /// `SQLDialect.localizedCollation`: none (localized sorts are refused).
  public var localizedCollation: String? { nil }
  /// `SQLDialect.powerFunction`: `POWER` (a double; beyond the double range an error).
  public var powerFunction: String { "POWER" }
  /// `SQLDialect.mathFunction`: MySQL's own (`LOG` is the natural logarithm there, so `log` is
  /// `LOG10`); no one-argument `trunc`.
  public func mathFunction(_ name: String) -> String? {
    switch name {
    case "sqrt": return "SQRT"
    case "ln": return "LN"
    case "log": return "LOG10"
    case "exp": return "EXP"
    case "ceiling": return "CEILING"
    case "floor": return "FLOOR"
    default: return nil
    }
  }
  /// `SQLDialect.integerDivisionFunction`: `sift_idiv` (MySQL's `/` of integers is a decimal).
  public var integerDivisionFunction: String? { function("sift_idiv") }
  /// `SQLDialect.realDivisionFunction`: `sift_fdiv` (a zero divisor is an error, not NULL).
  public var realDivisionFunction: String? { function("sift_fdiv") }
  /// `SQLDialect.modulusFunction`: nil (integers only, through `integerModulusFunction`).
  public var modulusFunction: String? { nil }
  /// `SQLDialect.integerModulusFunction`: `sift_imod` (MySQL's `%` by zero is NULL).
  public var integerModulusFunction: String? { function("sift_imod") }
  /// `SQLDialect.uppercaseFunction` for this database (see the protocol for its meaning).
  public var uppercaseFunction: String { "UPPER" }
  /// `SQLDialect.lowercaseFunction` for this database (see the protocol for its meaning).
  public var lowercaseFunction: String { "LOWER" }
  /// `SQLDialect.exactNumericTypeName`: MySQL compares a `BIGINT` with a `DOUBLE` as doubles.
  public var exactNumericTypeName: String? { "DECIMAL(65, 30)" }
  /// `SQLDialect.exactDoubleFunction`: `sift_exact` of the setup.
  public var exactDoubleFunction: String? { function("sift_exact") }
  /// `SQLDialect.doubleTypeName` for this database (see the protocol for its meaning).
  public var doubleTypeName: String { "DOUBLE" }
  /// `SQLDialect.integerTypeName`: `SIGNED` (the CAST target of a 64-bit integer).
  public var integerTypeName: String { "SIGNED" }
  /// `SQLDialect.xorOperator`: `^`.
  public var xorOperator: String? { "^" }
  /// `SQLDialect.bitwiseResultsAreUnsigned`: MySQL's `&`, `|`, `^` give `BIGINT UNSIGNED`.
  public var bitwiseResultsAreUnsigned: Bool { true }
  /// `SQLDialect.supportsSmartShifts`: no (shifts are unsigned and stop at 64).
  public var supportsSmartShifts: Bool { false }
  /// `SQLDialect.nanBecomesNull`: MariaDB has no NaN (`SQRT(-1)`, `LN(0)` are NULL).
  public var nanBecomesNull: Bool { true }
  /// `SQLDialect.arrayRepresentation` for this database (see the protocol for its meaning).
  public var arrayRepresentation: SQLArrayRepresentation { .sideTable }
  /// `SQLDialect.deleteHead`: `DELETE t0 FROM table AS t0`.
  public func deleteHead(_ table: String) -> String { "DELETE t0 FROM " + table + " AS t0" }
  /// `SQLDialect.columnType`: text in the code-point collation, `TINYINT(1)` booleans, dates as
  /// `DOUBLE` seconds since 2001 (as Sift stores them on SQLite and PostgreSQL).
  public func columnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string, .stringArray: return "LONGTEXT CHARACTER SET utf8mb4 COLLATE " + MySQLDialect.textCollation
    case .integer, .integerArray: return "BIGINT"
    case .boolean: return "TINYINT(1)"
    case .double, .date, .doubleArray: return "DOUBLE"
    case .data, .any: return "LONGBLOB"  // no column keeps any kind; `.any` is refused
    }
  }
  /// `SQLDialect.keyColumnType`: `VARCHAR(768)` text (3,072 bytes, InnoDB's longest key).
  public func keyColumnType(_ type: SQLAttributeType) -> String {
    switch type {
    case .string, .stringArray: return "VARCHAR(768) CHARACTER SET utf8mb4 COLLATE " + MySQLDialect.textCollation
    case .data: return "VARBINARY(3072)"
    default: return columnType(type)
    }
  }
  /// `SQLDialect.conversionFunction`: `sift_utf16_length` only; CAST between kinds is refused.
  public func conversionFunction(_ conversion: SQLConversion) -> String? {
    conversion == .utf16Length ? function(conversion.rawValue) : nil
  }
  /// `SQLDialect.setupSQL` for this database (see the protocol for its meaning).
  public var setupSQL: [String] { MySQLDialect.setupSQL(database: functionDatabase) }
}
