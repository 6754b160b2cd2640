import Foundation
import SiftSyntax

/// Turns any `Encodable` value into a `SiftValue` (or a fast `SiftObject` record), so your own
/// structs can be filtered without adapters. `Date` becomes `.date`, `Data` `.data`, `URL` its
/// string, nested structs dictionaries, arrays arrays; an optional that is nil is left out
/// (a missing key, which compares like nil). Unsigned integers above `Int64.max` become doubles.
///
/// ```swift
/// struct Venue: Encodable { var name: String; var tags: [String]; var opened: Date? }
/// let rows = try SiftRecordEncoder.records([Venue(name: "Red bar", tags: ["wifi"], opened: nil)])
/// let m = try SiftPredicate(format: "ANY tags == 'wifi' AND opened == nil").compile()
/// try m.filter(rows).count   // 1
/// ```
public enum SiftRecordEncoder {
  /// Why a value could not be encoded (inside the module; callers get a `SiftError`).
  struct EncodingFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    var message: String
    /// The message.
    var description: String { message }
  }

  /// A failure while encoding values of `type` as Sift's one error type (stage `.data`, id
  /// `not-encodable`); an error the value's own `encode(to:)` threw is kept as `underlying`.
  static func failure(_ error: any Error, encoding type: Any.Type) -> SiftError {
    if let e = error as? SiftError { return e }
    let message = (error as? EncodingFailure)?.message ?? "\(type) failed to encode: \(error)"
    return DataDiagnostics.notEncodable(message, error)
  }

  /// Nesting deeper than this is refused (protects against self-referencing class graphs).
  public static let maxDepth = 256

  /// Encodes `value` as a `SiftValue`.
  ///
  /// ```swift
  /// try SiftRecordEncoder.encode(["a": 1])   // .dictionary(["a": .int(1)])
  /// ```
  /// - Throws: `SiftError` (stage `.data`, id `not-encodable`).
  public static func encode<T: Encodable>(_ value: T) throws(SiftError) -> SiftValue {
    do { return try encoded(value) } catch { throw failure(error, encoding: T.self) }
  }

  static func encoded<T: Encodable>(_ value: T) throws -> SiftValue {
    let ref = EncodingRef()
    try ref.store(value, path: [], depth: 0)
    return ref.finish()
  }

  /// Encodes one value as a fast record; it must encode as a keyed container (a struct/class).
  ///
  /// ```swift
  /// let r = try SiftRecordEncoder.record(venue)
  /// ```
  public static func record<T: Encodable>(_ value: T) throws(SiftError) -> SiftObject {
    guard let o = SiftObject(value: try encode(value)) else {
      throw failure(EncodingFailure(message: "\(T.self) does not encode as a keyed record"), encoding: T.self)
    }
    return o
  }

  /// Encodes many values as fast records sharing key tables.
  ///
  /// ```swift
  /// let rows = try SiftRecordEncoder.records(venues)
  /// ```
  public static func records<S: Sequence>(_ values: S) throws(SiftError) -> [SiftObject] where S.Element: Encodable {
    var items: [SiftValue] = []
    for v in values { items.append(try encode(v)) }
    do {
      return try JSONRecords.records(from: .array(items))
    } catch {
      throw failure(
        EncodingFailure(message: "\(S.Element.self) does not encode as keyed records"), encoding: S.Element.self)
    }
  }
}

/// One encoded value under construction.
final class EncodingRef {
  enum Content {
    case unset
    case single(SiftValue)
    case keyed(KeyedStore)
    case unkeyed(UnkeyedStore)
  }
  var content: Content = .unset

  func finish() -> SiftValue {
    switch content {
    case .unset: return .dictionary([:])
    case .single(let v): return v
    case .keyed(let s):
      var d: [String: SiftValue] = [:]
      for (k, r) in s.entries { d[k] = r.finish() }
      return .dictionary(d)
    case .unkeyed(let s): return .array(s.items.map { $0.finish() })
    }
  }

  func store<T: Encodable>(_ value: T, path: [any CodingKey], depth: Int) throws {
    if depth > SiftRecordEncoder.maxDepth {
      throw SiftRecordEncoder.EncodingFailure(message: "value nests deeper than \(SiftRecordEncoder.maxDepth) levels")
    }
    switch value {
    case let d as Date: content = .single(.date(d))
    case let d as Data: content = .single(.data(d))
    case let u as URL: content = .single(.string(u.absoluteString))
    case let d as Decimal: content = .single(.double(NSDecimalNumber(decimal: d).doubleValue))
    case let v as SiftValue: content = .single(v)
    default: try value.encode(to: SiftValueEncoder(ref: self, codingPath: path, depth: depth + 1))
    }
  }
}

