import Foundation
import SiftEvaluation
import SiftSyntax

/// Reads JSON record files for `.load` and the sample data, as every command reads `--data`:
/// `RecordFile` (columns when every record is an object, else the general way, which tells a
/// top-level array, one value and JSON Lines apart by the contents and reports errors as
/// `file:line:column: message`).
///
/// ```swift
/// let set = try JSONDataLoader.load(url: URL(fileURLWithPath: "people.json"), name: "people")
/// ```
enum JSONDataLoader {
  /// Loads a file as a data set named `name`. `dates` says which values besides
  /// `{"$date": …}` are dates (`.load … --dates iso8601`).
  static func load(url: URL, name: String, dates: SiftJSONDates = .none) throws -> REPLDataSet {
    try dataSet(bytes: readBytes(url), path: url.path, name: name, origin: url.lastPathComponent, dates: dates)
  }

  /// File contents as a data set: records that are all objects are read by the columnar
  /// loader (`RecordFile.columns`), or else straight into `SiftObject`s when they are one
  /// array of objects (`JSONRecords.objects`); anything else, and every error, goes the
  /// general way (`RecordFile.values`), converted to objects a batch at a time
  /// (`REPLDataSetBuilder`).
  static func dataSet(
    bytes: [UInt8], path: String, name: String, origin: String, dates: SiftJSONDates = .none
  ) throws -> REPLDataSet {
    if let columns = RecordFile.columns(bytes, dates: dates) {
      return REPLDataSet(name: name, columns: columns, defaultColumns: nil, origin: origin)
    }
    if dates.isNone, let objects = JSONRecords.objects(bytes: bytes) {
      let sample = objects.prefix(REPLDataSetBuilder.sampleSize).map(\.siftValue)
      return REPLDataSet(name: name, objects: objects, sample: sample, defaultColumns: nil, origin: origin)
    }
    var values: [SiftValue]
    do { values = try RecordFile.values(bytes, path: path, dates: dates) } catch {
      throw REPLDataError(error.description)
    }
    // Taken from the end, so each value is released once the builder has converted it: the
    // records are not held as values and objects at once.
    values.reverse()
    var builder = REPLDataSetBuilder()
    while let value = values.popLast() { builder.append(value) }
    return builder.build(name: name, defaultColumns: nil, origin: origin)
  }

  /// The bytes of a file (`SiftJSON.fileBytes`, as every command reads `--data`).
  static func readBytes(_ url: URL) throws -> [UInt8] {
    do { return try SiftJSON.fileBytes(url) } catch { throw REPLDataError(error.message) }
  }
}

/// A problem loading or opening data, shown as `error: message`.
struct REPLDataError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  var message: String
  /// Creates an error.
  init(_ message: String) { self.message = message }
  /// The message.
  var description: String { message }
}
