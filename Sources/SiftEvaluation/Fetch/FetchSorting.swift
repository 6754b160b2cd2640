import SiftSyntax

/// A sort key read once per record, in the form comparisons are cheapest: strings already
/// folded for `.caseInsensitive`, booleans as integers.
enum SortKey: Sendable {
  case null
  case int(Int64)
  case double(Double)
  case string(String)
  case other(SiftValue)

  /// The key of a value under a comparison.
  @inline(__always)
  init(_ v: EvalValue, _ comparison: SiftSortDescriptor.Comparison) {
    switch v {
    case .null: self = .null
    case .bool(let b): self = .int(b ? 1 : 0)
    case .int(let i): self = .int(i)
    case .double(let d): self = .double(d)
    case .string(let s): self = .string(comparison == .caseInsensitive ? TextFolding.fold(s, .caseInsensitive) : s)
    default: self = .other(v.siftValue())
    }
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  var value: SiftValue {
    switch self {
    case .null: return .null
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)
    case .string(let s): return .string(s)
    case .other(let v): return v
    }
  }

  /// -1, 0, 1 by `SiftSortOrder` (nil smallest); top-level strings are already folded, so
  /// `.caseInsensitive` compares them as `.binary`.
  @inline(__always)
  static func compare(_ a: SortKey, _ b: SortKey, _ comparison: SiftSortDescriptor.Comparison) -> Int {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      switch comparison {
      case .localizedStandard: return SiftSortOrder.localizedStandard(x, y)
      case .localized: return SiftSortOrder.localized(x, y)
      case .binary, .caseInsensitive: return SiftSortOrder.binary(x, y)
      }
    case (.int(let x), .int(let y)): return SiftSortOrder.sign(x, y)
    case (.double(let x), .double(let y)): return SiftSortOrder.compareDoubles(x, y)
    case (.null, .null): return 0
    case (.null, _): return -1
    case (_, .null): return 1
    default:
      // Kinds differ, or arrays/dictionaries: their strings inside are not folded yet, so the
      // comparison applies as it is (folding a folded string again changes nothing).
      return SiftSortOrder.compare(a.value, b.value, comparison)
    }
  }
}

/// Orders selected records by sort descriptors, as SQL's ORDER BY does (see `SiftSortOrder`):
/// nil placed per descriptor, equal keys in input order.
struct FetchSorter {
  let descriptors: [SiftSortDescriptor]
  let columns: [FetchColumn]

  init(_ descriptors: [SiftSortDescriptor], options: EvaluationOptions) throws(SiftError) {
    self.descriptors = descriptors
    var columns: [FetchColumn] = []
    for d in descriptors { columns.append(try FetchColumn(keyPath: d.keyPath, options: options)) }
    self.columns = columns
  }

  /// `positions` reordered (a stable sort: ties keep the given order, which is ascending).
  /// With `first`, only that many leading positions are returned (a page: `offset + limit`),
  /// selected without sorting the rest when they are few.
  func sort<R: SiftRecord>(
    _ positions: [Int], of records: [R], variables: [String: SiftValue], first: Int? = nil
  ) throws(SiftError) -> [Int] {
    guard !descriptors.isEmpty, positions.count > 1 else { return positions }
    var keys: [SortColumn] = []
    for (d, column) in zip(descriptors, columns) {
      keys.append(SortColumn(try column.read(records, at: positions, variables: variables) { $0 }, d))
    }
    let order = Self.order(keys, count: positions.count, first: first)
    return order.map { positions[$0] }
  }

  /// `0..<count` in the order of the sort columns (key `i` of each column is position `i`'s),
  /// ties in ascending order; with `first`, only that many leading positions (`ordered`).
  static func order(_ keys: [SortColumn], count: Int, first: Int?) -> [Int] {
    if keys.count == 1, keys[0].kind == .numbers, !Self.selectsFew(count, first: first),
      !keys[0].nulls.contains(true)
    {
      return numbersOrder(keys[0], first: first)
    }
    if keys.count == 1 {
      let k = keys[0]
      return Self.ordered(count, first: first) { i, j in
        let c = k.compare(i, j)
        return c != 0 ? c < 0 : i < j
      }
    } else if keys.count == 2 {
      let (k0, k1) = (keys[0], keys[1])
      return Self.ordered(count, first: first) { i, j in
        var c = k0.compare(i, j)
        if c == 0 { c = k1.compare(i, j) }
        return c != 0 ? c < 0 : i < j
      }
    } else {
      return Self.ordered(count, first: first) { i, j in
        for k in keys {
          let c = k.compare(i, j)
          if c != 0 { return c < 0 }
        }
        return i < j
      }
    }
  }

  /// One column of numbers with no nil, the whole of it sorted: each key beside its position
  /// (decorate, sort, undecorate), so that a comparison reads two adjacent pairs instead of
  /// two positions' keys from the column. The same order as `SortColumn.compare` then the
  /// position. Measured: `--suite typed` (Benchmarks.md).
  static func numbersOrder(_ key: SortColumn, first: Int?) -> [Int] {
    var pairs: [(key: Double, at: Int)] = []
    pairs.reserveCapacity(key.numbers.count)
    for (i, x) in key.numbers.enumerated() { pairs.append((x, i)) }
    if key.plan.ascending {
      pairs.sort { a, b in
        let c = SiftSortOrder.compareDoubles(a.key, b.key)
        return c != 0 ? c < 0 : a.at < b.at
      }
    } else {
      pairs.sort { a, b in
        let c = SiftSortOrder.compareDoubles(a.key, b.key)
        return c != 0 ? c > 0 : a.at < b.at
      }
    }
    let n = first.map { Swift.min($0, pairs.count) } ?? pairs.count
    return pairs[..<n].map(\.at)
  }

  /// Whether `ordered` keeps only the first `first` positions by insertion (few of many).
  static func selectsFew(_ count: Int, first: Int?) -> Bool {
    guard let first else { return false }
    return first <= 128 && first < count / 16
  }

  /// `0..<count` in the order `less` (a strict total order) gives; with `first` much smaller
  /// than `count` (and at most 128), just the first that many, kept sorted by binary
  /// insertion. The cap bounds the worst case: records in the opposite order each insert at
  /// the front, moving `first` positions (at 10,000 of 1,000,000 that took 1.5 s against a
  /// full sort's 0.01 s).
  @inline(__always)
  static func ordered(_ count: Int, first: Int?, _ less: (Int, Int) -> Bool) -> [Int] {
    guard let first, selectsFew(count, first: first) else {
      var order = Array(0..<count)
      order.sort(by: less)
      return first.map { Array(order.prefix($0)) } ?? order
    }
    guard first > 0 else { return [] }
    var best: [Int] = []
    best.reserveCapacity(first + 1)
    for i in 0..<count {
      if best.count == first, let last = best.last, !less(i, last) { continue }
      var lo = 0, hi = best.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if less(best[mid], i) { lo = mid + 1 } else { hi = mid }
      }
      best.insert(i, at: lo)
      if best.count > first { best.removeLast() }
    }
    return best
  }
}