final class KeyedStore { var entries: [String: EncodingRef] = [:] }
final class UnkeyedStore { var items: [EncodingRef] = [] }

struct SiftValueEncoder: Encoder, SingleValueEncodingContainer {
  let ref: EncodingRef
  let codingPath: [any CodingKey]
  let depth: Int
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let store: KeyedStore
    if case .keyed(let s) = ref.content {
      store = s
    } else {
      store = KeyedStore()
      ref.content = .keyed(store)
    }
    return KeyedEncodingContainer(KeyedSiftContainer<Key>(store: store, codingPath: codingPath, depth: depth))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let store: UnkeyedStore
    if case .unkeyed(let s) = ref.content {
      store = s
    } else {
      store = UnkeyedStore()
      ref.content = .unkeyed(store)
    }
    return UnkeyedSiftContainer(store: store, codingPath: codingPath, depth: depth)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { ref.content = .single(.null) }
  func encode(_ value: Bool) throws { ref.content = .single(.bool(value)) }
  func encode(_ value: String) throws { ref.content = .single(.string(value)) }
  func encode(_ value: Double) throws { ref.content = .single(.double(value)) }
  func encode(_ value: Float) throws { ref.content = .single(.double(Double(value))) }
  func encode(_ value: Int) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: Int8) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: Int16) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: Int32) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: Int64) throws { ref.content = .single(.int(value)) }
  func encode(_ value: UInt) throws { ref.content = .single(SiftValueEncoder.unsigned(UInt64(value))) }
  func encode(_ value: UInt8) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: UInt16) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: UInt32) throws { ref.content = .single(.int(Int64(value))) }
  func encode(_ value: UInt64) throws { ref.content = .single(SiftValueEncoder.unsigned(value)) }
  func encode<T: Encodable>(_ value: T) throws { try ref.store(value, path: codingPath, depth: depth) }

  static func unsigned(_ v: UInt64) -> SiftValue {
    if let i = Int64(exactly: v) { return .int(i) }
    return .double(Double(v))
  }
}

struct KeyedSiftContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let store: KeyedStore
  let codingPath: [any CodingKey]
  let depth: Int

  private func child(_ key: Key) -> EncodingRef {
    let r = EncodingRef()
    store.entries[key.stringValue] = r
    return r
  }
  private func put(_ v: SiftValue, _ key: Key) { child(key).content = .single(v) }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(SiftValueEncoder.unsigned(value), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try child(key).store(value, path: codingPath + [key], depth: depth)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    SiftValueEncoder(ref: child(key), codingPath: codingPath + [key], depth: depth + 1)
      .container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    SiftValueEncoder(ref: child(key), codingPath: codingPath + [key], depth: depth + 1).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder {
    SiftValueEncoder(ref: EncodingRef(), codingPath: codingPath, depth: depth + 1)
  }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    SiftValueEncoder(ref: child(key), codingPath: codingPath + [key], depth: depth + 1)
  }
}

struct UnkeyedSiftContainer: UnkeyedEncodingContainer {
  let store: UnkeyedStore
  let codingPath: [any CodingKey]
  let depth: Int
  var count: Int { store.items.count }

  private func next() -> EncodingRef {
    let r = EncodingRef()
    store.items.append(r)
    return r
  }

  mutating func encodeNil() throws { next().content = .single(.null) }
  mutating func encode(_ value: Bool) throws { next().content = .single(.bool(value)) }
  mutating func encode(_ value: String) throws { next().content = .single(.string(value)) }
  mutating func encode(_ value: Double) throws { next().content = .single(.double(value)) }
  mutating func encode(_ value: Int) throws { next().content = .single(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { next().content = .single(.int(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try next().store(value, path: codingPath, depth: depth)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    SiftValueEncoder(ref: next(), codingPath: codingPath, depth: depth + 1).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    SiftValueEncoder(ref: next(), codingPath: codingPath, depth: depth + 1).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder {
    SiftValueEncoder(ref: next(), codingPath: codingPath, depth: depth + 1)
  }
}
