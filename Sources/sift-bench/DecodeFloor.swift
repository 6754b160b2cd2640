import CSQLite
import Foundation

/// The least any `Decoder` can do over the decode suite's statement: one keyed container,
/// made once and reused for every row, whose `decode` calls read the next column by position
/// (no key is looked at, no type or value is checked; the column counter in raw memory, no
/// exclusivity check). Decoding through it measures what `Decodable` itself costs on top of
/// the hand-written loop — the floor under `db.fetch(_:as:)`.
final class FloorRow {
  let statement: OpaquePointer
  let column = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
  var container: AnyObject?
  init(_ statement: OpaquePointer) {
    self.statement = statement
    column.initialize(to: 0)
  }
  deinit { column.deallocate() }

  func next() -> Int32 {
    defer { column.pointee += 1 }
    return column.pointee
  }
}

final class FloorCache<Key: CodingKey> {
  let container: KeyedDecodingContainer<Key>
  init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}

struct FloorFailure: Error {}

struct FloorDecoder: Decoder {
  let row: FloorRow
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    // One Key type per fetch here (Note's), so the cached container is of this Key.
    if let cached = row.container { return unsafeDowncast(cached, to: FloorCache<Key>.self).container }
    let made = FloorCache(KeyedDecodingContainer(FloorContainer<Key>(row: row)))
    row.container = made
    return made.container
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FloorFailure() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FloorFailure() }
}

struct FloorContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let row: FloorRow
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }
  func contains(_ key: Key) -> Bool { true }
  func decodeNil(forKey key: Key) throws -> Bool { false }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    sqlite3_column_int64(row.statement, row.next()) != 0
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let c = row.next()
    let n = Int(sqlite3_column_bytes(row.statement, c))
    guard let p = sqlite3_column_text(row.statement, c) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    sqlite3_column_double(row.statement, row.next())
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { Int(sqlite3_column_int64(row.statement, row.next())) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    guard T.self == Date.self else { throw FloorFailure() }
    return unsafeBitCast(Date(timeIntervalSince1970: sqlite3_column_double(row.statement, row.next())), to: T.self)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw FloorFailure() }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw FloorFailure() }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw FloorFailure() }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw FloorFailure() }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw FloorFailure() }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw FloorFailure() }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw FloorFailure() }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw FloorFailure() }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw FloorFailure() }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw FloorFailure() }
  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  { throw FloorFailure() }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FloorFailure() }
  func superDecoder() throws -> any Decoder { throw FloorFailure() }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw FloorFailure() }
}

/// Every row of `statement` decoded as `type` through `FloorDecoder`. Not inlined, so `T` is
/// as unknown here as in a library's `fetch` (the optimizer may still specialize it).
@inline(never)
func floorFetch<T: Decodable>(_ statement: OpaquePointer, as type: T.Type) -> [T] {
  sqlite3_reset(statement)
  let row = FloorRow(statement)
  defer { row.container = nil }
  var out: [T] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    row.column.pointee = 0
    guard let value = try? T(from: FloorDecoder(row: row)) else { return [] }
    out.append(value)
  }
  return out
}

/// The least any `Encoder` can do: one keyed container, made once and reused, that drops
/// every value. Encoding through it measures what `Encodable` itself costs per record, the
/// floor under `fetch(from:)`.
struct FloorEncoder: Encoder {
  var cache: FloorEncodingCache? = nil
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    guard let cache else { return KeyedEncodingContainer(FloorEncodingContainer<Key>()) }
    // One Key type per run here (Note's), so the cached container is of this Key.
    if let made = cache.container { return unsafeDowncast(made, to: FloorEncodingBox<Key>.self).container }
    let made = FloorEncodingBox(KeyedEncodingContainer(FloorEncodingContainer<Key>()))
    cache.container = made
    return made.container
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer { FloorUnkeyed() }
  func singleValueContainer() -> any SingleValueEncodingContainer { FloorSingle() }
}

final class FloorEncodingCache { var container: AnyObject? }

final class FloorEncodingBox<Key: CodingKey> {
  let container: KeyedEncodingContainer<Key>
  init(_ container: KeyedEncodingContainer<Key>) { self.container = container }
}

struct FloorEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode(_ value: Bool, forKey key: Key) throws {}
  mutating func encode(_ value: String, forKey key: Key) throws {}
  mutating func encode(_ value: Double, forKey key: Key) throws {}
  mutating func encode(_ value: Int, forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  { KeyedEncodingContainer(FloorEncodingContainer<NestedKey>()) }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FloorUnkeyed() }
  mutating func superEncoder() -> any Encoder { FloorEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { FloorEncoder() }
}

struct FloorUnkeyed: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }
  mutating func encodeNil() throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > {
    KeyedEncodingContainer(FloorEncodingContainer<NestedKey>())
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { FloorUnkeyed() }
  mutating func superEncoder() -> any Encoder { FloorEncoder() }
}

struct FloorSingle: SingleValueEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  mutating func encodeNil() throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}
}

/// Every value of `values` encoded through `FloorEncoder`; returns how many encoded.
@inline(never)
func floorEncode<T: Encodable>(_ values: [T]) -> Int {
  var n = 0
  let encoder = FloorEncoder(cache: FloorEncodingCache())
  for v in values where (try? v.encode(to: encoder)) != nil { n += 1 }
  return n
}
