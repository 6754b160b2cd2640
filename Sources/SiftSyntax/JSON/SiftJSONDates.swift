import Foundation

/// Which JSON values are dates, like `JSONDecoder.DateDecodingStrategy`: JSON has no date
/// type, so records from a web API carry ISO-8601 text or numbers since 1970. `{"$date": …}`
/// is a date whatever the strategy.
///
/// - `defaultFormat` applies to every key not named in `keys`: `.iso8601` turns every string
///   that is an ISO-8601 date-time (a date, `T`, a time, optional fraction, `Z` or an offset)
///   into a date; `.seconds` / `.milliseconds` turn **every** number into a date, so a record
///   that also holds other numbers names its date keys instead.
/// - `keys` names key paths (dotted from the record, through nested objects and arrays of
///   them) and their format; there a value that does not fit the format (text that is no
///   ISO-8601 date, a number under an ISO key) is an error, as in `JSONDecoder`, and `null`
///   stays `null`. Under `.iso8601` a bare date (`2024-03-01`) is midnight UTC.
///
/// ```swift
/// let dates = SiftJSONDates(keys: ["createdAt": .iso8601, "sync.at": .milliseconds])
/// let records = try dates.apply(to: try SiftJSON.parse(#"[{"createdAt": "2024-03-01T10:00:00Z"}]"#))
/// let all = SiftJSONDates(defaultFormat: .iso8601)   // every ISO-8601 string
/// ```
public struct SiftJSONDates: Sendable, Hashable {
  /// How a date is written in JSON.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// `2024-03-01T10:00:00Z`, `2024-03-01T10:00:00.123+02:00`, … (text).
    case iso8601
    /// Seconds since 1970 (a number).
    case seconds
    /// Milliseconds since 1970 (a number).
    case milliseconds
  }

  /// The format for keys `keys` does not name; nil: no other value is a date.
  public var defaultFormat: Format?
  /// Formats per dotted key path.
  public var keys: [String: Format]

  /// A strategy; the default one reads only `{"$date": …}`.
  public init(defaultFormat: Format? = nil, keys: [String: Format] = [:]) {
    self.defaultFormat = defaultFormat
    self.keys = keys
  }

  /// Only `{"$date": …}` is a date.
  public static let none = SiftJSONDates()

  /// True when the strategy changes nothing.
  public var isNone: Bool { defaultFormat == nil && keys.isEmpty }

  /// Why a value could not be read as a date (the `underlying` of the `SiftError`).
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The record's position in the input (from 0), when the input is a list of records.
    package var record: Int?
    /// The dotted key path.
    package var key: String
    /// What was expected and found.
    package var message: String
    /// `record 3, key "createdAt": "yesterday" is not an ISO-8601 date`.
    package var description: String {
      (record.map { "record \($0), " } ?? "") + "key \"\(key)\": \(message)"
    }
  }

  /// `value` with its dates read: an array's elements are records, anything else is one.
  ///
  /// ```swift
  /// try SiftJSONDates(defaultFormat: .iso8601).apply(to: ["at": "2024-03-01T00:00:00Z"])
  /// // ["at": .date(2024-03-01 00:00:00 +0000)]
  /// ```
  /// - Throws: `SiftError` (stage `.data`, id `invalid-date`) naming the record and key of a
  ///   value a named key cannot read.
  public func apply(to value: SiftValue) throws(SiftError) -> SiftValue {
    do { return try applying(to: value) } catch {
      throw SiftError(stage: .data, id: .invalidDate, message: error.description, underlying: error)
    }
  }

  func applying(to value: SiftValue) throws(Failure) -> SiftValue {
    if isNone { return value }
    guard case .array(let records) = value else { return try convert(value, path: "", record: nil) }
    var out: [SiftValue] = []
    out.reserveCapacity(records.count)
    for (i, r) in records.enumerated() { out.append(try convert(r, path: "", record: i)) }
    return .array(out)
  }

  private func convert(_ value: SiftValue, path: String, record: Int?) throws(Failure) -> SiftValue {
    switch value {
    case .dictionary(let d):
      var out: [String: SiftValue] = [:]
      out.reserveCapacity(d.count)
      for (k, v) in d {
        let p = path.isEmpty ? k : path + "." + k
        if let format = keys[p] {
          out[k] = try Self.read(v, as: format, strict: true, key: p, record: record)
        } else {
          out[k] = try convert(v, path: p, record: record)
        }
      }
      return .dictionary(out)
    case .array(let items):
      var out: [SiftValue] = []
      out.reserveCapacity(items.count)
      for item in items { out.append(try convert(item, path: path, record: record)) }
      return .array(out)
    default:
      guard let defaultFormat, !path.isEmpty else { return value }
      return try Self.read(value, as: defaultFormat, strict: false, key: path, record: record)
    }
  }

  /// `value` read as a date in `format`; arrays element by element. Strict: a value that does
  /// not fit is an error; otherwise it stays as it is.
  static func read(_ value: SiftValue, as format: Format, strict: Bool, key: String, record: Int?) throws(Failure)
    -> SiftValue
  {
    func fail(_ what: String) -> Failure {
      // A number past Double's range (`2e400`) reads as infinity, which JSON prints as `null`.
      var shown = SiftJSON.serialize(value)
      if case .double(let d) = value, !d.isFinite { shown = "a number too large for a Double" }
      return Failure(record: record, key: key, message: "\(shown) is not \(what)")
    }
    switch (value, format) {
    case (.null, _), (.date, _):
      return value
    case (.array(let items), _):
      var out: [SiftValue] = []
      out.reserveCapacity(items.count)
      for item in items { out.append(try read(item, as: format, strict: strict, key: key, record: record)) }
      return .array(out)
    case (.string(let s), .iso8601):
      // Under a default ISO strategy only full date-times count: a title "2024" stays text.
      if let date = SiftJSON.parseDate(s), strict || isDateTime(s) { return .date(date) }
      if strict { throw fail("an ISO-8601 date") }
      return value
    case (.int(let n), .seconds): return .date(Date(timeIntervalSince1970: Double(n)))
    case (.double(let d), .seconds) where d.isFinite: return .date(Date(timeIntervalSince1970: d))
    case (.int(let n), .milliseconds): return .date(Date(timeIntervalSince1970: Double(n) / 1000))
    case (.double(let d), .milliseconds) where d.isFinite: return .date(Date(timeIntervalSince1970: d / 1000))
    default:
      if strict {
        throw fail(format == .iso8601 ? "an ISO-8601 date" : "a number of \(format.rawValue) since 1970")
      }
      return value
    }
  }

  /// A date, `T`, a time and a zone (`Z` or an offset): what `JSONDecoder`'s `.iso8601` reads,
  /// with an optional fraction.
  static func isDateTime(_ s: String) -> Bool {
    let b = Array(s.utf8)
    guard b.count >= 17, b[10] == UInt8(ascii: "T") else { return false }
    let last = b[b.count - 1]
    if last == UInt8(ascii: "Z") { return true }
    return b.count >= 22 && (b[b.count - 6] == UInt8(ascii: "+") || b[b.count - 6] == UInt8(ascii: "-"))
  }
}

