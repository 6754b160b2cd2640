import Foundation
import SiftSyntax

/// How one attribute is stored, and the conversions both ways between its stored `SQLValue`s
/// and `SiftValue`s: the one place that decides a date's encoding and precision (seconds or
/// milliseconds since 1970, Core Data's seconds since 2001, ISO-8601 text in the column's
/// spelling, PostgreSQL's native types), a boolean's form (0/1 or `boolean`) and an array's
/// storage. The SQL compiler's constants, `SQLDataLoader` (`sift load`), live tables, typed
/// results (`SiftRow`) and the CLI's displays all go through it.
///
/// ```swift
/// let created = SQLAttribute(name: "created", column: "ZCREATED", type: .date, dateEncoding: .referenceDateSeconds)
/// let codec = SQLColumnCodec(created, schema: schema, dialect: SQLiteDialect())
/// try codec.encode(.date(Date(timeIntervalSinceReferenceDate: 60)))   // .double(60)
/// codec.decode(.double(60))                                           // .date(2001-01-01T00:01:00Z)
/// ```
public struct SQLColumnCodec: Sendable, Hashable {
  /// The attribute's key (what a predicate and a `Decodable` type's coding key name).
  public let name: String
  /// The column it is stored in.
  public let column: String
  /// The attribute type.
  public let type: SQLAttributeType
  /// How a date is stored (the attribute's own encoding, else the schema's); nil for other types.
  public let dateEncoding: SQLDateEncoding?
  /// True when a numeric date is stored as whole numbers (an `INTEGER`/`bigint` column).
  public let storesWholeNumbers: Bool
  /// True when booleans are stored as 0/1 integers (SQLite); false for a native `boolean`.
  public let booleansAreIntegers: Bool
  /// How an array attribute is stored; nil for other types.
  public let arrayStorage: SQLArrayStorage?
  /// The spelling a text date column's values share, read from the column by its writer (a
  /// live table): dates are written in it, not only in the encoding's shape; nil: the shape.
  package var textForm: SQLDateTextForm?

  /// The codec of attribute `a` of `schema` on `dialect`'s database.
  public init(_ a: SQLAttribute, schema: SQLSchema, dialect: any SQLDialect) {
    self.init(a, schemaDates: schema.dateEncoding, booleansAreIntegers: dialect.booleansAreIntegers)
  }

  init(_ a: SQLAttribute, schemaDates: SQLDateEncoding, booleansAreIntegers: Bool) {
    name = a.name
    column = a.column
    type = a.type
    dateEncoding = a.type == .date ? a.dateEncoding ?? schemaDates : nil
    storesWholeNumbers = a.nativeType?.lowercased().contains("int") ?? false
    self.booleansAreIntegers = booleansAreIntegers
    arrayStorage = a.type.isArray ? a.effectiveArrayStorage : nil
  }

  /// The codec of one element of an array attribute (a side table's `value` column).
  public var elementCodec: SQLColumnCodec {
    SQLColumnCodec(
      SQLAttribute(name: name, column: column, type: type.elementType), schemaDates: dateEncoding ?? .unixSeconds,
      booleansAreIntegers: booleansAreIntegers)
  }

  /// A stored value as it reads without knowing its column: `.bool` stays a boolean, NULL is
  /// `.null`, blobs are `.data`; dates are whatever number or text holds them.
  ///
  /// ```swift
  /// SQLColumnCodec.plain(.integer(3))   // .int(3)
  /// ```
  public static func plain(_ v: SQLValue) -> SiftValue {
    switch v {
    case .null: return .null
    case .integer(let i): return .int(i)
    case .double(let d): return .double(d)
    case .text(let s): return .string(s)
    case .blob(let d): return .data(d)
    case .bool(let b): return .bool(b)
    }
  }

  /// A value to store or bind without a column to follow (a column no schema describes):
  /// booleans as the dialect's form, dates as ISO-8601 text; arrays and dictionaries have none.
  ///
  /// ```swift
  /// try SQLColumnCodec.plainValue(.bool(true), booleansAreIntegers: true)   // .integer(1)
  /// ```
  /// - Throws: `SiftError` (id `value-not-storable`) for an array or dictionary,
  ///   (id `date-out-of-range`) for a date no text spells.
  public static func plainValue(_ v: SiftValue, booleansAreIntegers: Bool) throws(SiftError) -> SQLValue {
    switch v {
    case .null: return .null
    case .bool(let b): return booleansAreIntegers ? .integer(b ? 1 : 0) : .bool(b)
    case .int(let i): return .integer(i)
    case .double(let d): return .double(d)
    case .string(let s): return .text(s)
    case .date(let d): return try SQLDateEncoding.iso8601.sqlValue(d)
    case .data(let d): return .blob(d)
    case .array, .dictionary: throw notStorable(v, "a column")
    }
  }

