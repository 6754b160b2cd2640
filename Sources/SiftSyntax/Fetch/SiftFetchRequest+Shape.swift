/// A having predicate read against the columns of an `.aggregates` result: each column it
/// names (a group-by key path, or an aggregate's name as a key or a `$variable`) is replaced
/// by the key `c0`, `c1`, … (`key(_:)`) of its position, so every engine evaluates it over
/// rows keyed that way (memory: dictionaries; SQL: the grouped SELECT as a table).
package struct SiftHavingPlan: Sendable {
  /// The result's columns in order: the group-by key paths, then the aggregates' names.
  package let columns: [String]
  /// The having predicate over the keys `key(0)`, `key(1)`, …
  package let predicate: SiftPredicate

  /// The key a column is read by in `predicate`.
  package static func key(_ position: Int) -> String { "c\(position)" }
}

extension SiftFetchRequest {
  /// The having predicate over the result's columns, or nil without one.
  ///
  /// ```swift
  /// var r = SiftFetchRequest(entity: "Venue", resultType: .aggregates([SiftAggregate(.count, name: "n")], groupBy: ["city"]))
  /// r.havingPredicate = try SiftPredicate(format: "n > 1")
  /// try r.havingPlan()?.predicate.predicateFormat   // c1 > 1
  /// ```
  /// - Throws: `invalid-fetch-request` when the result is not `.aggregates`;
  ///   `unknown-having-key` (pointing into the having predicate) for a key path that names no
  ///   column of the result.
  package func havingPlan(stage: SiftError.Stage = .sql) throws(SiftError) -> SiftHavingPlan? {
    guard let having = havingPredicate else { return nil }
    guard case .aggregates(let aggregates, let groupBy) = resultType else {
      throw Self.invalid(
        "a having predicate needs an aggregates result with its group-by (propertiesToGroupBy)", stage: stage)
    }
    let columns = groupBy + aggregates.map(\.name)
    var position: [String: Int] = [:]
    for (i, c) in columns.enumerated() where position[c] == nil { position[c] = i }
    var unknown: (String, SiftSourceRange)?
    let root = ASTWalker.rewrite(having.root) { (e: ExpressionNode, scope: Set<String>) -> ExpressionNode in
      switch e.kind {
      case .keyPath(.none, let kp):
        if let i = position[kp.description] { return .keyPath(SiftHavingPlan.key(i), range: e.range) }
        if unknown == nil { unknown = (kp.description, e.range) }
        return e
      case .variable(let name) where !scope.contains(name):
        if let i = position[name] { return .keyPath(SiftHavingPlan.key(i), range: e.range) }
        return e
      default:
        return e
      }
    }
    if let (name, range) = unknown {
      let list = columns.map { "'\($0)'" }.joined(separator: ", ")
      throw SiftError(
        stage: stage,
        diagnostic: SiftDiagnostic(
          id: .unknownHavingKey,
          message: "'\(name)' is not a column of the grouped result; a having predicate names one of \(list)",
          range: range),
        source: having.source)
    }
    return SiftHavingPlan(
      columns: columns,
      predicate: SiftPredicate(
        root: root, source: having.source, warnings: having.warnings,
        unboundArgumentCount: having.unboundArgumentCount))
  }

  /// Checks the options that depend on the result type: `returnsDistinctResults` is for
  /// `.properties` (and then every sort key is one of the properties), a having predicate
  /// for `.aggregates`.
  ///
  /// ```swift
  /// var r = SiftFetchRequest(entity: "Venue", resultType: .count)
  /// r.returnsDistinctResults = true
  /// try r.validateShape()   // throws invalid-fetch-request
  /// ```
  package func validateShape(stage: SiftError.Stage = .sql) throws(SiftError) {
    _ = try havingPlan(stage: stage)
    guard returnsDistinctResults else { return }
    guard case .properties(let keyPaths) = resultType else {
      throw Self.invalid(
        "returnsDistinctResults needs a properties result (propertiesToFetch); .distinct(k) is one property",
        stage: stage)
    }
    for s in sortDescriptors where !keyPaths.contains(s.keyPath) {
      throw Self.invalid(
        "a distinct result is sorted by its own properties; '\(s.keyPath)' is not one of them", stage: stage)
    }
  }

  /// For each sort descriptor of a distinct `.properties` request, the position of its key
  /// path among the properties (`validateShape` has checked that there is one).
  package func distinctSortColumns(_ keyPaths: [String]) -> [(Int, SiftSortDescriptor)] {
    sortDescriptors.compactMap { s in keyPaths.firstIndex(of: s.keyPath).map { ($0, s) } }
  }

  static func invalid(_ message: String, stage: SiftError.Stage) -> SiftError {
    SiftError(stage: stage, id: .invalidFetchRequest, message: message)
  }
}
