import Foundation
import SiftSyntax

/// One result row of any shape (records, properties to fetch, aggregates, group-by,
/// expressions) with named access: `row["title"]` reads a column as a `SiftValue` in its
/// attribute's own encoding (dates as `.date`, booleans as `.bool`), `row.decode(_:_:)` reads
/// it as a Swift type. Fetch them with `db.fetch(request, as: SiftRow.self)`; the drivers
/// only hand over `SQLValue`s.
///
/// ```swift
/// let request = SiftFetchRequest(entity: "Note", resultType: .aggregates([SiftAggregate(.max, "createdAt")], groupBy: ["folder"]))
/// for row in try db.fetch(request, as: SiftRow.self) {
///   print(row["folder"] ?? .null, try row.decode(Date.self, "max(createdAt)"))
/// }
/// ```
public struct SiftRow: Sendable, Decodable, CustomStringConvertible {
  /// The columns (names and codecs), shared by the rows of one result.
  public let columns: SiftRowColumns
  /// The stored values, one per column.
  public let values: [SQLValue]
  /// The row's position in its result (0-based), named in decoding errors.
  public let number: Int

  /// A row of `values` under `columns`.
  public init(columns: SiftRowColumns, values: [SQLValue], number: Int = 0) {
    self.columns = columns
    self.values = values
    self.number = number
  }

  /// The value of column `name` in its attribute's encoding (`SQLColumnCodec.decode`), `.null`
  /// for NULL, or nil when the row has no such column.
  ///
  /// ```swift
  /// row["pinned"]   // .bool(true), stored as 1
  /// ```
  public subscript(_ name: String) -> SiftValue? {
    guard let i = columns.position(of: name), i < values.count else { return nil }
    return value(at: i)
  }

  /// Column `name` decoded as `type`: dates from the column's encoding, booleans from
  /// `BOOLEAN`/0-1, UUIDs from text or 16-byte blobs, arrays from native or JSON arrays, an
  /// optional from NULL.
  ///
  /// ```swift
  /// let created = try row.decode(Date.self, "createdAt")
  /// ```
  /// - Throws: `SiftError` (stage `.decode`, id `decode-mismatch` or `decode-missing-key`)
  ///   naming the row, the key, the column and what was found.
  public func decode<T: Decodable>(_ type: T.Type, _ name: String) throws(SiftError) -> T {
    guard let i = columns.position(of: name), i < values.count else {
      if let optional = type as? any SiftRowOptional.Type, let none = optional.siftNone as? T { return none }
      throw missing(name)
    }
    do { return try SiftCellDecoder(row: self, index: i, key: SiftRowKey(name)).decode(type) } catch {
      throw SiftError.decoding(error, row: number, key: name)
    }
  }

  /// The whole row decoded as `type`, whose coding keys are column names.
  ///
  /// ```swift
  /// let note = try row.decode(Note.self)
  /// ```
  /// - Throws: `SiftError`: what `decode(_:_:)` throws; the type's own errors as stage
  ///   `.decode`, id `decode-failed`, naming the row (kept as `underlying`).
  public func decode<T: Decodable>(_ type: T.Type) throws(SiftError) -> T {
    if let row = self as? T { return row }
    do { return try T(from: SiftRowDecoder(row: self)) } catch { throw SiftError.decoding(error, row: number) }
  }

  /// The row's decoder, for a driver that reads most values itself and hands the rest here
  /// (`SQLiteRowDecoder`): what `decode(_:)` uses, looking first at `cursor`'s column.
  package func decoder(cursor: SiftRowCursor?) -> any Decoder { SiftRowDecoder(row: self, cursor: cursor) }

  /// The keyed container `decoder(cursor:)` gives.
  package func container<Key: CodingKey>(keyedBy type: Key.Type, cursor: SiftRowCursor?) -> KeyedDecodingContainer<Key>
  {
    KeyedDecodingContainer(SiftRowContainer<Key>(row: self, cursor: cursor))
  }

