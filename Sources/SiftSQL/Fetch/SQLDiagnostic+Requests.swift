import SiftSyntax

/// The SQL stage's diagnostics for fetch requests, batch writes and schema checks: one builder
/// per condition, its message written once (the compiler's own are in `SQLDiagnostic.swift`).
///
/// ```swift
/// throw SQLDiagnostic.unknownEntity("Venu", among: ["Venue"]).error(spanning: "Venu")
/// ```
extension SQLDiagnostic {
  // MARK: Entities and fetch requests

  static func unknownEntity(_ name: String, among names: [String]) -> Self {
    var message = "entity '\(name)' not found in the schema"
    if let s = Spelling.closest(to: name, in: names) { message += "; did you mean '\(s)'?" }
    return Self(.unknownEntity, message)
  }

  static let expressionArgumentsUnbound = Self(
    .unboundArgument, "bind the expression's format arguments before compiling it")

  static let aggregateInExpression = Self(
    .aggregateInExpression,
    "an aggregate over the fetch is one value, not one per record: use compile(_:over:) or an .aggregates result")

  static func noRecordPositions(entity: String) -> Self {
    Self(
      .noRecordPositions,
      "\(entity) is a table Sift did not create: it has no record positions (__sift_index); "
        + "fetch its records or keys")
  }

  static func noSingleColumnKey(entity: String) -> Self {
    Self(
      .noSingleColumnKey,
      "\(entity) has no single-column primary key, so an aggregate over a page of it (limit/offset) cannot be "
        + "compiled; aggregate without limit/offset or in memory")
  }

  static let unsortableKeyPath = Self(.unsupportedInSql, "this key path cannot be sorted on")

  static func aggregateNeedsKeyPath(_ function: String) -> Self {
    Self(.aggregateNeedsKeyPath, "\(function) needs a key path")
  }

  static func aggregateNeedsNumbers(_ function: String) -> Self { Self(.notANumber, "\(function) needs numbers") }

  static func noSQLEquivalent(_ function: String) -> Self {
    Self(.unsupportedInSql, "\(function) has no SQL equivalent in every dialect; evaluate it in memory")
  }

  // MARK: Batch writes

  static let expectedUpdateExpression = Self(.expectedExpression, "expected an expression such as tipCount + 1")

  static let noAssignments = Self(.invalidAssignment, "a batch update needs at least one assignment")

  static func notUpdatable(_ name: String, entity: String) -> Self {
    Self(.invalidAssignment, "'\(name)' is not an updatable attribute of \(entity)")
  }

  static func assignmentType(entity: String, attribute: String, is type: String, value: SQLType) -> Self {
    Self(.typeMismatch, "\(entity).\(attribute) is \(type), but the new value is \(value)")
  }

  static func emptyInsert(entity: String) -> Self {
    Self(.invalidAssignment, "an object to insert into \(entity) has no attributes")
  }

  static func isView(entity: String) -> Self {
    Self(.unsupportedWrite, "\(entity) is a view; write to its tables instead")
  }

  static func coreDataDelete(entity: String, pointedAtBy related: String) -> Self {
    Self(
      .unsupportedWrite,
      "\(entity) is an entity of a Core Data store and \(related) points at its rows: deleting them needs Core "
        + "Data's delete rules and join tables; delete them with Core Data")
  }

  static func coreDataInsert(entity: String) -> Self {
    Self(
      .unsupportedWrite,
      "\(entity) is an entity of a Core Data store: a new row needs Core Data's bookkeeping (Z_PRIMARYKEY.Z_MAX, "
        + "Z_ENT, Z_OPT); insert it with Core Data")
  }

  // MARK: Schema checks

  /// A stored value the schema's attribute cannot read; `column` is the quoted `"table"."column"`.
  static func schemaMismatch(entity: String, attribute: String, column: String, _ problem: String) -> Self {
    Self(.schemaMismatch, "\(entity).\(attribute) (column \(column)) \(problem)")
  }
}

extension SiftError {
  /// `time-limit` at stage `.policy`: a statement stopped by its time limit, in both drivers'
  /// words (and memory's, `EvalDiagnostics.timeLimit`).
  ///
  /// ```swift
  /// throw SiftError.queryTimeLimit(milliseconds: 250)
  /// ```
  package static func queryTimeLimit(milliseconds: Int, underlying: (any Error & Sendable)? = nil) -> SiftError {
    SiftError(
      stage: .policy,
      diagnostic: SiftDiagnostic(
        id: .timeLimit, message: "the query ran longer than its time limit of \(milliseconds) ms", range: .at(0)),
      source: "", underlying: underlying)
  }
}
