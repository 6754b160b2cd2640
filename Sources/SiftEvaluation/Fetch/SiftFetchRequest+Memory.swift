import SiftSyntax

extension SiftFetchRequest {
  /// Executes the request over `records` in memory, with the answers the SQL engines give
  /// (Grammar/notes/fetch.md): filter by the predicate, sort (`SiftSortOrder`; equal keys keep
  /// input order), apply offset and limit, and shape the result.
  ///
  /// ```swift
  /// let request = SiftFetchRequest(
  ///   entity: "Venue", predicate: try SiftPredicate(format: "rating >= 4"),
  ///   sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive)], limit: 10)
  /// if case .indices(let top) = try request.execute(on: venues) { print(top) }
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` (the predicate's errors under
  ///   `options.policy`, a sort or aggregate error such as `not-a-number`), or a negative
  ///   limit/offset.
  public func execute<R: SiftRecord>(
    on records: [R], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> SiftFetchResult {
    try execute(on: records, entities: nil, variables: variables, options: options)
  }

  /// `execute(on:)` over the records of an entity hierarchy, `entities[i]` naming the entity
  /// of `records[i]`: with `includesSubentities` false only the records of `entity` itself
  /// are fetched (Core Data's `includesSubentities = false`), else all of them. Without
  /// `entities` the records given are the entity's own.
  ///
  /// ```swift
  /// var books = SiftFetchRequest(entity: "Book")
  /// books.includesSubentities = false
  /// try books.execute(on: items, entities: ["Book", "Novel", "Book"])   // .indices([0, 2])
  /// ```
  /// - Throws: as `execute(on:)`; `invalid-fetch-request` when `entities` does not name one
  ///   entity per record.
  public func execute<R: SiftRecord>(
    on records: [R], entities: [String]?, variables: [String: SiftValue] = [:],
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> SiftFetchResult {
    try validate(stage: .evaluate)
    try validateShape(stage: .evaluate)
    var selected: [Int]
    if let predicate {
      selected = try predicate.compile(options).matchingIndices(records, variables: variables)
    } else {
      selected = Array(records.indices)
    }
    if let entities {
      guard entities.count == records.count else {
        throw SiftError(
          stage: .evaluate, id: .invalidFetchRequest,
          message: "\(entities.count) entity names for \(records.count) records: give one per record")
      }
      if !includesSubentities { selected = selected.filter { entities[$0] == entity } }
    }
    return try finish(selected, of: records, variables: variables, options: options)
  }

  /// The positions `execute(on:)` gives for `.records` and `.indices`, whatever the result type.
  ///
  /// ```swift
  /// let page = try request.matchingIndices(in: venues)   // sorted, offset, limited
  /// ```
  public func matchingIndices<R: SiftRecord>(
    in records: [R], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> [Int] {
    var r = self
    r.resultType = .indices
    guard case .indices(let positions) = try r.execute(on: records, variables: variables, options: options) else {
      return []
    }
    return positions
  }

  /// Sorts, pages and shapes the positions the predicate selected (ascending).
  func finish<R: SiftRecord>(
    _ selected: [Int], of records: [R], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> SiftFetchResult {
    func ordered() throws(SiftError) -> [Int] {
      let page = window(count: selected.count)
      let sorted = try FetchSorter(sortDescriptors, options: options)
        .sort(selected, of: records, variables: variables, first: limit == nil ? nil : page.upperBound)
      return Array(sorted[page.lowerBound..<min(page.upperBound, sorted.count)])
    }
    switch resultType {
    case .records, .indices:
      return .indices(try ordered())
    case .count:
      return .count(window(count: selected.count).count)
    case .distinct(let keyPath):
      let values = try FetchAggregation.distinct(
        keyPath, positions: selected, of: records, variables: variables, options: options)
      return .values(Array(values[window(count: values.count)]))
    case .properties(let keyPaths) where returnsDistinctResults:
      let rows = try FetchAggregation.distinctRows(
        keyPaths, sortedBy: distinctSortColumns(keyPaths), positions: selected, of: records, variables: variables,
        options: options)
      return .rows(columns: keyPaths, Array(rows[window(count: rows.count)]))
    case .properties, .expressions:
      return try shaped(try ordered(), of: records, variables: variables, options: options)
    case .aggregates(let aggregates, let groupBy):
      var rows = try FetchAggregation.rows(
        aggregates, groupBy: groupBy, positions: selected, of: records, variables: variables, options: options)
      if let plan = try havingPlan(stage: .evaluate) {
        rows = try FetchAggregation.having(plan, rows, variables: variables, options: options)
      }
      return .rows(columns: groupBy + aggregates.map(\.name), Array(rows[window(count: rows.count)]))
    }
  }
}

extension SiftFetchRequest {
  /// The rows of `.properties` and `.expressions` results for the records at `page` (in that
  /// order); `.indices` for the other per-record shapes.
  func shaped<R: SiftRecord>(
    _ page: [Int], of records: [R], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> SiftFetchResult {
    var names: [String] = []
    var columns: [[SiftValue]] = []
    switch resultType {
    case .properties(let keyPaths):
      names = keyPaths
      for k in keyPaths {
        columns.append(
          try FetchColumn(keyPath: k, options: options).read(records, at: page, variables: variables) { $0.siftValue() }
        )
      }
    case .expressions(let descriptions):
      names = descriptions.map(\.name)
      for d in descriptions {
        columns.append(
          try FetchColumn(expression: d.expression, options: options).read(records, at: page, variables: variables) {
            $0.siftValue()
          })
      }
    default:
      return .indices(page)
    }
    return .rows(columns: names, (0..<page.count).map { r in columns.map { $0[r] } })
  }
}

extension SiftExpression {
  /// The expression evaluated once over a whole fetch, as Core Data evaluates an
  /// `NSExpressionDescription`: `SELF` is the array of records, so a key path reads every
  /// record's value (`sum:(specialCount)` is the total, `average:(rating)` the mean,
  /// `count:(SELF)` the number of records). One aggregate of a key follows `SiftAggregate`'s
  /// rules, as the SQL compiled for it does: nil values are skipped (`count:(rating)` counts
  /// the records that have one).
  ///
  /// ```swift
  /// try SiftExpression(format: "sum:(specialCount)").aggregateValue(over: venues)   // 42
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate`.
  public func aggregateValue<R: SiftRecord>(
    over records: [R], variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> SiftValue {
    // An aggregate of a plain key follows `SiftAggregate`'s rules, as SQL's compile(_:over:)
    // does (`count:(x)` counts non-nil values, like COUNT(x)), reading the column directly;
    // what those rules refuse (an array-valued key) takes the general path below.
    if let a = try? SiftAggregate(self), let key = a.keyPath, !key.contains("."),
      let rows = try? FetchAggregation.rows(
        [a], groupBy: [], positions: Array(records.indices), of: records, variables: variables, options: options),
      let value = rows.first?.first
    {
      return value
    }
    let all = EvalValue.array(records.map { $0.siftRecordRoot.value })
    let column = try FetchColumn(expression: self, options: options)
    return try column.read([AggregateRoot(root: all)], at: [0], variables: variables) { $0.siftValue() }[0]
  }
}

/// A record that is a prepared evaluator value (the array of a fetch's records).
struct AggregateRoot: SiftRecord {
  let root: EvalValue
  func value(forKey key: String) -> SiftValue? { nil }
  var siftRecordRoot: SiftRecordRoot { SiftRecordRoot(root) }
}

extension SiftFetchRequest {
  /// `positions` (of `records`) in the order of the sort descriptors, ties in the given order;
  /// predicate, limit, offset and result type are not applied.
  ///
  /// ```swift
  /// let request = SiftFetchRequest(entity: "Venue", sortDescriptors: try SiftSortDescriptor.parseList("rating desc"))
  /// let ordered = try request.sort([0, 3, 7], of: venues)
  /// ```
  public func sort<R: SiftRecord>(
    _ positions: [Int], of records: [R], variables: [String: SiftValue] = [:],
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> [Int] {
    guard !sortDescriptors.isEmpty else { return positions }
    // The sorter's tiebreak is the offset in `positions`, so ties keep the given order.
    return try FetchSorter(sortDescriptors, options: options).sort(positions, of: records, variables: variables)
  }
}
