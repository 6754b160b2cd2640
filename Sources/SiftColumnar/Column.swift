import Foundation
import SiftSyntax

/// One key of a columnar data set: every record's value for that key, by record position.
///
/// Each row has a state byte — `missing` (no such key), `null`, or a value — and the values of
/// one kind live in one contiguous array: integers as `Int64`, numbers with fractions (and
/// integers beside them, marked) as `Double`, booleans in the state byte itself, dates as
/// seconds since 2001 (`Date`'s own representation), strings as UTF-8 bytes with end offsets,
/// arrays as end offsets into a child column of elements, objects as child columns by key.
/// A key whose values are of more than one kind keeps `SiftValue`s (`mixed`): scans over it go
/// to the row evaluator.
///
/// Built once by the loader, then read only (shared by scan threads).
/// Its storage and the loader's writes into it are in `ColumnarUnsafeAccess.swift`
/// (`ColumnStorageCell`).
final class Column: ColumnStorageCell, ColumnRows, @unchecked Sendable {
  enum Kind: UInt8 { case empty, int, double, bool, date, string, array, object, mixed }

  /// Row states.
  static let missing: UInt8 = 0
  static let null: UInt8 = 1
  /// A value: an ASCII string, an integer, a number with a fraction, `false`.
  static let value: UInt8 = 2
  /// A value with a mark: a non-ASCII string, an integer kept in a `Double` column, `true`.
  static let marked: UInt8 = 3

  /// Strings folded for `[c]`, `[d]`, `[cd]` (built at first use, then shared).
  private let foldLock = NSLock()
  private var folds: [UInt8: FoldedStrings] = [:]

  /// Largest integer magnitude every `Double` holds exactly.
  static let exactDoubleLimit: UInt64 = 1 << 53

  struct Unsupported: Error {}

  var kind: Kind { s.kind }
  var count: Int { s.count }
  var state: [UInt8] { s.state }
  var ints: [Int64] { s.ints }
  var doubles: [Double] { s.doubles }
  var bytes: [UInt8] { s.bytes }
  var ends: [UInt32] { s.ends }
  var elements: Column? { s.elements }
  var fields: [String: Column] { s.fields }
  var fieldOrder: [String] { s.fieldOrder }
  var mixed: [SiftValue] { s.mixed }
  var largestInt: UInt64 { s.largestInt }

  /// Whether every row is null or missing.
  var hasNoValues: Bool { !state.contains { $0 >= Column.value } }

  /// Whether some row is null or missing.
  var hasNulls: Bool { state.contains { $0 < Column.value } }

  /// Bytes held (for `bytes_per_record`; folds built for `[c]`/`[d]` are extra).
  var heldBytes: Int {
    var n = state.capacity + ints.capacity * 8 + doubles.capacity * 8 + bytes.capacity + ends.capacity * 4
    n += mixed.count * MemoryLayout<SiftValue>.stride
    n += elements?.heldBytes ?? 0
    for c in fields.values { n += c.heldBytes }
    return n
  }

  /// The strings folded as `fold` asks (`TextFolding.fold`, the evaluator's own folding),
  /// built at first use: ASCII rows lower-cased (or kept, for `[d]` alone), others folded.
  func folded(_ fold: TextFoldCode) -> FoldedStrings {
    foldLock.lock()
    defer { foldLock.unlock() }
    if let f = folds[fold.rawValue] { return f }
    var out = FoldedStrings()
    out.bytes.reserveCapacity(bytes.count)
    out.ends.reserveCapacity(count)
    let state = self.state
    let ends = self.ends
    ColumnBuffers.lend(bytes, from: 0, count: bytes.count) { all in
      var start = 0
      for r in 0..<count {
        let end = Int(ends[r])
        let row = UnsafeBufferPointer(start: all + start, count: end - start)
        if state[r] == Column.marked {
          TextFolding.fold(utf8: row, fold.options, into: &out.bytes)
        } else {
          out.bytes.append(contentsOf: row)
        }
        out.ends.append(UInt32(truncatingIfNeeded: out.bytes.count))
        start = end
      }
    }
    // ASCII rows lower-cased in one pass over everything: a `[c]` fold holds no ASCII capital
    // (`TextFoldingTests.caseFoldsHoldNoASCIICapital`), so the folded rows stay as they are.
    // (A byte at a time into the array per row was 4% of a `[c]` count from a file, perf.)
    if fold.caseless { ColumnBuffers.lowerASCII(&out.bytes) }
    folds[fold.rawValue] = out
    return out
  }
}

/// A string column's text folded for `[c]`/`[d]`: bytes and end offsets, row for row.
struct FoldedStrings: Sendable {
  var bytes: [UInt8] = []
  var ends: [UInt32] = []
}
