/// What to fetch: an entity, an optional predicate, sort descriptors, limit and offset, and
/// the shape of the result (`NSFetchRequest`). One description for every engine: SiftEvaluation
/// executes it over records in memory (`request.execute(on:)`), SiftSQL compiles it
/// (`SQLCompiler.compile(_:)`), with the same answers (Grammar/notes/fetch.md).
///
/// ```swift
/// let request = SiftFetchRequest(
///   entity: "Venue", predicate: try SiftPredicate(format: "distance < %@", 5),
///   sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive)], limit: 20)
/// let statement = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compile(request)
/// let rows = try request.execute(on: venues)   // the same records, in memory
/// ```
public struct SiftFetchRequest: Sendable, Hashable {
  /// The result shape (`NSFetchRequestResultType` and `propertiesToFetch`).
  public enum ResultType: Sendable, Hashable {
    /// One row per record, in the fetch's order (SQL: the entity's column attributes, see
    /// `SQLCompiler.recordColumns`; memory: the records' positions).
    case records
    /// One row with one integer: how many records the request selects (after limit/offset).
    case count
    /// The distinct values of a key path (to-one paths allowed), in ascending binary order,
    /// nil first (`returnsDistinctResults` with one property).
    case distinct(String)
    /// One dictionary-shaped row per record: the values of these key paths, in the fetch's
    /// order (`resultType = .dictionaryResultType` with `propertiesToFetch`).
    case properties([String])
    /// One row per group: the group-by key paths' values, then each aggregate; groups in
    /// ascending order of their keys, nil first (`NSExpressionDescription` with
    /// `propertiesToGroupBy`). No group-by: exactly one row over the whole fetch.
    case aggregates([SiftAggregate], groupBy: [String])
    /// One row per record: the value of each expression (`NSExpressionDescription` without
    /// an aggregate), in the fetch's order.
    case expressions([SiftExpressionDescription])
    /// The matching records' positions in the array they were loaded from, in the fetch's
    /// order (the position is the last sort key).
    case indices
  }

  /// The entity name (memory ignores it: the records given are the entity's).
  public var entity: String
  /// The filter; nil fetches everything.
  public var predicate: SiftPredicate?
  /// Sort order. Equal keys keep the records' order: SQL adds the primary key (the position
  /// for `.indices`), memory the position in the input.
  public var sortDescriptors: [SiftSortDescriptor]
  /// At most this many rows (≥ 0).
  public var limit: Int?
  /// Skip this many rows first (≥ 0).
  public var offset: Int?
  /// The result shape.
  public var resultType: ResultType
  /// `havingPredicate`: which groups of an `.aggregates` result are kept, tested after
  /// grouping. It names the result's columns: a group-by key path, or an aggregate's name as a
  /// key (`count > 1`) or as a variable (`$count > 1`, Core Data's `NSExpression(forVariable:)`).
  /// Any other result type refuses it (`invalid-fetch-request`); see Grammar/notes/fetch.md.
  public var havingPredicate: SiftPredicate? = nil
  /// `includesSubentities`: false keeps only the rows of `entity` itself, none of its
  /// sub-entities' (SQL: the entity's own `Z_ENT`, `SQLEntity.ownRows`; memory: the records
  /// whose entity, as given to `execute(on:entities:)`, is `entity`).
  public var includesSubentities: Bool = true
  /// `returnsDistinctResults` for a `.properties` result: one row per distinct combination of
  /// the properties' values (Grammar/notes/fetch.md, "Distinct rows").
  public var returnsDistinctResults: Bool = false
  /// `fetchBatchSize`: rows are read and handed on this many at a time, with the same answer
  /// (SiftSQL's `SQLDatabase.fetch(_:compiler:batches:)`, memory's `execute(on:batches:)`); nil
  /// or 0 reads them all at once.
  public var fetchBatchSize: Int? = nil

  /// Creates a request.
  ///
  /// ```swift
  /// let page = SiftFetchRequest(entity: "Venue", sortDescriptors: [SiftSortDescriptor("rating", ascending: false)], limit: 10, offset: 20)
  /// ```
  public init(
    entity: String, predicate: SiftPredicate? = nil, sortDescriptors: [SiftSortDescriptor] = [],
    limit: Int? = nil, offset: Int? = nil, resultType: ResultType = .records
  ) {
    self.entity = entity
    self.predicate = predicate
    self.sortDescriptors = sortDescriptors
    self.limit = limit
    self.offset = offset
    self.resultType = resultType
  }

  /// Checks limit and offset: a negative one is the error `negative-limit` / `negative-offset`.
  ///
  /// ```swift
  /// try SiftFetchRequest(entity: "Venue", limit: -1).validate()   // throws negative-limit
  /// ```
  package func validate(stage: SiftError.Stage = .sql) throws(SiftError) {
    for (name, id, v) in [("limit", DiagnosticID.negativeLimit, limit), ("offset", .negativeOffset, offset)] {
      if let v, v < 0 {
        throw SiftError(
          stage: stage,
          diagnostic: SiftDiagnostic(id: id, severity: .error, message: "\(name) must not be negative", range: .at(0)),
          source: "")
      }
    }
  }

  /// The window `offset..<offset+limit` applied to `count` ordered rows.
  ///
  /// ```swift
  /// SiftFetchRequest(entity: "V", limit: 2, offset: 1).window(count: 5)   // 1..<3
  /// ```
  public func window(count: Int) -> Range<Int> {
    let start = min(count, max(0, offset ?? 0))
    let end = limit.map { start + min(count - start, max(0, $0)) } ?? count  // no overflow at Int.max
    return start..<end
  }
}

/// A named expression column of a fetch (`NSExpressionDescription`): evaluated per record
/// for `.expressions` results.
///
/// ```swift
/// SiftExpressionDescription(name: "discounted", expression: try SiftExpression(format: "price * 0.9"))
/// ```
public struct SiftExpressionDescription: Sendable, Hashable {
  /// The result column name.
  public var name: String
  /// The expression.
  public var expression: SiftExpression

  /// Creates a description; the name defaults to the expression's canonical format.
  public init(name: String? = nil, expression: SiftExpression) {
    self.name = name ?? expression.expressionFormat
    self.expression = expression
  }
}
