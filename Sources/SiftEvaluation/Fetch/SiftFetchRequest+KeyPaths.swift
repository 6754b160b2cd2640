import SiftSyntax

extension SiftFetchRequest {
  /// `values` as records read through the key paths of a converted `#Predicate` and
  /// `SortDescriptor`s (`SiftTypedReaders`): only the attributes the request reads, each
  /// `value[keyPath: kp]`, no `Encodable` pass over every property. Nil when the request does
  /// not come from Swift's own predicates over `T`, or reads something no key path gives (a
  /// nested chain, a format-string key); the caller then encodes the values.
  func keyPathRecords<T>(_ values: [T]) -> [SiftObject]? {
    switch resultType {
    case .records, .indices, .count: break
    default: return nil
    }
    var readers: [String: (T) -> SiftValue] = [:]
    var found = false
    for typed in [predicate?.typed] + sortDescriptors.map(\.typed) {
      guard let set = typed?.readers else { continue }
      guard let typedReaders = set.typed(T.self) else { return nil }
      found = true
      for (name, read) in typedReaders { readers[name] = read }
    }
    guard found else { return nil }
    let names = readers.keys.sorted()
    let known = Set(names)
    if let predicate, !SiftTypedReaders.covers(predicate.root, names: known) { return nil }
    for d in sortDescriptors {
      guard SiftTypedReaders.covers(SiftKeyPath(d.keyPath.split(separator: ".").map { .key(String($0)) }), names: known)
      else { return nil }
    }
    let reads = names.compactMap { readers[$0] }
    var cache = ShapeCache()
    let shape = cache.shape(for: names)
    var slots = [EvalValue](repeating: EvalValue(.null), count: reads.count)
    var out: [SiftObject] = []
    out.reserveCapacity(values.count)
    for v in values {
      for i in reads.indices { slots[i] = EvalValue(reads[i](v)) }
      out.append(SiftObject(shape: shape, values: slots))
    }
    return out
  }

  /// The positions the request selects, in its order and page, when its predicate compiles to
  /// one Swift closure over `T` (`SiftTypedReaders.filter`: comparisons of plain attributes
  /// with constants): the closure runs over every value, and only the selected ones are read
  /// for sorting. Nil when it does not compile (the caller evaluates the tree). `counting`:
  /// only how many are selected matters (the order is not worked out).
  func keyPathFilterIndices<T>(
    _ values: [T], options: EvaluationOptions, counting: Bool = false
  ) throws(SiftError) -> [Int]? {
    guard resultType == .records || resultType == .indices, let predicate, let readers = predicate.typed.readers,
      let test = readers.filter(predicate.root, as: T.self)
    else { return nil }
    var selected: [Int] = []
    // By index: `enumerated()` over a `T` known only at run time looks up the (Int, T) tuple's
    // metadata per element (`perf`: the tuple cache among the top symbols of --suite typed).
    for i in values.indices where test(values[i]) { selected.append(i) }
    if sortDescriptors.isEmpty || counting { return Array(selected[window(count: selected.count)]) }
    // The sort on the selected values alone (ties keep their order, as over all of them).
    var rest = self
    rest.predicate = nil
    guard let records = rest.keyPathRecords(selected.map { values[$0] }) else { return nil }
    return try rest.matchingIndices(in: records, options: options).map { selected[$0] }
  }
}
