import Foundation
import SiftSyntax

/// A sort key for fetches: a dotted key path and a direction.
///
/// ```swift
/// let keys = try REPLSortKey.parseList("distance asc, name desc")
/// ```
struct REPLSortKey: Sendable, Hashable, CustomStringConvertible {
  /// The key path, e.g. `location.city`.
  var keyPath: String
  /// True for ascending order.
  var ascending: Bool

  /// Creates a sort key.
  init(keyPath: String, ascending: Bool = true) {
    self.keyPath = keyPath
    self.ascending = ascending
  }

  /// `distance asc`.
  var description: String { keyPath + (ascending ? " asc" : " desc") }

  /// Parses `key [asc|desc], …`; a leading `-` also means descending.
  static func parseList(_ text: String) throws -> [REPLSortKey] {
    try text.split(separator: ",").map { part in
      let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
      guard var key = words.first, words.count <= 2 else {
        throw REPLDataError("bad sort key '\(part.trimmingCharacters(in: .whitespaces))'; use KEY [asc|desc]")
      }
      var ascending = true
      if key.hasPrefix("-") {
        ascending = false
        key.removeFirst()
      }
      if words.count == 2 {
        switch words[1].lowercased() {
        case "asc", "ascending": ascending = true
        case "desc", "descending": ascending = false
        default: throw REPLDataError("sort direction must be asc or desc, not '\(words[1])'")
        }
      }
      guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" })
      else { throw REPLDataError("bad sort key '\(key)'") }
      return REPLSortKey(keyPath: key, ascending: ascending)
    }
  }
}

/// A total order on values for sorting results: nil first, then booleans and numbers
/// (numerically), strings (by Unicode scalars), dates, data, arrays, dictionaries.
///
/// ```swift
/// ValueOrdering.compare(.int(2), .double(10.5))   // .orderedAscending
/// ```
enum ValueOrdering {
  /// Compares two values.
  static func compare(_ a: SiftValue, _ b: SiftValue) -> ComparisonResult {
    let ra = rank(a), rb = rank(b)
    if ra != rb { return ra < rb ? .orderedAscending : .orderedDescending }
    switch (a, b) {
    case (.string(let x), .string(let y)): return order(x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars), x == y)
    case (.date(let x), .date(let y)): return order(x < y, x == y)
    case (.data(let x), .data(let y)): return order(x.lexicographicallyPrecedes(y), x == y)
    case (.array(let x), .array(let y)): return order(x.count < y.count, x.count == y.count)
    case (.dictionary(let x), .dictionary(let y)): return order(x.count < y.count, x.count == y.count)
    default:
      if let x = number(a), let y = number(b) {
        if case .int(let i) = a, case .int(let j) = b { return order(i < j, i == j) }
        return order(x < y, x == y)
      }
      return .orderedSame
    }
  }

  /// Sorts record indices by `keys` (stable: ties keep record order).
  static func sort(_ indices: [Int], of records: [SiftValue], by keys: [REPLSortKey]) -> [Int] {
    sort(indices, by: keys) { path, i in RecordPath.value(of: path, in: records[i]) }
  }

  /// Sorts record indices by keys whose values `value(keyPath, index)` reads.
  static func sort(_ indices: [Int], by keys: [REPLSortKey], value: (String, Int) -> SiftValue) -> [Int] {
    guard !keys.isEmpty else { return indices }
    let columns = keys.map { key in indices.map { value(key.keyPath, $0) } }
    let order = Array(indices.indices).sorted { i, j in
      for (k, key) in keys.enumerated() {
        let c = compare(columns[k][i], columns[k][j])
        if c == .orderedSame { continue }
        return key.ascending ? c == .orderedAscending : c == .orderedDescending
      }
      return i < j
    }
    return order.map { indices[$0] }
  }

  private static func order(_ less: Bool, _ equal: Bool) -> ComparisonResult {
    equal ? .orderedSame : (less ? .orderedAscending : .orderedDescending)
  }

  private static func rank(_ v: SiftValue) -> Int {
    switch v {
    case .null: return 0
    case .bool, .int, .double: return 1
    case .string: return 2
    case .date: return 3
    case .data: return 4
    case .array: return 5
    case .dictionary: return 6
    }
  }

  static func number(_ v: SiftValue) -> Double? {
    switch v {
    case .bool(let b): return b ? 1 : 0
    case .int(let i): return Double(i)
    case .double(let d): return d.isNaN ? -Double.infinity : d
    default: return nil
    }
  }
}