  /// A `SiftRow` decodes only from the row decoder (`db.fetch(request, as: SiftRow.self)`).
  public init(from decoder: any Decoder) throws {
    guard let d = decoder as? SiftRowDecoder else {
      throw DecodingError.typeMismatch(
        SiftRow.self,
        .init(codingPath: decoder.codingPath, debugDescription: "a SiftRow decodes only from a fetched row"))
    }
    self = d.row
  }

  /// `name: value` pairs: `{id: 1, title: "Buy milk"}`.
  public var description: String {
    "{"
      + columns.names.indices.map { "\(columns.names[$0]): \(SiftJSON.serialize(value(at: $0)))" }.joined(
        separator: ", ") + "}"
  }

  /// The value at position `i`, through the column's codec.
  @inline(__always)
  func value(at i: Int) -> SiftValue {
    let v = values[i]
    return columns.readings[i].decode(v) ?? SQLColumnCodec.plain(v)
  }

  func missing(_ key: String) -> SiftError {
    SiftRow.error(
      .decodeMissingKey,
      "row \(number): no column for key '\(key)' (columns: \(columns.names.joined(separator: ", ")))")
  }

  /// Column `i` (key `key`) did not decode as `expected`.
  func mismatch(_ i: Int, key: String, expected: String, found: String? = nil) -> SiftError {
    let column = columns.codecs[i]?.column ?? columns.names[i]
    let stored = found ?? SiftRow.describe(values[i])
    return SiftRow.error(
      .decodeMismatch, "row \(number): key '\(key)' (column \(column)): expected \(expected), found \(stored)")
  }

  static func describe(_ v: SQLValue) -> String {
    switch v {
    case .null: return "NULL"
    case .integer: return "integer \(v)"
    case .double: return "double \(v)"
    case .text(let s): return "text \(SQLValue.text(String(s.prefix(60))))"
    case .blob(let d): return "a blob of \(d.count) bytes"
    case .bool(let b): return "boolean \(b)"
    }
  }

  static func error(_ id: DiagnosticID, _ message: String) -> SiftError {
    SiftError(stage: .decode, diagnostic: SiftDiagnostic(id: id, message: message, range: .at(0)), source: "")
  }
}

extension SiftError {
  /// An error while fetching typed rows as Sift's one error type: a `SiftError` as it is, any
  /// other (a `Decodable` type's own `init(from:)` refusing a value) as stage `.decode`, id
  /// `decode-failed`, kept as `underlying`.
  package static func decoding(_ error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    return SiftError(stage: .decode, id: .decodeFailed, message: "\(error)", underlying: error)
  }

  /// `decoding(_:)` naming the row (and the key, when known) the type's own error came from:
  /// "row 3, key 'status': cannot initialize Status from invalid String value x".
  package static func decoding(_ error: any Error, row: Int, key: String? = nil) -> SiftError {
    if let e = error as? SiftError { return e }
    var place = "row \(row)"
    if let key {
      place += ", key '\(key)'"
    } else if let path = SiftError.codingPath(of: error) {
      place += ", key '\(path)'"
    }
    return SiftError(
      stage: .decode, id: .decodeFailed, message: "\(place): \(SiftError.reason(of: error))", underlying: error)
  }

  /// The coding path a `DecodingError` names, dotted; nil when it names none.
  static func codingPath(of error: any Error) -> String? {
    guard let e = error as? DecodingError else { return nil }
    let path: [any CodingKey]
    switch e {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
      path = c.codingPath
    @unknown default: return nil
    }
    return path.isEmpty ? nil : path.map(\.stringValue).joined(separator: ".")
  }

  /// A `DecodingError`'s own description, or the error as printed.
  static func reason(of error: any Error) -> String {
    guard let e = error as? DecodingError else { return "\(error)" }
    switch e {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
      return c.debugDescription
    @unknown default: return "\(e)"
    }
  }
}

/// `Optional`, seen from generic code: `decode(String?.self, "missing")` is nil.
protocol SiftRowOptional {
  static var siftNone: Any { get }
}

extension Optional: SiftRowOptional {
  static var siftNone: Any { Wrapped?.none as Any }
}

/// A coding key of a row's column.
struct SiftRowKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(_ s: String) { stringValue = s }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
