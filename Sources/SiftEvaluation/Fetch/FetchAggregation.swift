import SiftSyntax

/// `.aggregates` and `.distinct` in memory, with SQL's rules (see `SiftAggregate`): groups by
/// value equality (integral doubles equal integers, strings by code point), ordered by their
/// keys ascending with nil first; no group-by gives one row even over no records.
struct FetchAggregation {
  /// One row per group: group key values, then the aggregates.
  static func rows<R: SiftRecord>(
    _ aggregates: [SiftAggregate], groupBy: [String], positions: [Int], of records: [R],
    variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [[SiftValue]] {
    // Group keys.
    var keyColumns: [[EvalValue]] = []
    for g in groupBy {
      keyColumns.append(
        try FetchColumn(keyPath: g, options: options).read(records, at: positions, variables: variables) { $0 })
    }
    var groups: [[Int]] = []  // offsets into positions
    var groupKeys: [[EvalValue]] = []
    if groupBy.isEmpty {
      groups = [Array(0..<positions.count)]
      groupKeys = [[]]
    } else if keyColumns.count == 1 {
      // One key: no array of keys per record.
      let column = keyColumns[0]
      var index: [Aggregates.Key: Int] = [:]
      for r in 0..<positions.count {
        let key = Aggregates.hashKey(column[r])
        if let g = index[key] {
          groups[g].append(r)
        } else {
          index[key] = groups.count
          groups.append([r])
          groupKeys.append([column[r]])
        }
      }
    } else {
      var index: [[Aggregates.Key]: Int] = [:]
      for r in 0..<positions.count {
        let key = keyColumns.map { Aggregates.hashKey($0[r]) }
        if let g = index[key] {
          groups[g].append(r)
        } else {
          index[key] = groups.count
          groups.append([r])
          groupKeys.append(keyColumns.map { $0[r] })
        }
      }
    }
    if !groupBy.isEmpty {
      let values = groupKeys.map { $0.map { $0.siftValue() } }
      let order = Array(0..<groups.count).sorted { i, j in
        for k in 0..<groupBy.count {
          let c = SiftSortOrder.compare(values[i][k], values[j][k], .binary)
          if c != 0 { return c < 0 }
        }
        return i < j
      }
      groups = order.map { groups[$0] }
      groupKeys = order.map { groupKeys[$0] }
    }
    // Aggregated columns, read once per distinct key path.
    var valueColumns: [String: [EvalValue]] = [:]
    for a in aggregates {
      guard let kp = a.keyPath, valueColumns[kp] == nil else { continue }
      valueColumns[kp] = try FetchColumn(keyPath: kp, options: options).read(
        records, at: positions, variables: variables
      ) { $0 }
    }
    var rows: [[SiftValue]] = []
    rows.reserveCapacity(groups.count)
    for (g, members) in groups.enumerated() {
      var row = groupKeys[g].map { $0.siftValue() }
      for a in aggregates {
        let column = a.keyPath.flatMap { valueColumns[$0] }
        let items = EvalList(.converted(column.map { c in members.map { c[$0] } } ?? []))
        row.append(try value(a, items: items, count: members.count))
      }
      rows.append(row)
    }
    return rows
  }

  /// One aggregate over one group's values.
  static func value(_ a: SiftAggregate, items: EvalList, count: Int) throws(SiftError) -> SiftValue {
    let source = a.keyPath ?? a.name
    let range = SiftSourceRange(start: 0, end: source.utf8.count)
    do {
      switch a.function {
      case .count:
        guard a.keyPath != nil else { return .int(Int64(count)) }
        var n: Int64 = 0
        for i in 0..<items.count where !items[i].isNull { n += 1 }
        return .int(n)
      case .sum: return try Aggregates.sum(items, at: range).siftValue()
      case .avg: return try Aggregates.average(items, at: range).siftValue()
      case .min: return try Aggregates.extreme(items, max: false, at: range).siftValue()
      case .max: return try Aggregates.extreme(items, max: true, at: range).siftValue()
      case .median: return try Aggregates.median(items, at: range).siftValue()
      case .stddev: return try Aggregates.stddev(items, at: range).siftValue()
      }
    } catch {
      throw error.error(source: source)
    }
  }

  /// The distinct values of a key path over the selected records, ascending, nil first.
  static func distinct<R: SiftRecord>(
    _ keyPath: String, positions: [Int], of records: [R], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [SiftValue] {
    let values = try FetchColumn(keyPath: keyPath, options: options).read(records, at: positions, variables: variables)
    { $0 }
    var seen: Set<Aggregates.Key> = []
    var out: [SiftValue] = []
    for v in values where seen.insert(Aggregates.hashKey(v)).inserted { out.append(v.siftValue()) }
    // Stable: equal-ordering values (never equal ones) keep first-seen order.
    return out.enumerated().sorted { x, y in
      let c = SiftSortOrder.compare(x.element, y.element, .binary)
      return c != 0 ? c < 0 : x.offset < y.offset
    }.map(\.element)
  }
}
