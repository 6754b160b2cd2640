import SiftSyntax

/// Every diagnostic the SQL stage reports while compiling a predicate or expression, in one
/// place: one builder per condition, its id from the one list (`DiagnosticID`) and its message
/// written once. A condition memory also meets has memory's id (Grammar/notes/errors.md, "Same
/// condition, same id"). Fetch requests, batch writes and schema checks are in
/// `SQLDiagnostic+Requests.swift`.
///
/// ```swift
/// throw fail(.keyAfterCount, range)                                       // inside SQLCompilation
/// throw SQLDiagnostic.isView(entity: "Venue").error()                    // no text to point into
/// ```
struct SQLDiagnostic: Sendable {
  let id: DiagnosticID
  let message: String

  init(_ id: DiagnosticID, _ message: String) {
    self.id = id
    self.message = message
  }

  /// The error at `range` of `source`.
  func error(_ range: SiftSourceRange = .at(0), source: String = "") -> SiftError {
    SiftError(stage: .sql, diagnostic: SiftDiagnostic(id: id, message: message, range: range), source: source)
  }

  /// The error pointing at the whole of `text` (an entity name, a key path, a format).
  func error(spanning text: String) -> SiftError {
    error(SiftSourceRange(start: 0, end: text.utf8.count), source: text)
  }

  // MARK: Keys, relationships and collections

  static func keyOnNonObject(key: String, kind: String) -> Self {
    Self(.keyOnNonObject, "key '\(key)' cannot be applied to \(kind)")
  }

  static func multipleToMany(key: String) -> Self {
    Self(.multipleToMany, "multiple to-many keys not allowed here ('\(key)' is a second to-many step)")
  }

  static func operatorNeedsCollection(_ op: String, kind: String) -> Self {
    Self(.notACollection, "\(op) needs a to-many relationship or an array attribute, not \(kind)")
  }

  static func operatorAfterOperator(_ op: String) -> Self {
    Self(.notACollection, "a collection operator cannot follow \(op) in SQL")
  }

  static func operatorNeedsElementKeyPath(_ op: String) -> Self {
    Self(.notACollection, "\(op) needs a key path to element values")
  }

  static let keyAfterCount = Self(.keyAfterCount, "@count takes no key path after it")

  static func aggregateNeedsValues(_ op: String) -> Self {
    Self(.aggregateNeedsValues, "\(op) needs a key path to numbers, e.g. \(op).price")
  }

  static func aggregateOfNonNumbers(_ op: String, elements: SQLType) -> Self {
    Self(.notANumber, "\(op) needs numbers, but the elements are \(elements)")
  }

  static let subqueryNeedsCollection = Self(
    .notACollection, "SUBQUERY needs a to-many relationship or an array attribute")

  static func subqueryTooDeep(limit: Int) -> Self {
    Self(.tooDeepForSql, "SUBQUERYs nest more than \(limit) deep; each level multiplies the work per row")
  }

  static func quantifierNeedsCollection(_ keyword: String, kind: String) -> Self {
    Self(
      .quantifierNeedsCollection,
      "\(keyword) needs a collection on its left (a to-many relationship or an array attribute), not \(kind)")
  }

  static func inNeedsCollection(not kind: String) -> Self {
    Self(.notACollection, "IN needs a collection or a string on its right, not \(kind)")
  }

  static let betweenNeedsTwoBounds = Self(
    .betweenNeedsTwoBounds, "BETWEEN needs a two-element bound such as {1, 10}")

  // MARK: Values where one value is needed

  static let objectAsValue = Self(
    .objectNotAllowed, "an object (relationship) cannot be used as a value here; compare one of its attributes")

  static let toManyAsValue = Self(
    .toManyNotAllowed, "to-many key not allowed here; use ANY, ALL, NONE or a collection operator such as @count")

  static let aggregateAsValue = Self(.aggregateNotAllowed, "an aggregate {…} cannot be used as a single value here")

