/// Every diagnostic id Sift reports, in one list: the stable kebab-case names callers match on
/// (`error.id == "not-a-string"`). Each stage's catalog (`DiagnosticCatalog` for parsing,
/// `EvalDiagnostics`, `SQLDiagnostic`, the policy and data errors) takes its ids from here, and
/// `DiagnosticIDTests` checks that every id written in the sources is one of these. One
/// condition has one id in every engine (Grammar/notes/errors.md, "Same condition, same id").
///
/// ```swift
/// DiagnosticID.notAString.rawValue   // "not-a-string"
/// ```
package enum DiagnosticID: String, Sendable, Hashable, CaseIterable {
  // MARK: Parsing (`DiagnosticCatalog`)

  case chainedComparison = "chained-comparison"
  case commentsUnsupported = "comments-unsupported"
  case emptyExpression = "empty-expression"
  case emptyPredicate = "empty-predicate"
  case expectedClosingBrace = "expected-closing-brace"
  case expectedClosingBracket = "expected-closing-bracket"
  case expectedClosingParen = "expected-closing-paren"
  case expectedComma = "expected-comma"
  case expectedComparisonOperator = "expected-comparison-operator"
  case expectedDigits = "expected-digits"
  case expectedExpression = "expected-expression"
  case expectedKey = "expected-key"
  case expectedName = "expected-name"
  case expectedOpeningParen = "expected-opening-paren"
  case expectedPunctuation = "expected-punctuation"
  case expectedString = "expected-string"
  case expectedSubqueryVariable = "expected-subquery-variable"
  case inputTooLarge = "input-too-large"
  case integerOverflow = "integer-overflow"
  case invalidCharacter = "invalid-character"
  case invalidEscape = "invalid-escape"
  case invalidNumber = "invalid-number"
  case literalPercent = "literal-percent"
  case mixedAndOr = "mixed-and-or"
  case nestingTooDeep = "nesting-too-deep"
  case reservedWord = "reserved-word"
  case unexpectedToken = "unexpected-token"
  case unknownCastType = "unknown-cast-type"
  case unknownCollectionOperator = "unknown-collection-operator"
  case unknownComparisonOption = "unknown-comparison-option"
  case unknownFormatSpecifier = "unknown-format-specifier"
  case unknownOperator = "unknown-operator"
  case unsupportedFeature = "unsupported-feature"
  case unterminatedString = "unterminated-string"
  case wrongArgumentCount = "wrong-argument-count"

  // MARK: Binding arguments and variables, building predicates

  case invalidBetweenBounds = "invalid-between-bounds"
  case invalidKeyPath = "invalid-key-path"
  case missingArgument = "missing-argument"
  case tooManyArguments = "too-many-arguments"
  case unsupportedArgumentType = "unsupported-argument-type"
  case wrongArgumentKind = "wrong-argument-kind"

  // MARK: Conditions both engines meet: memory (`EvalDiagnostics`) and SQL (`SQLDiagnostic`) report the same id

  case betweenNeedsTwoBounds = "between-needs-two-bounds"
  case bitwiseNeedsIntegers = "bitwise-needs-integers"
  case dateOutOfRange = "date-out-of-range"
  case divisionByZero = "division-by-zero"
  case incomparableValues = "incomparable-values"
  case invalidCast = "invalid-cast"
  case invalidIndex = "invalid-index"
  case invalidRegex = "invalid-regex"
  case notACollection = "not-a-collection"
  case notANumber = "not-a-number"
  case notAString = "not-a-string"
  case quantifierNeedsCollection = "quantifier-needs-collection"
  case timeLimit = "time-limit"
  case unboundArgument = "unbound-argument"
  case unboundVariable = "unbound-variable"

  // MARK: Evaluation only

  case dataTooDeep = "data-too-deep"
  case functionFailed = "function-failed"
  case invalidArgument = "invalid-argument"
  case regexLimit = "regex-limit"
  case unknownFunction = "unknown-function"
  case unsupported = "unsupported"
  case workLimit = "work-limit"

  // MARK: SQL only: what SQL cannot express, or a schema cannot answer (`SQLDiagnostic`)

  case aggregateInExpression = "aggregate-in-expression"
  case aggregateNeedsKeyPath = "aggregate-needs-key-path"
  case aggregateNeedsValues = "aggregate-needs-values"
  case aggregateNotAllowed = "aggregate-not-allowed"
  case collectionNotAllowed = "collection-not-allowed"
  case indexOutOfRange = "index-out-of-range"
  case keyAfterCount = "key-after-count"
  case keyOnNonObject = "key-on-non-object"
  case multipleToMany = "multiple-to-many"
  case noRecordPositions = "no-record-positions"
  case noSingleColumnKey = "no-single-column-key"
  case objectComparison = "object-comparison"
  case objectNotAllowed = "object-not-allowed"
  case toManyNotAllowed = "to-many-not-allowed"
  case tooDeepForSql = "too-deep-for-sql"
  case tooLargeForSql = "too-large-for-sql"
  case typeMismatch = "type-mismatch"
  case unknownEntity = "unknown-entity"
  case unknownKeyPath = "unknown-key-path"
  case unsupportedInSql = "unsupported-in-sql"

  // MARK: Databases: opening, running, writing

  case cancelled = "cancelled"
  case databaseError = "database-error"
  case foreignKeyViolation = "foreign-key-violation"
  case invalidAssignment = "invalid-assignment"
  case invalidSchema = "invalid-schema"
  case livePushSetup = "live-push-setup"
  case loadError = "load-error"
  case missingSiftFunctions = "missing-sift-functions"
  case mysqlConnection = "mysql-connection"
  case mysqlQuery = "mysql-query"
  case mysqlResult = "mysql-result"
  case mysqlUnsupportedValue = "mysql-unsupported-value"
  case postgresConnection = "postgres-connection"
  case postgresError = "postgres-error"
  case postgresQuery = "postgres-query"
  case postgresResult = "postgres-result"
  case postgresUnsupportedValue = "postgres-unsupported-value"
  case sqliteError = "sqlite-error"
  case sqliteLocked = "sqlite-locked"
  case sqliteOpen = "sqlite-open"
  case schemaMismatch = "schema-mismatch"
  case siftFunctionsPrivilege = "sift-functions-privilege"
  case unsupportedWrite = "unsupported-write"
  case valueNotStorable = "value-not-storable"

  // MARK: Policy

  case invalidPolicy = "invalid-policy"
  case keyNotAllowed = "key-not-allowed"
  case listTooLong = "list-too-long"
  case operatorNotAllowed = "operator-not-allowed"
  case sortKeyNotAllowed = "sort-key-not-allowed"
  case stringTooLong = "string-too-long"
  case tooDeep = "too-deep"
  case tooManyNodes = "too-many-nodes"
  case variableNotAllowed = "variable-not-allowed"

  // MARK: Data, models, decoding, fetch requests and live results

  case badSortKey = "bad-sort-key"
  case cannotRead = "cannot-read"
  case decodeFailed = "decode-failed"
  case decodeMismatch = "decode-mismatch"
  case decodeMissingKey = "decode-missing-key"
  case invalidDate = "invalid-date"
  case invalidDateFormat = "invalid-date-format"
  case invalidJson = "invalid-json"
  case invalidModel = "invalid-model"
  case invalidRecords = "invalid-records"
  case invalidStore = "invalid-store"
  case liveRefused = "live-refused"
  case liveColumnChanged = "live-column-changed"
  case liveConnectionLost = "live-connection-lost"
  case liveModeUnavailable = "live-mode-unavailable"
  case notAnAggregate = "not-an-aggregate"
  case unknownHavingKey = "unknown-having-key"
  case notEncodable = "not-encodable"
  case invalidFetchRequest = "invalid-fetch-request"
  case negativeLimit = "negative-limit"
  case negativeOffset = "negative-offset"

  // MARK: Converting Swift's `#Predicate` and `SortDescriptor` (stage `.convert`)

  case unconvertibleExpression = "unconvertible-expression"
  case unconvertibleKeyPath = "unconvertible-key-path"
  case unconvertibleSort = "unconvertible-sort"
  case unconvertibleValue = "unconvertible-value"

  // MARK: Command line (`sift batch`: a case line that is not a case)

  case invalidCase = "invalid-case"
  case readOnly = "read-only"
}

extension SiftDiagnostic {
  /// A diagnostic whose id comes from the one list.
  ///
  /// ```swift
  /// SiftDiagnostic(id: .notAString, message: "BEGINSWITH needs a string, but this is a number", range: r)
  /// ```
  package init(
    id: DiagnosticID, severity: Severity = .error, message: String, range: SiftSourceRange,
    notes: [Note] = [], fixIts: [FixIt] = []
  ) {
    self.init(id: id.rawValue, severity: severity, message: message, range: range, notes: notes, fixIts: fixIts)
  }
}

extension SiftError {
  /// An error with no text to point into, its id from the one list.
  ///
  /// ```swift
  /// throw SiftError(stage: .data, id: .invalidRecords, message: "venues.json: expected an array of objects")
  /// ```
  package init(stage: Stage, id: DiagnosticID, message: String, underlying: (any Error & Sendable)? = nil) {
    self.init(stage: stage, id: id.rawValue, message: message, underlying: underlying)
  }
}
