import SiftSyntax

extension SiftFetchRequest {
  /// The attributes the request reads from each record, when it reads nothing else: the keys
  /// its predicate reads from the record itself and its sort descriptors' first keys. Nil when
  /// the result needs more (properties, groups, distinct values) or the predicate reads the
  /// record whole (`SELF`).
  var recordKeysRead: Set<String>? {
    switch resultType {
    case .records, .indices, .count: break
    default: return nil
    }
    var keys: Set<String> = []
    if let predicate {
      guard let read = predicate.root.recordKeys else { return nil }
      keys = read
    }
    for d in sortDescriptors {
      guard let first = d.keyPath.split(separator: ".").first else { return nil }
      keys.insert(String(first))
    }
    return keys
  }

  /// The positions the request selects from `values`, in its order and page, each value
  /// encoded into one reused record (`BatchSlots.record`) holding only the attributes the request reads
  /// (`recordKeysRead`), the predicate run on it at once, and only the selected values' sort
  /// keys kept: no record is built per value. Nil when that does not apply (a result other
  /// than records, a sort key path of more than one key, a value whose keys differ from the
  /// first one's): the caller then encodes every value as records (`execute(on:)`), with the
  /// same answers.
  ///
  /// Measured reason: `--suite typed`, a format string over 100,000 `Encodable` structs, went
  /// from building and freeing a record per struct (`perf`: allocation, reference counting and
  /// the container box of every `encode(to:)`) to (figures in Benchmarks.md).
  func encodedMatchingIndices<T: Encodable>(
    _ values: [T], variables: [String: SiftValue], options: EvaluationOptions
  ) throws(SiftError) -> [Int]? {
    guard resultType == .records || resultType == .indices, let keys = recordKeysRead,
      sortDescriptors.allSatisfy({ !$0.keyPath.contains(".") }), let first = values.first
    else { return nil }
    try validate(stage: .evaluate)
    try validateShape(stage: .evaluate)
    let run = try predicate?.compile(options).program.start(variables)
    guard let slots = try BatchSlots(first: first, reading: keys) else { return nil }
    defer { slots.releaseContainer() }
    var sortSlots: [Int] = []
    for d in sortDescriptors {
      guard let s = slots.index[d.keyPath] else { return nil }
      sortSlots.append(s)
    }
    guard let record = slots.record else { return nil }
    var selected: [Int] = []
    var sortKeys = [[EvalValue]](repeating: [], count: sortDescriptors.count)
    let timed = run.map { $0.frame.workMeter.deadline != 0 } ?? false
    for i in values.indices {
      guard try slots.fill(values[i]) else { return nil }
      if let run {
        // Under a time limit, the clock is read every 256 values, as `Run.each` reads it.
        if timed, i % 256 == 0, i > 0 {
          do throws(EvalFailure) { try run.frame.workMeter.checkClock(at: .at(0)) } catch {
            throw run.fail(error, index: i - 1)
          }
        }
        guard try run.test(record.siftRecordRoot, index: i) else { continue }
      }
      selected.append(i)
      for (k, s) in sortSlots.enumerated() { sortKeys[k].append(slots.values[s]) }
    }
    let page = window(count: selected.count)
    guard !sortDescriptors.isEmpty, selected.count > 1 else { return Array(selected[page]) }
    let columns = zip(sortKeys, sortDescriptors).map { SortColumn($0, $1) }
    let order = FetchSorter.order(columns, count: selected.count, first: limit == nil ? nil : page.upperBound)
    return order[page.lowerBound..<min(page.upperBound, order.count)].map { selected[$0] }
  }
}
