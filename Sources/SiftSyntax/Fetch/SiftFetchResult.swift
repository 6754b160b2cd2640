/// What a fetch returns, by result type, in memory (SiftEvaluation's `execute(on:)`).
///
/// ```swift
/// switch try request.execute(on: venues) {
/// case .indices(let positions): print(positions)          // .records, .indices
/// case .count(let n): print(n)                            // .count
/// case .values(let distinct): print(distinct)             // .distinct
/// case .rows(let columns, let rows): print(columns, rows) // .properties, .aggregates, .expressions
/// }
/// ```
public enum SiftFetchResult: Sendable, Hashable {
  /// The selected records' positions in the input, in the fetch's order.
  case indices([Int])
  /// How many records the fetch selects.
  case count(Int)
  /// Distinct values, ascending, nil first.
  case values([SiftValue])
  /// Dictionary-shaped rows: one value per column.
  case rows(columns: [String], [[SiftValue]])

  /// The rows as dictionaries (`NSDictionaryResultType`); nil values are left out, as Core
  /// Data leaves them out. Other result shapes give no rows.
  ///
  /// ```swift
  /// try request.execute(on: venues).dictionaries.first?["name"]
  /// ```
  public var dictionaries: [[String: SiftValue]] {
    guard case .rows(let columns, let rows) = self else { return [] }
    return rows.map { row in
      var d: [String: SiftValue] = [:]
      for (c, v) in zip(columns, row) where !v.isNull { d[c] = v }
      return d
    }
  }
}
