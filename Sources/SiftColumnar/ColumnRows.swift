import Foundation
import SiftSyntax

/// A column's rows read back as values, written once for both `Column` (what every reader
/// uses) and the `ColumnStorage` it wraps (which reads its own rows when a key turns out to be
/// of mixed kinds).
///
/// On `Column` each part is read on its own from the storage (`s.state`, `s.ints`, …). The
/// reading used to be a method of `ColumnStorage` that `Column` called as `s.value(at:)`,
/// which copied the whole storage — every array and the fields retained, then released — for
/// each value read, nested ones included: copying 200,000 venues into SQLite spent 3.8 s
/// making rows beside a 0.9 s insert loop (`sift-bench --suite scale`, `rows_only_s`,
/// issue 35).
protocol ColumnRows {
  var kind: Column.Kind { get }
  var state: [UInt8] { get }
  var ints: [Int64] { get }
  var doubles: [Double] { get }
  var bytes: [UInt8] { get }
  var ends: [UInt32] { get }
  var elements: Column? { get }
  var fields: [String: Column] { get }
  var fieldOrder: [String] { get }
  var mixed: [SiftValue] { get }
}

extension ColumnRows {
  @inline(__always)
  func range(of row: Int) -> Range<Int> {
    (row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])
  }

  func string(at row: Int) -> String {
    String(decoding: bytes[range(of: row)], as: UTF8.self)
  }

  /// The value of `row` as the row evaluator sees it; nil when the key is missing.
  func value(at row: Int, depth: Int = 256) -> SiftValue? {
    let kind = self.kind
    let state = self.state
    let s = row < state.count ? state[row] : Column.missing
    if s == Column.missing { return nil }
    if kind == .mixed { return mixed[row] }
    if s == Column.null || depth <= 0 { return .null }
    switch kind {
    case .empty, .mixed: return .null
    case .int: return .int(ints[row])
    case .double: return s == Column.marked ? .int(Int64(doubles[row])) : .double(doubles[row])
    case .bool: return .bool(s == Column.marked)
    case .date: return .date(Date(timeIntervalSinceReferenceDate: doubles[row]))
    case .string: return .string(string(at: row))
    case .array:
      guard let elements else { return .array([]) }
      return .array(range(of: row).map { elements.value(at: $0, depth: depth - 1) ?? .null })
    case .object:
      let fields = self.fields
      var d: [String: SiftValue] = [:]
      for key in fieldOrder {
        if let v = fields[key]?.value(at: row, depth: depth - 1) { d[key] = v }
      }
      return .dictionary(d)
    }
  }
}
