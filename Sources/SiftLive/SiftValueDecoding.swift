import Foundation
import SiftSyntax

/// Reads a `Decodable` type out of a `SiftValue` tree (a live record): a dictionary is a keyed
/// container, an array an unkeyed one, `.date` a `Date`, `.data` `Data`, a string a `UUID` or
/// `URL` too, `.null` or a missing key nil. Numbers convert when the value fits the type
/// exactly (`1.0` reads as `Int` 1, `1.5` does not); `.bool` reads from 0/1 as SQLite stores it.
/// Failures are `SiftError` (stage `.decode`) naming the record and the key.
package enum SiftValueDecoding {
  /// `value` decoded as `type`; `record` names it in errors ("record 7"), `keys` maps stored
  /// names to coding keys (`updated_at` fills `updatedAt` with `.snakeCase`).
  package static func decode<T: Decodable>(
    _ type: T.Type, from value: SiftValue, record: String, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) -> T {
    let decoder = ValueDecoder(value: renamed(value, keys), path: [], record: record)
    do { return try T(from: decoder) } catch let e as SiftError { throw e } catch {
      throw SiftError(
        stage: .decode, id: .decodeFailed, message: "\(record): \(describe(error))", underlying: error)
    }
  }

  static func renamed(_ value: SiftValue, _ keys: SiftKeyStrategy) -> SiftValue {
    if case .exact = keys { return value }
    guard case .dictionary(let d) = value else { return value }
    var out: [String: SiftValue] = [:]
    for (k, v) in d { out[keys.swiftName(k)] = v }
    return .dictionary(out)
  }

  static func describe(_ error: any Error) -> String {
    guard let e = error as? DecodingError else { return "\(error)" }
    switch e {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
      return c.debugDescription
    @unknown default: return "\(e)"
    }
  }
}

private struct ValueKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}

private struct ValueDecoder: Decoder {
  let value: SiftValue
  let path: [any CodingKey]
  let record: String
  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func failure(_ expected: String) -> SiftError {
    let key = path.map(\.stringValue).joined(separator: ".")
    return SiftError(
      stage: .decode, id: .decodeMismatch,
      message: "\(record): key '\(key)': expected \(expected), found \(SiftJSON.serialize(value))")
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let d) = value else { throw failure("a keyed record") }
    return KeyedDecodingContainer(ValueKeyed<Key>(fields: d, decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let a) = value else { throw failure("an array") }
    return ValueUnkeyed(items: a, decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { ValueSingle(decoder: self) }

  func child(_ v: SiftValue, _ key: any CodingKey) -> ValueDecoder {
    ValueDecoder(value: v, path: path + [key], record: record)
  }

  func decodeNil() -> Bool { value == .null }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    switch type {
    case is Date.Type:
      if case .date(let d) = value, let t = d as? T { return t }
      throw failure("a date")
    case is Data.Type:
      if case .data(let d) = value, let t = d as? T { return t }
      throw failure("data")
    case is UUID.Type:
      if case .string(let s) = value, let t = UUID(uuidString: s) as? T { return t }
      throw failure("a UUID")
    case is URL.Type:
      if case .string(let s) = value, let t = URL(string: s) as? T { return t }
      throw failure("a URL")
    default:
      return try T(from: self)
    }
  }

  func bool() throws -> Bool {
    switch value {
    case .bool(let b): return b
    case .int(0): return false
    case .int(1): return true
    default: throw failure("a Bool")
    }
  }

  func string() throws -> String {
    guard case .string(let s) = value else { throw failure("a String") }
    return s
  }

  func double() throws -> Double {
    switch value {
    case .double(let d): return d
    case .int(let i): return Double(i)
    default: throw failure("a number")
    }
  }

  func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    switch value {
    case .int(let i): if let v = I(exactly: i) { return v }
    case .double(let d): if let v = I(exactly: d) { return v }
    case .bool(let b): return b ? 1 : 0
    default: break
    }
    throw failure("\(I.self)")
  }
}

private struct ValueKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let fields: [String: SiftValue]
  let decoder: ValueDecoder
  var codingPath: [any CodingKey] { decoder.path }
  var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

  func child(_ key: Key) throws -> ValueDecoder {
    guard let v = fields[key.stringValue] else {
      let path = (decoder.path + [key]).map(\.stringValue).joined(separator: ".")
      throw SiftError(
        stage: .decode, id: .decodeMissingKey,
        message: "\(decoder.record): no value for key '\(path)' (keys: \(fields.keys.sorted().joined(separator: ", ")))"
      )
    }
    return decoder.child(v, key)
  }

  func decodeNil(forKey key: Key) throws -> Bool { (fields[key.stringValue] ?? .null) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).bool() }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).string() }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).double() }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try child(key).double()) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).integer(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).integer(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).integer(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).integer(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).integer(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).integer(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).integer(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).integer(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).integer(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).integer(type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try child(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { decoder }
  func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct ValueUnkeyed: UnkeyedDecodingContainer {
  let items: [SiftValue]
  let decoder: ValueDecoder
  var currentIndex = 0
  var codingPath: [any CodingKey] { decoder.path }
  var count: Int? { items.count }
  var isAtEnd: Bool { currentIndex >= items.count }

  init(items: [SiftValue], decoder: ValueDecoder) {
    self.items = items
    self.decoder = decoder
  }

  mutating func next() throws -> ValueDecoder {
    guard !isAtEnd else { throw decoder.failure("more than \(items.count) elements") }
    defer { currentIndex += 1 }
    return decoder.child(items[currentIndex], ValueKey(intValue: currentIndex))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, items[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }
  mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
  mutating func decode(_ type: String.Type) throws -> String { try next().string() }
  mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
  mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
  mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct ValueSingle: SingleValueDecodingContainer {
  let decoder: ValueDecoder
  var codingPath: [any CodingKey] { decoder.path }
  func decodeNil() -> Bool { decoder.decodeNil() }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
  func decode(_ type: String.Type) throws -> String { try decoder.string() }
  func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
  func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