  static let collectionConstantAsValue = Self(
    .collectionNotAllowed, "a collection constant cannot be used as a single value here")

  static func unboundVariable(_ name: String) -> Self {
    Self(.unboundVariable, "variable $\(name) has no value; substitute it before compiling")
  }

  static let unboundArgument = Self(.unboundArgument, "unbound argument: bind every %@ before compiling")

  /// A date the SQL cannot hold; the message is the date check's own.
  static func dateOutOfRange(_ message: String) -> Self { Self(.dateOutOfRange, message) }

  /// A regular expression that does not compile; the message is the regex parser's own.
  static func invalidRegex(_ message: String) -> Self { Self(.invalidRegex, message) }

  static func notADate(_ text: String) -> Self { Self(.invalidCast, SiftDateText.notADate(text)) }

  // MARK: Operators and functions given the wrong kind

  static func arithmeticNeedsNumbers(_ op: String, this type: SQLType) -> Self {
    if type == .any {
      return Self(.notANumber, "'\(op)' needs numbers, but this column keeps values of any kind \(anyUse)")
    }
    return Self(.notANumber, "'\(op)' needs numbers, but this is \(type)")
  }

  /// What a column that keeps any kind is good for in SQL.
  static let anyUse = "(in SQL it is only compared, searched and sorted: ==, IN, <, BETWEEN, BEGINSWITH, uppercase, …)"

  static func stringOperatorNeedsStrings(_ keyword: String, this type: SQLType) -> Self {
    Self(.notAString, "\(keyword) needs strings, but this is \(type)")
  }

  static func functionNeedsString(_ name: String) -> Self { Self(.notAString, "\(name) needs a string") }

  /// A bitwise operator (`&`, `|`, `^`, `<<`, `>>`) given a non-integer.
  static func bitwiseNeedsIntegers(_ symbol: String) -> Self {
    Self(.bitwiseNeedsIntegers, "'\(symbol)' needs integers")
  }

  /// `~` or `onesComplement:` given a non-integer.
  static func complementNeedsInteger(_ name: String) -> Self {
    Self(.bitwiseNeedsIntegers, "\(name) needs an integer")
  }

  static func wrongArgumentCount(_ name: String, takes count: Int) -> Self {
    Self(.wrongArgumentCount, "\(name) takes \(count) argument(s)")
  }

  static func incomparable(_ x: SQLType, _ y: SQLType) -> Self {
    if x == .any || y == .any {
      let other = x == .any ? y : x
      return Self(.incomparableValues, "cannot order a column that keeps any kind against \(other) (it holds none)")
    }
    return Self(.incomparableValues, "cannot order \(x) against \(y) (no implicit conversion)")
  }

  static func ternaryBranches(_ x: SQLType, _ y: SQLType) -> Self {
    Self(.typeMismatch, "TERNARY's branches are \(x) and \(y); in SQL both must be of one kind")
  }

  static let objectComparison = Self(
    .objectComparison, "objects can only be compared with == or != (for example with nil)")

  static func objectComparedWithOther(entity: String) -> Self {
    Self(.objectComparison, "an object of entity \(entity) can only be compared with nil or another \(entity)")
  }

  // MARK: Subscripts

  static let indexingToMany = Self(
    .unsupportedInSql, "indexing a to-many relationship cannot be compiled to SQL (it has no order)")

  static let arrayIndexNotConstant = Self(
    .unsupportedInSql, "an array index must be a non-negative integer constant in SQL")

  static let indexOutOfRange = Self(.indexOutOfRange, "index out of range")

  static let objectSubscriptNotConstant = Self(.unsupportedInSql, "an object subscript must be a constant key string")

  static let dictionarySubscriptNotConstant = Self(
    .unsupportedInSql, "a dictionary subscript must be a constant key string")

