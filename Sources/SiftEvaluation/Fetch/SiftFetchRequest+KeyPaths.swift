import SiftSyntax

extension SiftFetchRequest {
  /// Stored name → a reader of that attribute from an element of `values` (`TypedReaders`), for
  /// every attribute the converted `#Predicate` and `SortDescriptor`s read. Nil when the request
  /// does not come from Swift's own predicates over `T`, or some key path has no reader.
  func typedReaders<T>(_ type: T.Type) -> [String: (TypedElement) -> SiftValue]? {
    var readers: [String: (TypedElement) -> SiftValue] = [:]
    var found = false
    for typed in [predicate?.typed] + sortDescriptors.map(\.typed) {
      guard let set = typed?.keyPaths else { continue }
      guard set.isComplete, set.root == T.self else { return nil }
      found = true
      for (name, keyPath) in set.keyPaths where readers[name] == nil {
        guard let read = TypedReaders.reader(keyPath, T.self) else { return nil }
        readers[name] = read
      }
    }
    return found ? readers : nil
  }

  /// `values` as records read through the key paths of a converted `#Predicate` and
  /// `SortDescriptor`s (`SiftTypedKeyPaths`): only the attributes the request reads, each
  /// `value[keyPath: kp]`, no `Encodable` pass over every property. Nil when the request does
  /// not come from Swift's own predicates over `T`, or reads something no key path gives (a
  /// nested chain, a format-string key); the caller then encodes the values.
  func keyPathRecords<T>(_ values: [T]) throws(SiftError) -> [SiftObject]? {
    switch resultType {
    case .records, .indices, .count: break
    default: return nil
    }
    guard let readers = typedReaders(T.self) else { return nil }
    let names = readers.keys.sorted()
    let known = Set(names)
    if let predicate, !SiftTypedKeyPaths.covers(predicate.root, names: known) { return nil }
    for d in sortDescriptors {
      guard
        SiftTypedKeyPaths.covers(SiftKeyPath(d.keyPath.split(separator: ".").map { .key(String($0)) }), names: known)
      else { return nil }
    }
    let reads = names.compactMap { readers[$0] }
    var cache = ShapeCache()
    let shape = cache.shape(for: names)
    var slots = [EvalValue](repeating: EvalValue(.null), count: reads.count)
    var out: [SiftObject] = []
    out.reserveCapacity(values.count)
    try values.withTypedElements { (base: TypedElement, stride: Int) throws(SiftError) -> Void in
      for i in values.indices {
        for r in reads.indices { slots[r] = EvalValue(reads[r](base + i * stride)) }
        out.append(SiftObject(shape: shape, values: slots))
      }
    }
    return out
  }

  /// The positions the request selects, in its order and page, when its predicate lowers to
  /// one Swift scan over `T` (`TypedLowering`: comparisons of plain attributes with constants):
  /// the scan runs over every value, and only the selected ones are read for sorting, each
  /// sort key once (`typedOrder`). Nil when it does not lower (the caller evaluates the tree).
  /// `counting`: only how many are selected matters (the order is not worked out).
  func keyPathFilterIndices<T>(
    _ values: [T], options: EvaluationOptions, counting: Bool = false
  ) throws(SiftError) -> [Int]? {
    guard resultType == .records || resultType == .indices, let predicate,
      let set = predicate.typed.keyPaths, set.isComplete, set.root == T.self,
      let plan = predicate.evaluationPlan(options),
      let scan = TypedLowering<T>(keyPaths: set.keyPaths).scan(plan)
    else { return nil }
    let selected =
      try values.withTypedElements { (base: TypedElement, stride: Int) throws(SiftError) -> [Int] in
        scan(base, stride, values.count, nil)
      } ?? []
    if sortDescriptors.isEmpty || counting { return Array(selected[window(count: selected.count)]) }
    return try typedOrder(selected, of: values, options: options)
  }

  /// `selected` (ascending positions in `values`) in the request's order and page, the sort keys
  /// read through the sort descriptors' key paths into the fetch's own sort columns
  /// (`SortColumn`, so the order is the fetch's). Nil when some descriptor has no key path.
  func typedOrder<T>(_ selected: [Int], of values: [T], options: EvaluationOptions) throws(SiftError) -> [Int]? {
    guard let readers = typedReaders(T.self) else { return nil }
    var reads: [(TypedElement) -> SiftValue] = []
    for d in sortDescriptors {
      guard let r = readers[d.keyPath] else { return nil }
      reads.append(r)
    }
    let page = window(count: selected.count)
    guard selected.count > 1 else { return Array(selected[page]) }
    let columns =
      try values.withTypedElements { (base: TypedElement, stride: Int) throws(SiftError) -> [SortColumn] in
        var columns: [SortColumn] = []
        for (d, read) in zip(sortDescriptors, reads) {
          if let keyPath = d.typed.keyPaths?.keyPaths[d.keyPath],
            let numbers = TypedNumbers.column(keyPath, T.self)?(base, stride, selected)
          {
            columns.append(SortColumn(numbers: numbers, d))
          } else {
            columns.append(SortColumn(selected.map { (i: Int) -> EvalValue in EvalValue(read(base + i * stride)) }, d))
          }
        }
        return columns
      } ?? []
    let order = FetchSorter.order(columns, count: selected.count, first: limit == nil ? nil : page.upperBound)
    return order[page.lowerBound..<min(page.upperBound, order.count)].map { selected[$0] }
  }
}
