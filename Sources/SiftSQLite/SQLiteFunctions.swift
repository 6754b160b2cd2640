import CSQLite
import Foundation
import SiftSyntax

/// The SQL functions and collation Sift registers on every SQLite connection. Each calls the
/// same SiftSemantics code in-memory evaluation uses (`TextFolding`, `LikePattern`,
/// `RegexPattern`), so `[c]`, `[d]`, LIKE and MATCHES give identical answers in both places.
/// Every function returns NULL when an argument is NULL.
///
/// | function | meaning |
/// | --- | --- |
/// | `sift_fold(text, opts)` | `TextFolding.fold` (opts: the `TextFoldCode`, 1 = `[c]`, 2 = `[d]`, 3 = both) |
/// | `sift_search(h, n, kind, opts)` | `TextSearch.find` (kind: a `TextSearch.Position`'s wire code, its `rawValue`) |
/// | `sift_like(text, pattern, opts)` | `LikePattern(pattern, options).matches(text)` |
/// | `sift_matches(text, pattern, opts)` / `regexp(pattern, text)` | whole-string ICU regex |
/// | `sift_int(x)` | `x` when an integer or NULL, else an error (bitwise operands) |
/// | `sift_orderable(x, y)` | `x`, unless both are non-NULL and not both numbers or both text: then `incomparable-values` |
/// | `sift_text(x, container)` | `x` when text or NULL, else `not-a-string` (`not-a-collection` for container 1) |
/// | `sift_pow(a, b)` | integer when both are integers, `b >= 0` and the result fits (`NumberRules.exactPower`), else `pow` in doubles |
/// | `sift_abs(x)` | an integer stays an integer (`Int64.min` gives the double 2^63), a double `fabs` |
/// | `sift_ceiling`, `sift_floor`, `sift_trunc` | an integer passes through unchanged; a double is rounded |
/// | `sift_sqrt`, `sift_ln`, `sift_log`, `sift_exp` | math in doubles |
/// | `sift_upper`, `sift_lower` | Unicode case mapping |
/// | `sift_number_text`, … | CAST between kinds, `FUNCTION(x, 'length')`: `registerConversions` |
/// | collation `SIFT_LOCALIZED` | `localizedStandardCompare` |
/// | collation `SIFT_LOCALIZED_COMPARE` | `localizedCompare` |
/// | `sift_sum`, `sift_avg` | aggregates, see `SQLiteAggregates` |
///
/// ```swift
/// SQLiteFunctions.register(on: handle)   // done by SQLiteDatabase.init
/// ```
public enum SQLiteFunctions {
  typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

  /// `SQLITE_TRANSIENT`: SQLite copies the bytes.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Registers every function and collation on a connection.
  public static func register(on db: OpaquePointer) {
    register(on: db, clock: SQLiteMatchClock())
  }

