import SiftSyntax

/// A having predicate over grouped rows and distinct rows over several properties, in memory,
/// with SQL's rules (Grammar/notes/fetch.md, "Having" and "Distinct rows").
extension FetchAggregation {
  /// The rows whose columns, read as the keys `c0`, `c1`, … of `plan`, satisfy its predicate.
  static func having(
    _ plan: SiftHavingPlan, _ rows: [[SiftValue]], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [[SiftValue]] {
    let records: [[String: SiftValue]] = rows.map { row in
      var d: [String: SiftValue] = [:]
      for (i, v) in row.enumerated() { d[SiftHavingPlan.key(i)] = v }
      return d
    }
    let keep = try plan.predicate.compile(options).matchingIndices(records, variables: variables)
    return keep.map { rows[$0] }
  }

  /// One row per distinct combination of the key paths' values: ordered by `sorts` (each a
  /// column and its descriptor), ties by the values themselves ascending binary, nil first.
  static func distinctRows<R: SiftRecord>(
    _ keyPaths: [String], sortedBy sorts: [(Int, SiftSortDescriptor)], positions: [Int], of records: [R],
    variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [[SiftValue]] {
    let groups = try rows(
      [], groupBy: keyPaths, positions: positions, of: records, variables: variables, options: options)
    guard !sorts.isEmpty else { return groups }
    return groups.enumerated().sorted { x, y in
      for (column, d) in sorts {
        let c = compare(x.element[column], y.element[column], d)
        if c != 0 { return c < 0 }
      }
      return x.offset < y.offset
    }.map(\.element)
  }

  /// -1, 0 or 1: `a` against `b` in a descriptor's order, nil placed as it says.
  static func compare(_ a: SiftValue, _ b: SiftValue, _ d: SiftSortDescriptor) -> Int {
    switch (a.isNull, b.isNull) {
    case (true, true): return 0
    case (true, false): return d.nilsFirst ? -1 : 1
    case (false, true): return d.nilsFirst ? 1 : -1
    case (false, false):
      let c = SiftSortOrder.compare(a, b, d.comparison)
      return d.ascending ? c : -c
    }
  }
}
