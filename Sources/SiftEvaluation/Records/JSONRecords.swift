import Foundation
import SiftSyntax

/// Loads JSON records into the fast `SiftObject` layout, with `SiftJSON`'s typing rules:
/// numbers without fraction or exponent are integers, `{"$date": "…"}` is a date,
/// `{"$data": "…"}` is data. Records that share keys share one key table.
///
/// ```swift
/// let venues = try JSONRecords.load(contentsOf: URL(fileURLWithPath: "venues.json"))
/// let m = try SiftPredicate(format: "priceCategory == '$$'").compile()
/// let cheap = try m.filter(venues)
/// ```
public enum JSONRecords {
  /// Reads a file holding a JSON array of objects (or one object, or JSON Lines) into the fast
  /// form; for records that may be plain values, see `loadValues(contentsOf:)`.
  ///
  /// ```swift
  /// let rows = try JSONRecords.load(contentsOf: url)
  /// ```
  public static func load(contentsOf url: URL, dates: SiftJSONDates = .none) throws(SiftError) -> [SiftObject] {
    try load(bytes: read(url), dates: dates)
  }

  /// The bytes of `url`; a file that cannot be read is an error naming it.
  static func read(_ url: URL) throws(SiftError) -> [UInt8] {
    try SiftJSON.fileBytes(url)
  }

  /// Parses UTF-8 JSON: an array of objects, a single object, or one object per line. `dates`
  /// says which other values are dates (ISO-8601 text, numbers since 1970; see
  /// `SiftJSONDates`); `{"$date": …}` always is one.
  ///
  /// ```swift
  /// let rows = try JSONRecords.load(bytes: Array(#"[{"a": 1}, {"a": 2}]"#.utf8))
  /// let api = try JSONRecords.load(
  ///   bytes: Array(#"[{"at": "2024-03-01T10:00:00Z"}]"#.utf8), dates: SiftJSONDates(defaultFormat: .iso8601))
  /// ```
  public static func load(bytes: [UInt8], dates: SiftJSONDates = .none) throws(SiftError) -> [SiftObject] {
    // An array of objects (or one object) is read straight into objects; anything else, and
    // every error, goes the general way (which reports errors with their position).
    if dates.isNone, let objects = JSONObjectReader.records(bytes) { return objects }
    return try records(from: .array(values(bytes: bytes, dates: dates)))
  }

  /// The records of UTF-8 JSON holding an array of objects (or one object), read straight into
  /// objects; nil for anything else — other records, JSON Lines, invalid JSON — which
  /// `load(bytes:)` or `values(bytes:)` then read (and report errors for) the general way.
  ///
  /// ```swift
  /// JSONRecords.objects(bytes: Array(#"[{"a": 1}]"#.utf8))?.count   // 1
  /// JSONRecords.objects(bytes: Array(#"["a"]"#.utf8))                // nil
  /// ```
  public static func objects(bytes: [UInt8]) -> [SiftObject]? {
    JSONObjectReader.records(bytes)
  }

  /// Reads a file of records of any kind: objects or plain values (strings, numbers, booleans,
  /// dates, null), as `values(bytes:)` parses them.
  ///
  /// ```swift
  /// let notes = try JSONRecords.loadValues(contentsOf: URL(fileURLWithPath: "notes.json"))
  /// ```
  public static func loadValues(contentsOf url: URL, dates: SiftJSONDates = .none) throws(SiftError) -> [SiftValue] {
    try values(bytes: read(url), dates: dates)
  }

  /// Parses UTF-8 JSON into records of any kind: the elements of a top-level array, a single
  /// value, or one value per line (JSON Lines). A `SiftValue` is itself a record whose `SELF` is
  /// the value, so plain values need no conversion: `["Do", "Re", "Mi"]` filtered by
  /// `SELF BEGINSWITH[c] 'd'` is `["Do"]`. When every record is an object, `records(from:)`
  /// converts them to the faster `SiftObject` form.
  ///
  /// ```swift
  /// let notes = try JSONRecords.values(bytes: Array(#"["Do", "Re", "Mi"]"#.utf8))
  /// let m = try SiftPredicate(format: "SELF BEGINSWITH[c] 'd'").compile()
  /// try m.filter(notes)   // ["Do"]
  /// ```
  public static func values(bytes: [UInt8], dates: SiftJSONDates = .none) throws(SiftError) -> [SiftValue] {
    let items = try values(bytes: bytes)
    if dates.isNone { return items }
    do {
      guard case .array(let converted) = try dates.apply(to: .array(items)) else { return items }
      return converted
    } catch {
      throw DataDiagnostics.datesFailed(error)
    }
  }

  /// The values of a records file (`SiftJSON.records`: the one rule for arrays, single values
  /// and JSON Lines), its errors as data errors.
  static func values(bytes: [UInt8]) throws(SiftError) -> [SiftValue] {
    do { return try SiftJSON.records(bytes: bytes) } catch {
      switch error {
      case .document(let e): throw DataDiagnostics.invalidJSON(e)
      case .line(let n, let e): throw DataDiagnostics.invalidJSON(line: n, e)
      }
    }
  }

  /// Converts parsed values: an array of dictionaries, or one dictionary.
  ///
  /// ```swift
  /// let rows = try JSONRecords.records(from: [["a": 1]])
  /// ```
  public static func records(from value: SiftValue) throws(SiftError) -> [SiftObject] {
    var cache = ShapeCache()
    switch value {
    case .dictionary(let d):
      return [SiftObject.convert(d, cache: &cache, depth: EvalLimits.maxDataDepth)]
    case .array(let items):
      var out: [SiftObject] = []
      out.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        guard case .dictionary(let d) = item else {
          throw DataDiagnostics.recordNotAnObject(i, kind: item.kindName)
        }
        out.append(SiftObject.convert(d, cache: &cache, depth: EvalLimits.maxDataDepth))
      }
      return out
    default:
      throw DataDiagnostics.notAnArray(found: value.kindName)
    }
  }
}