  /// `register(on:)` with the connection's `SQLiteMatchClock`, which `sift_matches` and
  /// `regexp` read while they match (`SQLiteDatabase.execute(_:timeLimit:)` sets it).
  static func register(on db: OpaquePointer, clock: SQLiteMatchClock) {
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
    func add(_ name: String, _ n: Int32, _ f: Function) {
      sqlite3_create_function_v2(db, name, n, flags, nil, f, nil, nil, nil)
    }
    func addTimed(_ name: String, _ n: Int32, _ f: Function) {
      // Each registration holds the clock; SQLite releases it when the function goes.
      let box = Unmanaged.passRetained(clock).toOpaque()
      sqlite3_create_function_v2(db, name, n, flags, box, f, nil, nil) { p in
        if let p { Unmanaged<SQLiteMatchClock>.fromOpaque(p).release() }
      }
    }
    add("sift_fold", 2, foldFunction)
    add("sift_search", 4, searchFunction)
    add("sift_like", 3, likeFunction)
    addTimed("sift_matches", 3, matchesFunction)
    addTimed("regexp", 2, regexpFunction)
    add("sift_pow", 2, powFunction)
    add("sift_div", 2, divFunction)
    add("sift_mod", 2, modFunction)
    add("sift_int", 1, intFunction)
    add("sift_int", 2, intWriteFunction)
    add("sift_orderable", 2, orderableFunction)
    add("sift_text", 2, textFunction)
    add("sift_sqrt", 1) { ctx, _, argv in SQLiteFunctions.math(ctx, argv) { $0.squareRoot() } }
    add("sift_ln", 1) { ctx, _, argv in SQLiteFunctions.math(ctx, argv) { Foundation.log($0) } }
    add("sift_log", 1) { ctx, _, argv in SQLiteFunctions.math(ctx, argv) { Foundation.log10($0) } }
    add("sift_exp", 1) { ctx, _, argv in SQLiteFunctions.math(ctx, argv) { Foundation.exp($0) } }
    add("sift_ceiling", 1) { ctx, _, argv in SQLiteFunctions.rounding(ctx, argv, .up) }
    add("sift_floor", 1) { ctx, _, argv in SQLiteFunctions.rounding(ctx, argv, .down) }
    add("sift_trunc", 1) { ctx, _, argv in SQLiteFunctions.rounding(ctx, argv, .towardZero) }
    add("sift_abs", 1, absFunction)
    add("sift_upper", 1, upperFunction)
    add("sift_lower", 1, lowerFunction)
    registerConversions(add)
    sqlite3_create_collation_v2(db, "SIFT_LOCALIZED", SQLITE_UTF8, nil, localizedCollation, nil)
    sqlite3_create_collation_v2(db, "SIFT_LOCALIZED_COMPARE", SQLITE_UTF8, nil, localizedCompareCollation, nil)
    SQLiteAggregates.register(on: db)
  }

  // MARK: - Argument access

