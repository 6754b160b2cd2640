import CSQLite
import Foundation
import SiftSQL
import SiftSyntax

/// The current row of one SQLite statement being decoded as a `Decodable` type, read straight
/// from `sqlite3_column_*`: `String`, `Int`, `Int64`, `Double`, `Bool` and `Date` (in its
/// column's encoding), and their optionals, go into the Swift value without an `SQLValue` or a
/// `SiftValue` in between. Anything else — another type, a value of another storage class, a
/// value that does not fit, a missing key — is handed to the row decoder of `SiftRow` over
/// this row's values, so results and error messages are exactly `SiftRowColumns.decode`'s.
///
/// Why not `forEachRow` + `SiftRowSink`: reading every column into `[SQLValue]` and decoding
/// through `SiftValue` cost 80 ms per 100,000 five-column rows against 20 ms for the
/// hand-written `sqlite3_step` loop (`sift-bench --suite decode`, budget 1.5×).
final class SQLiteRowReader {
  let statement: OpaquePointer
  let columns: SiftRowColumns
  let names: [String]
  let readings: [SQLValueReading]
  /// Columns that are the first of their name (what `SiftRowColumns.position(of:)` gives).
  let firstOfName: [Bool]
  /// Columns both the statement and `columns` have.
  let count: Int
  /// The cursor the general decoder follows (`state.next` is copied in and out of it).
  let cursor = SiftRowCursor()
  /// The row being read: its number, the column the next key probably names, and the row
  /// whose values `values` holds. Raw memory rather than stored properties: the class's
  /// exclusivity checks (swift_beginAccess, ~3 per field per row) took 6.7% of the fetch in
  /// `perf` (sift-bench --suite decode); nothing else holds the pointer.
  let state: UnsafeMutablePointer<(number: Int, next: Int, valuesRow: Int)>
  /// The row's values, read once when a key takes the general path.
  var values: SiftRow?
  /// The keyed container of the last row and its key type, reused by the next row (it holds
  /// only this reader): making one per row asked the runtime for three generic types'
  /// metadata and allocated its box, 17% of the fetch in `perf` (sift-bench --suite decode).
  var container: AnyObject?
  var containerKey: ObjectIdentifier?

  init(statement: OpaquePointer, columns: SiftRowColumns) {
    self.statement = statement
    self.columns = columns
    let names = columns.names
    self.names = names
    readings = columns.readings
    firstOfName = names.indices.map { columns.position(of: names[$0]) == $0 }
    count = min(Int(sqlite3_column_count(statement)), names.count)
    state = .allocate(capacity: 1)
    state.initialize(to: (number: 0, next: 0, valuesRow: -1))
  }

  deinit { state.deallocate() }

  /// Starts row `number` (after `sqlite3_step` gave `SQLITE_ROW`).
  @inline(__always)
  func start(_ number: Int) {
    state.pointee.number = number
    state.pointee.next = 0
  }

  /// The row as `SiftRow`, for the general path.
  func row() -> SiftRow {
    let number = state.pointee.number
    if state.pointee.valuesRow == number, let values { return values }
    let total = Int(sqlite3_column_count(statement))
    let row = SiftRow(
      columns: columns, values: (0..<total).map { SQLiteDatabase.read(statement, Int32($0)) }, number: number)
    values = row
    state.pointee.valuesRow = number
    return row
  }

  /// `decode` by the general decoder over this row (`SiftRow`'s container), the cursor where
  /// it was before the key (`from`), or where it is. Kept out of line: the container's type
  /// is generic, and asking for its metadata cost every fast path a lookup.
  @inline(never)
  func general<Key: CodingKey, T>(
    _ key: Key, from: Int? = nil, _ decode: (KeyedDecodingContainer<Key>) throws -> T
  ) throws -> T {
    cursor.next = from ?? state.pointee.next
    defer { state.pointee.next = cursor.next }
    return try decode(row().container(keyedBy: Key.self, cursor: cursor))
  }

  /// The column of `name` as the general decoder resolves it (the cursor's column when it has
  /// that name, else the first of the name), advancing the cursor; nil when there is none.
  @inline(__always)
  func position(_ name: String) -> Int? {
    let guess = state.pointee.next
    if guess < count, names[guess] == name {
      state.pointee.next = guess + 1
      return guess
    }
    guard let i = columns.position(of: name), i < count else { return nil }
    state.pointee.next = i + 1
    return i
  }

  /// The first column of `name` (as `SiftRowColumns.position(of:)`), without moving the cursor.
  @inline(__always)
  func firstPosition(_ name: String) -> Int? {
    let guess = state.pointee.next
    if guess < count, firstOfName[guess], names[guess] == name { return guess }
    return columns.position(of: name)
  }

  @inline(__always)
  func type(_ i: Int) -> Int32 { sqlite3_column_type(statement, Int32(i)) }

  /// Text column `i`, as `SQLiteDatabase.read` spells it.
  @inline(__always)
  func text(_ i: Int) -> String {
    let n = Int(sqlite3_column_bytes(statement, Int32(i)))
    guard let p = sqlite3_column_text(statement, Int32(i)) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
  }

