import Foundation
import SiftSyntax

/// A value of `Root` where it lies in memory: an element of the caller's array, seen through
/// `withUnsafeBufferPointer` for the length of one fetch (`Array.withTypedElements`). Typed
/// tests and readers take this rather than a `Root` so that they need not be generic: a closure
/// generic over the caller's type, compiled here unspecialized, copies each value through its
/// value witness and looks up generic metadata on every key-path read (`perf`, `--suite typed`:
/// `swift_getGenericMetadata` the top symbol, 27-30x a hand-written `filter` + `sorted`).
///
/// A stored property held inline (`MemoryLayout<Root>.offset(of:)` is not nil: any stored
/// property of a struct, never a class's or a computed one) is loaded at that byte offset from
/// the element, as the standard library documents for the offset, by a closure generic over
/// the property's type only, which the call sites name (`TypedLoad`), so it is specialized.
/// The measured reason: `--suite typed` (figures in Benchmarks.md). Any other key path is
/// applied to the element, generic and slow, with the same answers.
typealias TypedElement = UnsafeRawPointer

/// Reads at a byte offset of an element, not generic over the element's type.
enum TypedLoad {
  /// The property at `offset`, converted by `convert`.
  @inline(never)
  static func value<Value>(
    _ offset: Int, _ convert: @escaping (Value) -> SiftValue
  ) -> (TypedElement) -> SiftValue {
    { convert(($0 + offset).assumingMemoryBound(to: Value.self).pointee) }
  }

  /// The property of `Root` at `keyPath`, applied to the element (no offset), converted.
  @inline(never)
  static func value<Root, Value>(
    _ keyPath: KeyPath<Root, Value>, _ convert: @escaping (Value) -> SiftValue
  ) -> (TypedElement) -> SiftValue {
    { convert($0.assumingMemoryBound(to: Root.self).pointee[keyPath: keyPath]) }
  }
}

/// How each attribute of a converted request is read from an element as Sift's value, as
/// `SiftRecordEncoder` would encode it: the common scalar types directly, any other
/// `SiftValueConvertible` or raw-value enum through `SiftValue(converting:)`.
enum TypedReaders {
  /// A closure reading `keyPath` of `Root` as a `SiftValue`; nil when the key path does not
  /// start from `Root` or its value has no `SiftValue` (a struct, an array of them).
  static func reader<Root>(_ keyPath: AnyKeyPath, _ root: Root.Type) -> ((TypedElement) -> SiftValue)? {
    func open<Value>(_ type: Value.Type) -> ((TypedElement) -> SiftValue)? {
      guard let k = keyPath as? KeyPath<Root, Value> else { return nil }
      return reader(k)
    }
    return _openExistential(Swift.type(of: keyPath).valueType, do: open)
  }

  static func reader<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> ((TypedElement) -> SiftValue)? {
    let o = MemoryLayout<Root>.offset(of: keyPath)
    // Each case names its value type, so that `TypedLoad.value` is specialized for it.
    switch keyPath {
    case let k as KeyPath<Root, String>:
      return o.map { TypedLoad.value($0, SiftValue.string) } ?? TypedLoad.value(k, SiftValue.string)
    case let k as KeyPath<Root, Int>:
      let f = { (v: Int) in SiftValue.int(Int64(v)) }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    case let k as KeyPath<Root, Double>:
      return o.map { TypedLoad.value($0, SiftValue.double) } ?? TypedLoad.value(k, SiftValue.double)
    case let k as KeyPath<Root, Bool>:
      return o.map { TypedLoad.value($0, SiftValue.bool) } ?? TypedLoad.value(k, SiftValue.bool)
    case let k as KeyPath<Root, Date>:
      return o.map { TypedLoad.value($0, SiftValue.date) } ?? TypedLoad.value(k, SiftValue.date)
    case let k as KeyPath<Root, String?>:
      let f = { (v: String?) in v.map(SiftValue.string) ?? .null }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    case let k as KeyPath<Root, Int?>:
      let f = { (v: Int?) in v.map { SiftValue.int(Int64($0)) } ?? .null }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    case let k as KeyPath<Root, Double?>:
      let f = { (v: Double?) in v.map(SiftValue.double) ?? .null }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    case let k as KeyPath<Root, Bool?>:
      let f = { (v: Bool?) in v.map(SiftValue.bool) ?? .null }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    case let k as KeyPath<Root, Date?>:
      let f = { (v: Date?) in v.map(SiftValue.date) ?? .null }
      return o.map { TypedLoad.value($0, f) } ?? TypedLoad.value(k, f)
    default:
      guard Value.self is any SiftValueConvertible.Type || Value.self is any RawRepresentable.Type else { return nil }
      return TypedLoad.value(keyPath) { SiftValue(converting: $0) ?? .null }
    }
  }
}

extension Array {
  /// `body` over the elements as `TypedElement`s (the array's storage, for the call only):
  /// the first element's address and the distance between two. Nil for an empty array.
  func withTypedElements<R>(
    _ body: (_ base: TypedElement, _ stride: Int) throws(SiftError) -> R
  ) throws(SiftError) -> R? {
    let stride = MemoryLayout<Element>.stride
    let result: Result<R?, SiftError> = withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return .success(nil) }
      do throws(SiftError) { return .success(try body(UnsafeRawPointer(base), stride)) } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

/// Sort keys read straight into a column of numbers (`SortColumn(numbers:_:)`), as
/// `SortColumn(_:_:)` would lay out the same values: `Int` (when every key is within 2^53),
/// `Double`, `Bool` as 0 or 1, `Date` as seconds since 1970. No `SiftValue` made per key.
enum TypedNumbers {
  /// Reads the keys of the elements at `positions`; nil when they do not make a column of
  /// numbers (a key path of another type, an `Int` beyond 2^53).
  typealias Column = (_ base: TypedElement, _ stride: Int, _ positions: [Int]) -> [Double]?

  static func column<Root>(_ keyPath: AnyKeyPath, _ root: Root.Type) -> Column? {
    switch keyPath {
    case let k as KeyPath<Root, Int>:
      guard let o = MemoryLayout<Root>.offset(of: k) else { return nil }
      return { base, stride, positions in
        var out: [Double] = []
        out.reserveCapacity(positions.count)
        for p in positions {
          let x = (base + p * stride + o).assumingMemoryBound(to: Int.self).pointee
          guard x.magnitude <= 1 << 53 else { return nil }
          out.append(Double(x))
        }
        return out
      }
    case let k as KeyPath<Root, Double>:
      guard let o = MemoryLayout<Root>.offset(of: k) else { return nil }
      return { base, stride, positions in
        positions.map { (base + $0 * stride + o).assumingMemoryBound(to: Double.self).pointee }
      }
    case let k as KeyPath<Root, Bool>:
      guard let o = MemoryLayout<Root>.offset(of: k) else { return nil }
      return { base, stride, positions in
        positions.map { (base + $0 * stride + o).assumingMemoryBound(to: Bool.self).pointee ? 1 : 0 }
      }
    case let k as KeyPath<Root, Date>:
      guard let o = MemoryLayout<Root>.offset(of: k) else { return nil }
      return { base, stride, positions in
        positions.map { (base + $0 * stride + o).assumingMemoryBound(to: Date.self).pointee.timeIntervalSince1970 }
      }
    default: return nil
    }
  }
}