  static func value(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> OpaquePointer? {
    argv?[i]
  }

  static func text(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> String? {
    let v = value(argv, i)
    guard sqlite3_value_type(v) != SQLITE_NULL else { return nil }
    let p = sqlite3_value_text(v)
    let n = Int(sqlite3_value_bytes(v))
    guard let p else { return "" }
    return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
  }

  static func double(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> Double? {
    let v = value(argv, i)
    guard sqlite3_value_type(v) != SQLITE_NULL else { return nil }
    return sqlite3_value_double(v)
  }

  /// The `opts` argument: the `[c]`/`[d]` wire code the compiler wrote (`TextFoldCode`).
  static func options(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> ComparisonOptions {
    TextFoldCode(wire: sqlite3_value_int64(value(argv, i))).options
  }

  static func result(_ ctx: OpaquePointer?, _ s: String) {
    var s = s
    s.withUTF8 { buf in
      guard let base = UnsafeRawPointer(buf.baseAddress), buf.count > 0 else {
        return sqlite3_result_text64(ctx, "", 0, transient, UInt8(SQLITE_UTF8))
      }
      sqlite3_result_text64(
        ctx, base.assumingMemoryBound(to: CChar.self), UInt64(buf.count), transient, UInt8(SQLITE_UTF8))
    }
  }

  static func math(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, _ f: (Double) -> Double) {
    guard let x = double(argv, 0) else { return sqlite3_result_null(ctx) }
    sqlite3_result_double(ctx, f(x))
  }

  /// `ceiling:`, `floor:`, `trunc:` as memory: an integer is already whole and passes through
  /// (converting it to a double would round values beyond 2^53); a double is rounded.
  static func rounding(
    _ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, _ rule: FloatingPointRoundingRule
  ) {
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, sqlite3_value_int64(a))
    default: sqlite3_result_double(ctx, sqlite3_value_double(a).rounded(rule))
    }
  }

  /// `**` as memory: exact for integers while the result fits, else `pow` in doubles.
  static let powFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    let b = value(argv, 1)
    if sqlite3_value_type(a) == SQLITE_NULL || sqlite3_value_type(b) == SQLITE_NULL { return sqlite3_result_null(ctx) }
    if sqlite3_value_type(a) == SQLITE_INTEGER && sqlite3_value_type(b) == SQLITE_INTEGER,
      let v = NumberRules.exactPower(sqlite3_value_int64(a), sqlite3_value_int64(b))
    {
      return sqlite3_result_int64(ctx, v)
    }
    sqlite3_result_double(ctx, pow(sqlite3_value_double(a), sqlite3_value_double(b)))
  }

  /// `abs:` as memory: SQLite's own `abs` raises "integer overflow" for `Int64.min`, where
  /// memory gives the double 2^63.
  static let absFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER:
      let x = sqlite3_value_int64(a)
      if let v = NumberRules.absoluteValue(x) { return sqlite3_result_int64(ctx, v) }
      sqlite3_result_double(ctx, -Double(x))
    default: sqlite3_result_double(ctx, Swift.abs(sqlite3_value_double(a)))
    }
  }

  /// Integer / integer truncates (a zero divisor is an error, as in memory; overflow gives a
  /// double); otherwise IEEE double division.
  static let divFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    let b = value(argv, 1)
    if sqlite3_value_type(a) == SQLITE_NULL || sqlite3_value_type(b) == SQLITE_NULL { return sqlite3_result_null(ctx) }
    if sqlite3_value_type(a) == SQLITE_INTEGER && sqlite3_value_type(b) == SQLITE_INTEGER {
      let x = sqlite3_value_int64(a)
      let y = sqlite3_value_int64(b)
      if y == 0 { return sqlite3_result_error(ctx, "integer division by zero", -1) }
      let (q, o) = x.dividedReportingOverflow(by: y)
      return o ? sqlite3_result_double(ctx, Double(x) / Double(y)) : sqlite3_result_int64(ctx, q)
    }
    sqlite3_result_double(ctx, sqlite3_value_double(a) / sqlite3_value_double(b))
  }

  /// An integer or NULL passes through; anything else (a double from overflowed arithmetic)
  /// is the error memory reports for a bitwise operator on a non-integer.
  /// `sift_int(x, column)`: a value computed for an integer column in a batch update — integer
  /// arithmetic that overflowed is a double in SQLite (as in memory), which an INTEGER column of
  /// an ordinary table would keep as a rounded REAL. Refused (`integer-overflow`) instead.
  static let intWriteFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, sqlite3_value_int64(a))
    default:
      let column = sqlite3_value_text(value(argv, 1)).map { String(cString: $0) } ?? "?"
      let message =
        "integer-overflow: the value computed for the integer column '\(column)' is not an integer "
        + "(integer arithmetic that overflows gives a double); nothing was written"
      sqlite3_result_error(ctx, message, -1)
    }
  }

  static let intFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, sqlite3_value_int64(a))
    default: sqlite3_result_error(ctx, "bitwise operators need integers", -1)
    }
  }

  /// A stored value's kind as memory names it (`SiftValue.kindName`).
  static func kindName(_ type: Int32) -> String {
    switch type {
    case SQLITE_INTEGER: return "an integer"
    case SQLITE_FLOAT: return "a double"
    case SQLITE_TEXT: return "a string"
    case SQLITE_BLOB: return "a data"
    default: return "nil"
    }
  }

  /// `x` unless both are non-NULL and memory cannot order them (numbers order with numbers,
  /// text with text, data with nothing): then `incomparable-values`, with memory's message.
  /// The error's text starts with its id, which `SQLiteDatabase` reports as the error's id.
  static let orderableFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    let b = value(argv, 1)
    let ta = sqlite3_value_type(a), tb = sqlite3_value_type(b)
    func number(_ t: Int32) -> Bool { t == SQLITE_INTEGER || t == SQLITE_FLOAT }
    if ta != SQLITE_NULL, tb != SQLITE_NULL, !(number(ta) && number(tb)), !(ta == SQLITE_TEXT && tb == SQLITE_TEXT) {
      let message = "\(DiagnosticID.incomparableValues.rawValue): cannot order \(kindName(ta)) against \(kindName(tb))"
      return sqlite3_result_error(ctx, message, -1)
    }
    sqlite3_result_value(ctx, a)
  }

  /// `x` when text or NULL; anything else is `not-a-string`, as memory's string operators say,
  /// or `not-a-collection` when `x` is the container of `IN`/`CONTAINS` (second argument 1).
  static let textFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    let t = sqlite3_value_type(a)
    if t == SQLITE_TEXT || t == SQLITE_NULL { return sqlite3_result_value(ctx, a) }
    let message =
      sqlite3_value_int64(value(argv, 1)) == 1
      ? "\(DiagnosticID.notACollection.rawValue): IN/CONTAINS needs an array or a string, but this is \(kindName(t))"
      : "\(DiagnosticID.notAString.rawValue): a string operator needs a string, but this is \(kindName(t))"
    sqlite3_result_error(ctx, message, -1)
  }

  /// Integer remainder (zero divisor is an error) or `fmod` for doubles, as in memory.
  static let modFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    let b = value(argv, 1)
    if sqlite3_value_type(a) == SQLITE_NULL || sqlite3_value_type(b) == SQLITE_NULL { return sqlite3_result_null(ctx) }
    if sqlite3_value_type(a) == SQLITE_INTEGER && sqlite3_value_type(b) == SQLITE_INTEGER {
      let y = sqlite3_value_int64(b)
      if y == 0 { return sqlite3_result_error(ctx, "integer division by zero", -1) }
      return sqlite3_result_int64(ctx, sqlite3_value_int64(a).remainderReportingOverflow(dividingBy: y).partialValue)
    }
    sqlite3_result_double(ctx, sqlite3_value_double(a).truncatingRemainder(dividingBy: sqlite3_value_double(b)))
  }

  static let upperFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0) else { return sqlite3_result_null(ctx) }
    result(ctx, s.uppercased())
  }

  static let lowerFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0) else { return sqlite3_result_null(ctx) }
    result(ctx, s.lowercased())
  }

  // MARK: - Text functions

  static let foldFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0) else { return sqlite3_result_null(ctx) }
    result(ctx, TextFolding.fold(s, options(argv, 1)))
  }

  /// `TextSearch.find` (Unicode scalars as written, folded by the options): the same
  /// primitive in-memory evaluation uses. Without options the UTF-8 bytes SQLite holds are
  /// searched in place.
  static let searchFunction: Function = { ctx, _, argv in
    let hv = value(argv, 0), nv = value(argv, 1)
    if sqlite3_value_type(hv) == SQLITE_NULL || sqlite3_value_type(nv) == SQLITE_NULL {
      return sqlite3_result_null(ctx)
    }
    guard let position = TextSearch.Position(wire: sqlite3_value_int64(value(argv, 2))) else {
      return sqlite3_result_error(ctx, searchKindError, -1)
    }
    let o = options(argv, 3)
    let found: Bool
    if o.isEmpty {
      // Text first, then its byte count (sqlite3_value_bytes after sqlite3_value_text).
      let hp = sqlite3_value_text(hv), hn = Int(sqlite3_value_bytes(hv))
      let np = sqlite3_value_text(nv), nn = Int(sqlite3_value_bytes(nv))
      found = TextSearch.find(
        UnsafeBufferPointer(start: np, count: np == nil ? 0 : nn),
        in: UnsafeBufferPointer(start: hp, count: hp == nil ? 0 : hn), position)
    } else {
      guard let h = text(argv, 0), let n = text(argv, 1) else { return sqlite3_result_null(ctx) }
      found = TextSearch.find(n, in: h, position, o)
    }
    sqlite3_result_int64(ctx, found ? 1 : 0)
  }

  /// `sift_search`'s error for a kind no compiler writes, naming every position's code.
  static let searchKindError = "sift_search: the kind must be " + TextSearch.Position.wireCodes

  /// Compiled patterns live in SQLite's auxiliary data for the pattern argument, so a
  /// pattern bound once is compiled once per statement run.
  final class Cached<T>: @unchecked Sendable {
    let pattern: String
    let options: ComparisonOptions
    let value: T
    init(_ pattern: String, _ options: ComparisonOptions, _ value: T) {
      self.pattern = pattern
      self.options = options
      self.value = value
    }
  }

  static func cached<T>(
    _ ctx: OpaquePointer?, arg: Int32, _ pattern: String, _ o: ComparisonOptions, make: () throws -> T
  ) rethrows -> T {
    if let p = sqlite3_get_auxdata(ctx, arg),
      let box = Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue() as? Cached<T>,
      box.pattern == pattern, box.options == o
    {
      return box.value
    }
    let value = try make()
    let box = Cached(pattern, o, value)
    sqlite3_set_auxdata(ctx, arg, Unmanaged<AnyObject>.passRetained(box).toOpaque()) { p in
      if let p { Unmanaged<AnyObject>.fromOpaque(p).release() }
    }
    return value
  }

  static let likeFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0), let p = text(argv, 1) else { return sqlite3_result_null(ctx) }
    let o = options(argv, 2)
    let pattern = cached(ctx, arg: 1, p, o) { LikePattern(p, options: o) }
    sqlite3_result_int64(ctx, pattern.matches(s) ? 1 : 0)
  }

  static func regex(_ ctx: OpaquePointer?, text s: String, pattern p: String, arg: Int32, _ o: ComparisonOptions) {
    // SQLite's progress handler does not run inside a function: the match reads the clock.
    let clock = sqlite3_user_data(ctx).map { Unmanaged<SQLiteMatchClock>.fromOpaque($0).takeUnretainedValue() }
    do {
      let r = try cached(ctx, arg: arg, p, o) { () throws -> RegexPattern in try RegexPattern(p, options: o) }
      sqlite3_result_int64(ctx, try r.match(s, deadline: clock?.deadline ?? 0) ? 1 : 0)
    } catch {
      // An invalid pattern, one ICU ran out of steps on, or the time limit: an error, never a silent 0.
      var message = (error as? RegexPattern.InvalidPattern)?.description ?? "invalid regular expression"
      switch error as? RegexPattern.Stop {
      case .steps(let e)?: message = e.description
      case .deadline?: message = "the query ran longer than its time limit of \(clock?.milliseconds ?? 0) ms"
      case nil: break
      }
      // SQLite keeps the message as a C string: a NUL in the pattern would cut it short.
      sqlite3_result_error(ctx, message.replacingOccurrences(of: "\u{0}", with: "\\u{0}"), -1)
    }
  }

  static let matchesFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0), let p = text(argv, 1) else { return sqlite3_result_null(ctx) }
    regex(ctx, text: s, pattern: p, arg: 1, options(argv, 2))
  }

  static let regexpFunction: Function = { ctx, _, argv in
    guard let p = text(argv, 0), let s = text(argv, 1) else { return sqlite3_result_null(ctx) }
    regex(ctx, text: s, pattern: p, arg: 0, [])
  }

  typealias Collation =
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32

  static let localizedCollation: Collation = { _, n1, p1, n2, p2 in
    func string(_ p: UnsafeRawPointer?, _ n: Int32) -> String {
      guard let p, n > 0 else { return "" }
      return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self)
    }
    // The same function memory's `.localizedStandard` sorts call.
    return Int32(SiftSortOrder.localizedStandard(string(p1, n1), string(p2, n2)))
  }

  /// `SIFT_LOCALIZED_COMPARE`: `localizedCompare:` order (`SiftSortOrder.localized`).
  static let localizedCompareCollation: Collation = { _, n1, p1, n2, p2 in
    func string(_ p: UnsafeRawPointer?, _ n: Int32) -> String {
      guard let p, n > 0 else { return "" }
      return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self)
    }
    return Int32(SiftSortOrder.localized(string(p1, n1), string(p2, n2)))
  }
}
