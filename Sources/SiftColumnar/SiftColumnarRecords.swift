import Foundation
import SiftEvaluation
import SiftSyntax

/// JSON records held as typed columns: numbers, booleans and dates in contiguous arrays,
/// strings as UTF-8 bytes with offsets, arrays and nested objects as child columns. A matcher
/// scans them with kernels over whole columns (`SiftMatcher.matchingIndices(_:)`), and every
/// predicate gives the same records, in the same order, as the row evaluator over the same
/// JSON loaded with `JSONRecords`.
///
/// ```swift
/// let venues = try SiftColumnarRecords(contentsOf: URL(fileURLWithPath: "venues.json"))
/// let m = try SiftPredicate(format: "distance BETWEEN {1.0, 5.0}").compile()
/// let near = try m.matchingIndices(venues)          // positions, ascending
/// let first = venues.record(at: near[0])            // ["name": "Blue Cafe", …]
/// ```
///
/// Immutable and `Sendable`.
public final class SiftColumnarRecords: @unchecked Sendable {
  let root: Column
  /// The number of records.
  public let count: Int

  init(root: Column, count: Int) {
    root.finish(rows: count)
    self.root = root
    self.count = count
  }

  /// Reads a file holding a JSON array of objects, one object, or JSON Lines (one object a
  /// line). `dates` as in `JSONRecords.load(contentsOf:dates:)`.
  ///
  /// ```swift
  /// let rows = try SiftColumnarRecords(contentsOf: url, dates: SiftJSONDates(keys: ["at": .iso8601]))
  /// ```
  /// - Throws: `SiftError` (stage `.data`): an unreadable file (naming it), invalid JSON (with
  ///   its line and column), a record that is not an object.
  public convenience init(contentsOf url: URL, dates: SiftJSONDates = .none) throws(SiftError) {
    try self.init(bytes: SiftJSON.fileBytes(url), dates: dates)
  }

  /// Parses UTF-8 JSON records (an array of objects, one object, or JSON Lines).
  ///
  /// ```swift
  /// let rows = try SiftColumnarRecords(bytes: Array(#"[{"a": 1}, {"a": 2.5}]"#.utf8))
  /// rows.count   // 2
  /// ```
  public convenience init(bytes: [UInt8], dates: SiftJSONDates = .none) throws(SiftError) {
    if let (root, n) = SiftColumnarRecords.fast(bytes, dates: dates) {
      self.init(root: root, count: n)
      return
    }
    // The general way: the evaluator's loader (its errors, its date rules), then columns.
    let values = try JSONRecords.values(bytes: bytes, dates: dates)
    try self.init(values: values)
  }

  /// Records from parsed values (each must be an object).
  ///
  /// ```swift
  /// let rows = try SiftColumnarRecords(values: [["a": 1], ["a": "x"]])
  /// ```
  /// - Throws: `SiftError` (stage `.data`, id `invalid-records`) for a value that is no object.
  public convenience init(values: [SiftValue]) throws(SiftError) {
    var builder = SiftColumnarBuilder()
    for v in values { try builder.append(v) }
    let built = builder.build()
    self.init(root: built.root, count: built.count)
  }

  /// The records of `bytes` when the columnar parser reads them all itself (objects only, no
  /// `$date`, no default date format); nil otherwise — the caller then reads them the
  /// general way, which also reports every error.
  ///
  /// ```swift
  /// SiftColumnarRecords.direct(Array(#"[{"a": 1}]"#.utf8))?.count   // 1
  /// ```
  ///
  /// With `keeping`, only those top-level keys get columns (the dates' keys too); the other
  /// values are checked as the general way would and stepped over (`sift eval --count`).
  package static func direct(
    _ bytes: [UInt8], dates: SiftJSONDates = .none, keeping keys: Set<String>? = nil
  ) -> SiftColumnarRecords? {
    guard let (root, n) = fast(bytes, dates: dates, keeping: keys) else { return nil }
    return SiftColumnarRecords(root: root, count: n)
  }