extension SiftJSONDates {
  /// Reads a command-line or file specification: `iso8601`, `seconds`, `milliseconds` (the
  /// default format), `KEY=FORMAT` (one key), or a JSON object of key paths and formats,
  /// where `"*"` names the default: `{"createdAt": "iso8601", "sync.at": "milliseconds"}`.
  /// Several specifications add up; a later one wins for the same key.
  ///
  /// ```swift
  /// let dates = try SiftJSONDates(specifications: ["iso8601", "updatedAt=milliseconds"])
  /// ```
  /// - Throws: `SiftError` (stage `.data`, id `invalid-date-format`).
  public init(specifications: [String]) throws(SiftError) {
    do { try self.init(parsing: specifications) } catch {
      throw SiftError(
        stage: .data, id: .invalidDateFormat, message: (error.key == "*" ? "" : "key \(error.key): ") + error.message,
        underlying: error)
    }
  }

  init(parsing specifications: [String]) throws(Failure) {
    self.init()
    for spec in specifications {
      let text = spec.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("{") {
        let object: SiftValue
        do { object = try SiftJSON.parse(text) } catch {
          throw Failure(record: nil, key: "*", message: "the date formats are not valid JSON (\(error))")
        }
        guard case .dictionary(let d) = object else {
          throw Failure(
            record: nil, key: "*", message: "the date formats must be a JSON object of key paths and formats")
        }
        for (key, v) in d {
          guard case .string(let name) = v, let format = Format(rawValue: name) else {
            throw Failure(
              record: nil, key: key, message: "\(SiftJSON.serialize(v)) is not a date format (\(Self.formatNames))")
          }
          if key == "*" { defaultFormat = format } else { keys[key] = format }
        }
      } else if let eq = text.firstIndex(of: "=") {
        let key = String(text[..<eq])
        let name = String(text[text.index(after: eq)...])
        guard !key.isEmpty, let format = Format(rawValue: name) else {
          throw Failure(record: nil, key: key, message: "'\(name)' is not a date format (\(Self.formatNames))")
        }
        keys[key] = format
      } else {
        guard let format = Format(rawValue: text) else {
          throw Failure(
            record: nil, key: "*",
            message: "'\(text)' is not a date format (\(Self.formatNames), KEY=FORMAT, or a JSON object)")
        }
        defaultFormat = format
      }
    }
  }

  static var formatNames: String { Format.allCases.map(\.rawValue).joined(separator: ", ") }
}