  /// `v` stored the way this column stores it: a date in the column's encoding and
  /// precision (a whole number in an integer column), a boolean as 0/1 or `boolean`, an
  /// integer accepted for a double, 0/1 for a boolean, a boolean for an integer, a JSON array
  /// as its text. With `lenient` (a SQLite column, which holds any kind) a value of another
  /// kind is stored as itself (`plainValue`) instead of refused.
  ///
  /// ```swift
  /// try codec.encode(.date(someDate))   // .double, .integer or .text as the column stores dates
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `value-not-storable`) naming the attribute and
  ///   what was found, or `date-out-of-range`.
  public func encode(_ v: SiftValue, lenient: Bool = false) throws(SiftError) -> SQLValue {
    do {
      return try encodeValue(v, lenient: lenient)
    } catch {
      var e = error
      e.diagnostic.message = "\(name): " + e.diagnostic.message
      throw e
    }
  }

  /// `encode` with errors that do not name the attribute (the loader names the record's path).
  func encodeValue(_ v: SiftValue, lenient: Bool = false) throws(SiftError) -> SQLValue {
    switch (type, v) {
    case (_, .null): return .null
    case (.string, .string(let s)): return .text(s)
    case (.integer, .int(let i)): return .integer(i)
    case (.integer, .bool(let b)): return .integer(b ? 1 : 0)
    case (.double, .double(let d)): return .double(d)
    case (.double, .int(let i)): return .double(Double(i))
    case (.boolean, .bool(let b)): return booleansAreIntegers ? .integer(b ? 1 : 0) : .bool(b)
    case (.boolean, .int(let i)) where i == 0 || i == 1: return booleansAreIntegers ? .integer(i) : .bool(i == 1)
    case (.date, .date(let d)): return try encodeDate(d)
    case (.data, .data(let d)): return .blob(d)
    case (.any, _): return try SQLColumnCodec.plainValue(v, booleansAreIntegers: booleansAreIntegers)
    case (_, .array(let items)) where type.isArray && arrayStorage == .json:
      let element = elementCodec
      for item in items { _ = try element.encodeValue(item) }
      return .text(SiftJSON.serialize(v))
    default:
      if lenient { return try SQLColumnCodec.plainValue(v, booleansAreIntegers: booleansAreIntegers) }
      throw SiftError(
        stage: .sql,
        diagnostic: SiftDiagnostic(
          id: .valueNotStorable, message: "expected \(type.elementType.rawValue), found \(v.kindName)", range: .at(0)),
        source: "")
    }
  }

  /// A date in this column's encoding (a whole number stays an integer in an integer column).
  func encodeDate(_ d: Date) throws(SiftError) -> SQLValue {
    if let textForm, let encoding = dateEncoding, encoding.isText, encoding != .isoDate {
      guard let text = textForm.text(d) else { throw SQLDateEncoding.outOfRange(d.timeIntervalSince1970, encoding) }
      return .text(text)
    }
    var value = try (dateEncoding ?? .unixSeconds).sqlValue(d)
    if storesWholeNumbers, case .double(let n) = value, n == n.rounded(), let i = Int64(exactly: n) {
      value = .integer(i)
    }
    return value
  }

  /// A stored value as a `SiftValue` of this attribute: dates from the column's encoding,
  /// booleans from 0/1 or `boolean`, arrays from native or JSON arrays. A value that does not
  /// fit (text that is no date, a 2 in a boolean column) comes back as itself (`plain`).
  ///
  /// ```swift
  /// codec.decode(.integer(1))   // .bool(true) for a boolean column
  /// ```
  public func decode(_ v: SQLValue) -> SiftValue {
    reading.decode(v) ?? SQLColumnCodec.plain(v)
  }

  /// A stored value of attribute `a` of `schema` read as its type, on any database (reading
  /// needs the attribute and the schema's date encoding only).
  ///
  /// ```swift
  /// SQLColumnCodec.decode(.text("2024-01-05T10:30:00Z"), as: createdAt, in: schema)   // .date(…)
  /// ```
  public static func decode(_ v: SQLValue, as a: SQLAttribute, in schema: SQLSchema) -> SiftValue {
    SQLColumnCodec(a, schemaDates: schema.dateEncoding, booleansAreIntegers: true).decode(v)
  }

  /// `decode`, or nil when the stored value does not fit the attribute (what `SiftRow`
  /// reports as an error).
  func decodeChecked(_ v: SQLValue) -> SiftValue? { reading.decode(v) }

  /// What reading a stored value of this attribute takes (`SQLValueReading`).
  var reading: SQLValueReading {
    switch type {
    case .date: return .date(dateEncoding ?? .unixSeconds)
    case .boolean: return .boolean
    case .stringArray, .integerArray, .doubleArray: return .array(type.elementType)
    default: return .plain
    }
  }

  static func notStorable(_ v: SiftValue, _ place: String) -> SiftError {
    SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(
        id: .valueNotStorable, message: "\(place) cannot hold \(v.kindName) \(SiftJSON.serialize(v))", range: .at(0)),
      source: "")
  }
}

/// How a stored value of one column becomes a `SiftValue`: the decoding half of
/// `SQLColumnCodec`, small enough to keep one per column of a result.
package enum SQLValueReading: Sendable, Hashable {
  case plain
  case date(SQLDateEncoding)
  case boolean
  /// An array stored in one column (native or JSON), with its element type.
  case array(SQLAttributeType)

  /// The value, or nil when the stored value does not fit (text that is no date, a 2 in a
  /// boolean column, text that is no array).
  @inline(__always)
  package func decode(_ v: SQLValue) -> SiftValue? {
    if case .null = v { return .null }
    switch self {
    case .plain: return SQLColumnCodec.plain(v)
    case .date(let encoding): return encoding.date(from: v).map(SiftValue.date)
    case .boolean:
      switch v {
      case .bool(let b): return .bool(b)
      case .integer(let i) where i == 0 || i == 1: return .bool(i == 1)
      default: return nil
      }
    case .array(let element):
      guard case .text(let s) = v else { return SQLColumnCodec.plain(v) }
      guard let items = SQLArrayText.parse(s, elementType: element) else { return nil }
      return .array(
        items.map { item in
          if case .bool(let b) = item { return .bool(b) }
          return SQLColumnCodec.plain(item)
        })
    }
  }
}
