import Foundation
import SiftEvaluation
import SiftSyntax

/// Builds a data set record by record, converting every 4,096 records to SiftEvaluation's
/// `SiftObject` form, so that a large file or `.generate` never holds all records twice (as
/// values and as objects) at the same time. The first 5,000 records are kept as values for
/// attribute inference. If a record is not a dictionary the whole set is kept as values.
///
/// ```swift
/// var b = REPLDataSetBuilder()
/// b.append(["a": 1])
/// let set = b.build(name: "t", defaultColumns: nil, origin: "memory")
/// ```
struct REPLDataSetBuilder {
  private var objects: [SiftObject] = []
  private var sample: [SiftValue] = []
  private var pending: [SiftValue] = []
  /// All records as values, once one of them turned out not to be a dictionary.
  private var values: [SiftValue]?

  static let batch = 4096
  static let sampleSize = 5000

  mutating func append(_ record: SiftValue) {
    if values != nil {
      values?.append(record)
      return
    }
    if sample.count < REPLDataSetBuilder.sampleSize { sample.append(record) }
    pending.append(record)
    if pending.count >= REPLDataSetBuilder.batch { flush() }
  }

  private mutating func flush() {
    guard values == nil, !pending.isEmpty else { return }
    if let converted = try? JSONRecords.records(from: .array(pending)) {
      objects += converted
    } else {
      values = objects.map(\.siftValue) + pending
      objects = []
    }
    pending = []
  }

  mutating func build(name: String, defaultColumns: [String]?, origin: String) -> REPLDataSet {
    flush()
    if let values { return REPLDataSet(name: name, records: values, defaultColumns: defaultColumns, origin: origin) }
    return REPLDataSet(name: name, objects: objects, sample: sample, defaultColumns: defaultColumns, origin: origin)
  }
}
