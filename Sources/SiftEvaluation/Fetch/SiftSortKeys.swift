import SiftSyntax

/// Sort descriptors compiled once, for code that keeps records in order itself (live results
/// insert one record by binary search instead of re-sorting): `keys(of:)` reads a record's sort
/// keys once, `compare` orders two key tuples exactly as `SiftFetchRequest.execute(on:)` sorts
/// (`SiftSortOrder`, nil placed per descriptor by the same `SortPlan` the fetch uses). Ties
/// are the caller's to break (the fetch uses the input position).
///
/// ```swift
/// let order = try SiftSortKeyReader(try SiftSortDescriptor.parseList("rating desc, name asc"))
/// let a = try order.keys(of: venues[0]), b = try order.keys(of: venues[1])
/// order.compare(a, b)   // -1: venues[0] comes first
/// ```
public struct SiftSortKeyReader: Sendable {
  /// The descriptors, in order.
  public let descriptors: [SiftSortDescriptor]
  let columns: [FetchColumn]
  let plan: [SortPlan]

  /// Compiles the descriptors' key paths.
  ///
  /// ```swift
  /// let order = try SiftSortKeyReader([SiftSortDescriptor("name", comparison: .caseInsensitive)])
  /// ```
  /// - Throws: `SiftError` when a key path does not compile.
  public init(_ descriptors: [SiftSortDescriptor], options: EvaluationOptions = EvaluationOptions()) throws(SiftError) {
    self.descriptors = descriptors
    var columns: [FetchColumn] = []
    for d in descriptors { columns.append(try FetchColumn(keyPath: d.keyPath, options: options)) }
    self.columns = columns
    plan = descriptors.map(SortPlan.init)
  }

  /// The record's sort keys, read once.
  ///
  /// ```swift
  /// let keys = try order.keys(of: record)
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` when a key path cannot be read.
  public func keys<R: SiftRecord>(of record: R, variables: [String: SiftValue] = [:]) throws(SiftError) -> SiftSortKeys
  {
    var keys: [SortKey] = []
    keys.reserveCapacity(columns.count)
    for (p, column) in zip(plan, columns) {
      let comparison = p.comparison
      keys.append(try column.read([record], at: [0], variables: variables) { SortKey($0, comparison) }[0])
    }
    return SiftSortKeys(keys: keys)
  }

  /// The sort keys of the records at `positions`, in that order (one pass per descriptor).
  ///
  /// ```swift
  /// let keys = try order.keys(of: venues, at: [0, 5, 9])
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` when a key path cannot be read.
  public func keys<R: SiftRecord>(
    of records: [R], at positions: [Int], variables: [String: SiftValue] = [:]
  ) throws(SiftError) -> [SiftSortKeys] {
    var columns: [[SortKey]] = []
    for (p, column) in zip(plan, self.columns) {
      let comparison = p.comparison
      columns.append(try column.read(records, at: positions, variables: variables) { SortKey($0, comparison) })
    }
    return positions.indices.map { r in SiftSortKeys(keys: columns.map { $0[r] }) }
  }

  /// -1, 0 or 1: the order of two records' keys under the descriptors.
  ///
  /// ```swift
  /// order.compare(try order.keys(of: a), try order.keys(of: b))
  /// ```
  public func compare(_ a: SiftSortKeys, _ b: SiftSortKeys) -> Int {
    for k in 0..<Swift.min(plan.count, a.keys.count, b.keys.count) {
      let c = plan[k].compare(a.keys[k], b.keys[k])
      if c != 0 { return c }
    }
    return 0
  }

  /// -1, 0 or 1 by the first `count` descriptors only (a section key that leads the order).
  ///
  /// ```swift
  /// order.compare(a, b, prefix: 1) == 0   // same section
  /// ```
  public func compare(_ a: SiftSortKeys, _ b: SiftSortKeys, prefix count: Int) -> Int {
    for k in 0..<Swift.min(count, plan.count, a.keys.count, b.keys.count) {
      let c = plan[k].compare(a.keys[k], b.keys[k])
      if c != 0 { return c }
    }
    return 0
  }
}

/// One record's sort keys (from `SiftSortKeyReader.keys(of:)`), in the form comparisons are
/// cheapest.
///
/// ```swift
/// let keys = try order.keys(of: record)
/// keys.value(at: 0)   // the first descriptor's value, e.g. .string("Oslo")
/// ```
public struct SiftSortKeys: Sendable {
  let keys: [SortKey]

  /// The value read for descriptor `index` (folded for `.caseInsensitive`); nil out of range.
  public func value(at index: Int) -> SiftValue? {
    keys.indices.contains(index) ? keys[index].value : nil
  }
}

/// How one descriptor orders two keys: nil placement (`nilOrder`) and direction (`directed`)
/// around `SiftSortOrder`'s order of two values under the string comparison. The fetch's sort
/// (`SortColumn`) and the live results' `SiftSortKeyReader` both go through these two.
struct SortPlan: Sendable {
  let ascending: Bool
  let nilsFirst: Bool
  let comparison: SiftSortDescriptor.Comparison

  init(_ d: SiftSortDescriptor) {
    ascending = d.ascending
    nilsFirst = d.nilsFirst
    comparison = d.comparison
  }

  /// -1, 0 or 1 when at least one of two keys is nil: nils together, before or after every
  /// value (`nilsFirst`), whatever the direction.
  @inline(__always)
  func nilOrder(_ aIsNil: Bool, _ bIsNil: Bool) -> Int {
    if aIsNil && bIsNil { return 0 }
    return aIsNil == nilsFirst ? -1 : 1
  }

  /// Two values' ascending order (`SiftSortOrder`) turned into this descriptor's direction.
  @inline(__always)
  func directed(_ ascendingOrder: Int) -> Int { ascending ? ascendingOrder : -ascendingOrder }

  /// Two keys in this descriptor's order.
  @inline(__always)
  func compare(_ a: SortKey, _ b: SortKey) -> Int {
    let an = a.isNull, bn = b.isNull
    if an || bn { return nilOrder(an, bn) }
    return directed(SortKey.compare(a, b, comparison))
  }
}
