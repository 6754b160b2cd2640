import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// A data set's rows, built once on first use and shared by the data set's copies: the one
/// mechanism by which `sift eval` (`CommandInputs.DataSet`) and the REPL (`REPLDataSet`) keep
/// records read as columns without rows until a command needs them (the row evaluator for a
/// predicate the kernels do not cover, a `.watch`), and then build them once. Records held as
/// values or objects from the start are handed in built. Safe to share between threads (the
/// REPL scans and watches on others): a lock guards the build.
///
/// ```swift
/// let rows = LazyRows(columns: columns)
/// rows.rowsBuilt      // false
/// _ = rows.records    // builds the SiftObjects once
/// rows.rowsBuilt      // true
/// ```
final class LazyRows: @unchecked Sendable {
  private let lock = NSLock()
  private let columns: SiftColumnarRecords?
  private var builtValues: [SiftValue]?
  private var builtRecords: [SiftObject]??

  init(values: [SiftValue]) {
    columns = nil
    builtValues = values
  }

  /// Records already in the evaluator's form (every record a dictionary).
  init(objects: [SiftObject]) {
    columns = nil
    builtRecords = .some(objects)
  }

  init(columns: SiftColumnarRecords) {
    self.columns = columns
  }

  /// Every record as a JSON value (built from the columns or objects on first use).
  var values: [SiftValue] {
    lock.lock()
    defer { lock.unlock() }
    if let builtValues { return builtValues }
    let v: [SiftValue]
    if let columns {
      v = (0..<columns.count).map(columns.record(at:))
    } else {
      v = (builtRecords ?? nil)?.map(\.siftValue) ?? []
    }
    builtValues = v
    return v
  }

  /// The records as `SiftObject`s (built on first use); nil when some record is not an object.
  var records: [SiftObject]? {
    lock.lock()
    defer { lock.unlock() }
    if let builtRecords { return builtRecords }
    let r: [SiftObject]?
    if let columns {
      r = (0..<columns.count).map(columns.object(at:))
    } else {
      r = try? JSONRecords.records(from: .array(builtValues ?? []))
    }
    builtRecords = .some(r)
    return r
  }

  /// True once rows were built from columns (always false for records handed in as rows):
  /// what tests check to see that a command did not build them.
  var rowsBuilt: Bool {
    lock.lock()
    defer { lock.unlock() }
    return columns != nil && (builtRecords != nil || builtValues != nil)
  }
}