  static let invalidSubscript = Self(.invalidIndex, "this subscript needs an array attribute, an array or an object")

  // MARK: What SQL cannot express

  /// `what` has no SQL form at all: an operator, `ANYKEY`, `FUNCTION(…)`, an assignment.
  static func notCompilable(_ what: String) -> Self { Self(.unsupportedInSql, "\(what) cannot be compiled to SQL") }

  /// `what` has no SQL form on this dialect.
  static func notCompilable(_ what: String, for dialect: String) -> Self {
    Self(.unsupportedInSql, "\(what) cannot be compiled for \(dialect)")
  }

  static func operatorNotFaithful(_ symbol: String, for dialect: String) -> Self {
    Self(.unsupportedInSql, "'\(symbol)' cannot be compiled faithfully for \(dialect)")
  }

  static func functionNotFaithful(_ name: String) -> Self {
    Self(.unsupportedInSql, "\(name)(…) cannot be compiled to SQL faithfully")
  }

  static func functionNotAvailable(_ name: String, on dialect: String) -> Self {
    Self(.unsupportedInSql, "\(name) is not available on \(dialect)")
  }

  static func functionNeedsCollection(_ name: String) -> Self {
    Self(.unsupportedInSql, "\(name)(…) is compiled only over a to-many key path or array attribute")
  }

  /// `FUNCTION(x, 'name')` where `name` is not one of `SiftSelector`'s (memory's
  /// `unknown-function`; functions registered in Swift run only in memory).
  static func unknownSelector(_ name: String) -> Self {
    Self(
      .unknownFunction,
      "no function named '\(name)': SQL runs the selectors \(SiftSelector.names); "
        + "functions registered in Swift run only in memory")
  }

  static func castNotCompilable(to className: String, from type: SQLType) -> Self {
    notCompilable("CAST(…, \"\(className)\") of \(type)")
  }

  static func arrayStorageUnreadable(_ attribute: String, storage: String, dialect: String) -> Self {
    Self(.unsupportedInSql, "array attribute '\(attribute)' is stored as \(storage), which \(dialect) cannot read")
  }

  static func computedDateNotWritable(to attribute: String, encoding: String) -> Self {
    Self(.unsupportedInSql, "a computed date cannot be written to '\(attribute)', stored as \(encoding)")
  }

  static func tooDeepForParser(_ dialect: String, depth: Int, limit: Int) -> Self {
    Self(
      .tooDeepForSql,
      "this predicate nests too deeply for \(dialect)'s SQL parser (estimated depth \(depth), limit \(limit)); "
        + "flatten nested parentheses, negations or SUBQUERYs")
  }

  static func tooManyParameters(_ n: Int, dialect: String, limit: Int) -> Self {
    Self(
      .tooLargeForSql,
      "this IN list binds \(n) values, more than \(dialect) takes in one statement (\(limit)); "
        + "a list of plain numbers or strings travels as one value")
  }

  static func tooLargeForSQL(maxBytes: Int) -> Self {
    Self(
      .tooLargeForSql,
      "this predicate compiles to more than \(maxBytes) bytes of SQL (nested operations repeat their operands); "
        + "simplify it")
  }

  // MARK: Schema lookups

  /// `keypath 'x' not found in entity E`, with the closest key as a fix-it when `range` covers the key.
  static func unknownKey(_ key: String, entity: SQLEntity, _ range: SiftSourceRange, source: String) -> SiftError {
    var message = "keypath '\(key)' not found in entity \(entity.name)"
    var fixIts: [SiftDiagnostic.FixIt] = []
    if let s = Spelling.closest(to: key, in: entity.keys) {
      message += "; did you mean '\(s)'?"
      if range.length == key.utf8.count {
        fixIts.append(.init("did you mean '\(s)'?", range: range, replacement: s))
      }
    }
    return SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(id: .unknownKeyPath, message: message, range: range, fixIts: fixIts),
      source: source)
  }
}