  static func fast(_ bytes: [UInt8], dates: SiftJSONDates, keeping keys: Set<String>? = nil) -> (Column, Int)? {
    guard dates.defaultFormat == nil else { return nil }
    let root = Column()
    // A nested date key's record key is kept whole (converting is where a bad date is
    // refused); a top-level date key not kept is checked as a date while stepped over.
    let keep = keys.map {
      $0.union(
        dates.keys.keys.filter { $0.contains(".") }.compactMap { $0.split(separator: ".").first.map(String.init) })
    }
    let dateKeys = dates.keys.filter { !$0.key.contains(".") && keep?.contains($0.key) == false }
    let n: Int? = ColumnarJSONParser.reading(bytes) { p in
      var parser = ColumnarJSONParser(p, bytes: bytes, keep: keep, dateKeys: dateKeys)
      return try? parser.records(into: root)
    }
    guard let n else { return nil }
    root.finish(rows: n)
    for (path, format) in dates.keys {
      guard let column = root.column(at: path.split(separator: ".").map(String.init)) else { continue }
      if !column.convertToDates(format) { return nil }
    }
    return (root, n)
  }

  /// Record `i` (`0..<count`) as a dictionary, as `JSONRecords` would have read it.
  ///
  /// ```swift
  /// rows.record(at: 0)   // ["a": 1]
  /// ```
  public func record(at i: Int) -> SiftValue {
    root.value(at: i) ?? .null
  }

  /// The value of record `i`'s top-level `key` (nil when the record has none), read from its
  /// column without building the record (the REPL's result tables).
  ///
  /// ```swift
  /// rows.value(forKey: "a", at: 0)   // 1
  /// ```
  package func value(forKey key: String, at i: Int) -> SiftValue? {
    root.fields[key]?.value(at: i)
  }

  /// Record `i` in the evaluator's fast layout (what the row evaluator scans).
  ///
  /// ```swift
  /// try matcher.matches(rows.object(at: 0))
  /// ```
  public func object(at i: Int) -> SiftObject {
    if case .dictionary(let d) = record(at: i) { return SiftObject(d) }
    return SiftObject([:])
  }

  /// Bytes the columns hold (without folds built for `[c]`/`[d]` queries).
  ///
  /// ```swift
  /// Double(rows.heldBytes) / Double(rows.count)   // bytes per record
  /// ```
  public var heldBytes: Int { root.heldBytes }
}

/// Builds columns one record at a time, so a producer (the REPL's `.generate`) never holds
/// all its records as values: each is stored into the columns as it comes.
///
/// ```swift
/// var b = SiftColumnarBuilder()
/// try b.append(["a": 1])
/// b.build().count   // 1
/// ```
package struct SiftColumnarBuilder {
  private let root = Column()
  private var count = 0

  package init() {}

  /// Stores `record` as the next record.
  /// - Throws: `SiftError` (stage `.data`, id `invalid-records`) for a value that is no object.
  package mutating func append(_ record: SiftValue) throws(SiftError) {
    guard case .dictionary = record else {
      throw SiftError(
        stage: .data, id: DiagnosticID.invalidRecords.rawValue,
        message: "record \(count) is \(record.kindName), not an object")
    }
    do { try root.append(record, count) } catch {
      throw SiftError(
        stage: .data, id: DiagnosticID.invalidRecords.rawValue, message: "record \(count) cannot be stored")
    }
    count += 1
  }

  /// The records appended so far, as columns (the builder is not used afterwards).
  package func build() -> SiftColumnarRecords { SiftColumnarRecords(root: root, count: count) }
}

extension Column {
  /// The column at a key path of plain keys, through objects (and arrays of objects, for date
  /// keys); nil when there is none.
  func column(at keys: [String]) -> Column? {
    var c: Column = self
    for k in keys {
      if c.kind == .array, let e = c.elements, e.kind == .object { c = e }
      guard c.kind == .object, let next = c.fields[k] else { return nil }
      c = next
    }
    return c
  }
}
