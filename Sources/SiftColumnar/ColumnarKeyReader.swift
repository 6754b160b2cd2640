import SiftSyntax

/// Reads records' top-level values by key for a reader that asks for the same keys in the same
/// order record after record (the SQL loader copying columns into a database): each key's
/// column is looked up by its name once, at its place in that order, and after that only
/// checked by comparing the key with the one remembered there (the loader hands the same
/// `String` each time, so the comparison is its first, bit-for-bit test). A key asked for at
/// another place is looked up again and remembered there: the answer is always the column's.
///
/// Hashing the key for every value was 0.68 of 3.1 G instructions making the rows of 20,000
/// venues five times (`sift-bench --suite scale`, callgrind, issue 35).
///
/// Not for sharing between threads: it remembers where the last record stopped.
///
/// ```swift
/// let reader = ColumnarKeyReader(rows)
/// reader.value(forKey: "a", at: 0)   // 1
/// ```
package final class ColumnarKeyReader {
  private let root: Column
  // Plain (checked) stored properties: with `@exclusivity(unchecked)` the rows alone took
  // 0.142 s instead of 0.153 s for 200,000 venues, but the copy was 1.04x the INSERT loop
  // either way (budget: >= 0.8), so the checks stay.
  private var keys: [String] = []
  private var columns: [Column?] = []
  /// The record last read and how many keys were asked of it.
  private var row = -1
  private var asked = 0

  package init(_ records: SiftColumnarRecords) { root = records.root }

  /// The value of record `row`'s top-level `key` (nil when the record has none), as
  /// `SiftColumnarRecords.value(forKey:at:)`.
  package func value(forKey key: String, at row: Int) -> SiftValue? {
    if row != self.row {
      self.row = row
      asked = 0
    }
    let place = asked
    asked += 1
    if place < keys.count, keys[place] == key { return columns[place]?.value(at: row) }
    let column = root.fields[key]
    if place < keys.count {
      keys[place] = key
      columns[place] = column
    } else if place == keys.count {
      keys.append(key)
      columns.append(column)
    }
    return column?.value(at: row)
  }
}