  /// Column `i` read as a date as the general decoder reads it, or nil to leave it to that
  /// decoder: in a date column, its encoding (`SQLDateEncoding.date(from:)`); in a plain
  /// column (a date the schema does not know, such as an introspected `REAL`), seconds since
  /// 1970 or ISO-8601 text (`SiftCellDecoder.date`).
  @inline(__always)
  func date(_ i: Int) -> Date? {
    let c = Int32(i)
    let encoding: SQLDateEncoding
    switch readings[i] {
    case .date(let e): encoding = e
    case .plain: encoding = .unixSeconds
    default: return nil
    }
    switch sqlite3_column_type(statement, c) {
    case SQLITE_INTEGER: return encoding.date(from: .integer(sqlite3_column_int64(statement, c)))
    case SQLITE_FLOAT: return encoding.date(from: .double(sqlite3_column_double(statement, c)))
    case SQLITE_TEXT:
      switch encoding {
      case .iso8601, .sqliteDateTime, .isoDate, .native: break
      // A plain column's text is read as ISO-8601; a numeric date column's is left to the
      // general decoder.
      case .unixSeconds where readings[i] == .plain: break
      default: return nil
      }
      // The parser takes ASCII only and must read every byte, so the raw bytes give the
      // same date as the String `read` would make (an invalid UTF-8 byte fails both).
      let n = Int(sqlite3_column_bytes(statement, c))
      guard let p = sqlite3_column_text(statement, c) else { return nil }
      return SiftDateParser.parse(bytes: UnsafeBufferPointer(start: p, count: n))
    default: return nil
    }
  }
}

/// A keyed container kept from one row to the next (`SQLiteRowReader.container`).
final class SQLiteContainerCache<Key: CodingKey> {
  let container: KeyedDecodingContainer<Key>
  init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}

/// `SQLiteRowReader`'s row as a `Decoder`.
struct SQLiteRowDecoder: Decoder {
  let reader: SQLiteRowReader
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if reader.containerKey == ObjectIdentifier(Key.self), let cached = reader.container {
      // Made below for exactly this Key (the identifier just compared), so the unchecked
      // downcast is to the object's own class; `as?` would ask for its metadata again.
      return unsafeDowncast(cached, to: SQLiteContainerCache<Key>.self).container
    }
    let made = SQLiteContainerCache<Key>(KeyedDecodingContainer(SQLiteRowContainer<Key>(reader: reader)))
    reader.container = made
    reader.containerKey = ObjectIdentifier(Key.self)
    return made.container
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try reader.row().decoder(cursor: nil).unkeyedContainer()
  }
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    try reader.row().decoder(cursor: nil).singleValueContainer()
  }
}

/// The row's columns by coding key: the common types read directly, the rest through
/// `SiftRow`'s container (`SQLiteRowReader.general`).
struct SQLiteRowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let reader: SQLiteRowReader
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { reader.names.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { reader.firstPosition(key.stringValue) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let i = reader.firstPosition(key.stringValue), i < reader.count else {
      return try reader.general(key) { try $0.decodeNil(forKey: key) }
    }
    return reader.type(i) == SQLITE_NULL
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    let before = reader.state.pointee.next
    if let i = reader.position(key.stringValue), reader.type(i) == SQLITE_INTEGER {
      let n = sqlite3_column_int64(reader.statement, Int32(i))
      if n == 0 || n == 1 { return n == 1 }
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let before = reader.state.pointee.next
    if let i = reader.position(key.stringValue), case .plain = reader.readings[i], reader.type(i) == SQLITE_TEXT {
      return reader.text(i)
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    let before = reader.state.pointee.next
    if let i = reader.position(key.stringValue), case .plain = reader.readings[i] {
      switch reader.type(i) {
      case SQLITE_FLOAT: return sqlite3_column_double(reader.statement, Int32(i))
      case SQLITE_INTEGER: return Double(sqlite3_column_int64(reader.statement, Int32(i)))
      default: break
      }
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    let before = reader.state.pointee.next
    if let i = reader.position(key.stringValue), case .plain = reader.readings[i], reader.type(i) == SQLITE_INTEGER,
      let n = Int(exactly: sqlite3_column_int64(reader.statement, Int32(i)))
    {
      return n
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    let before = reader.state.pointee.next
    if let i = reader.position(key.stringValue), case .plain = reader.readings[i], reader.type(i) == SQLITE_INTEGER {
      return sqlite3_column_int64(reader.statement, Int32(i))
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let before = reader.state.pointee.next
    if T.self == Date.self, let i = reader.position(key.stringValue), let d = reader.date(i) {
      // T is Date (checked exactly above), so the cast reinterprets nothing; see
      // SiftCellDecoder.decode for what `as? T` costs on this path.
      return unsafeBitCast(d, to: T.self)
    }
    return try reader.general(key, from: before) { try $0.decode(type, forKey: key) }
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try reader.general(key) { try $0.decode(type, forKey: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try reader.general(key) { try $0.nestedContainer(keyedBy: type, forKey: key) }
  }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try reader.general(key) { try $0.nestedUnkeyedContainer(forKey: key) }
  }
  func superDecoder() throws -> any Decoder { reader.row().decoder(cursor: nil) }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    try reader.general(key) { try $0.superDecoder(forKey: key) }
  }
}

extension SQLiteDatabase {
  /// Runs `statement` and decodes each row as `type` (`SQLiteRowReader`).
  func decodeRows<T: Decodable>(_ statement: SQLStatement, columns: SiftRowColumns, as type: T.Type) throws -> [T] {
    let st = try bound(statement)
    defer { sqlite3_reset(st) }
    let reader = SQLiteRowReader(statement: st, columns: columns)
    defer { reader.container = nil }  // it holds the reader
    var results: [T] = []
    while true {
      let rc = step(st, firstStep: results.isEmpty)
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw lastError(statement.sql) }
      reader.start(results.count)
      results.append(try T(from: SQLiteRowDecoder(reader: reader)))
    }
    return results
  }
}
