import Foundation

/// A Swift type that stands for a `SiftValue`: what format arguments (`%@`), builders,
/// substitution variables and fetch templates accept besides `SiftValue` itself.
///
/// Sift conforms `String`, `Substring`, `Character`, every integer width, `Double`, `Float`,
/// `Decimal`, `Bool`, `Date`, `Data`, `UUID`, `URL`, arrays, sets and `[String: …]`
/// dictionaries of these, and optionals (`nil` is `.null`). Conform your own types by giving
/// their value; a `RawRepresentable` enum needs no conformance (its raw value is used), or
/// declares an empty one to be checked at compile time:
///
/// ```swift
/// struct Money: SiftValueConvertible {
///   var cents: Int
///   var siftValue: SiftValue { .double(Double(cents) / 100) }
/// }
/// enum Status: String, SiftValueConvertible { case open, done }
/// let p = try SiftPredicate(format: "price < %@ AND status == %@", Money(cents: 250), Status.open)
/// ```
public protocol SiftValueConvertible {
  /// The value Sift compares, prints and binds for this Swift value.
  var siftValue: SiftValue { get }
}

extension SiftValueConvertible where Self: RawRepresentable, RawValue: SiftValueConvertible {
  /// The raw value's `SiftValue`.
  public var siftValue: SiftValue { rawValue.siftValue }
}

extension SiftValue: SiftValueConvertible {
  /// The value itself.
  public var siftValue: SiftValue { self }

  /// Wraps any convertible Swift value.
  ///
  /// ```swift
  /// let title = "Buy milk"
  /// SiftValue(title)             // .string("Buy milk")
  /// SiftValue(["a", "b"])        // .array([.string("a"), .string("b")])
  /// SiftValue(Optional<Int>.none) // .null
  /// ```
  public init<T: SiftValueConvertible>(_ value: T) { self = value.siftValue }

  /// Converts a value whose type is only known at run time: a `SiftValueConvertible`, a
  /// `RawRepresentable` (its raw value), `nil`/`NSNull`, or an array, set or `[String: …]`
  /// dictionary of these. Nil when some part has no `SiftValue` (the caller names the
  /// argument).
  ///
  /// ```swift
  /// enum Status: String { case open }
  /// SiftValue(converting: Status.open)   // .string("open")
  /// SiftValue(converting: Date.self)     // nil
  /// ```
  public init?(converting value: Any?) {
    guard let converted = SiftValue.convert(value, depth: 0) else { return nil }
    self = converted
  }

  /// The name of a run-time value's type, for messages ("Foo", "Optional<Foo>").
  package static func typeName(of value: Any?) -> String {
    guard let value else { return "nil" }
    return String(describing: type(of: value))
  }

  private static func convert(_ value: Any?, depth: Int) -> SiftValue? {
    // Nested containers deeper than any data Sift reads are refused rather than recursed.
    guard depth < 256 else { return nil }
    guard let value else { return .null }
    if let v = value as? any SiftValueConvertible { return v.siftValue }
    if let o = value as? any OptionalUnwrapping { return convert(o.unwrapped, depth: depth + 1) }
    if let r = value as? any RawRepresentable { return convert(r.rawValue, depth: depth + 1) }
    if value is NSNull { return .null }
    if let d = value as? [String: Any] {
      var out: [String: SiftValue] = [:]
      for (k, v) in d {
        guard let c = convert(v, depth: depth + 1) else { return nil }
        out[k] = c
      }
      return .dictionary(out)
    }
    if let a = value as? [Any] { return convertAll(a, depth: depth) }
    if let s = value as? any Collection, !(value is String) {
      return convertAll(s.map { $0 as Any }, depth: depth)
    }
    return nil
  }

  private static func convertAll(_ items: [Any], depth: Int) -> SiftValue? {
    var out: [SiftValue] = []
    out.reserveCapacity(items.count)
    for item in items {
      guard let c = convert(item, depth: depth + 1) else { return nil }
      out.append(c)
    }
    return .array(out)
  }
}

/// Lets run-time conversion see through an optional whose wrapped type is not convertible
/// itself (`Status?` where `Status` is a plain `RawRepresentable`).
private protocol OptionalUnwrapping {
  var unwrapped: Any? { get }
}

extension Optional: OptionalUnwrapping {
  fileprivate var unwrapped: Any? {
    switch self {
    case .some(let w): return w
    case .none: return nil
    }
  }
}

extension String: SiftValueConvertible {
  /// `.string(self)`.
  public var siftValue: SiftValue { .string(self) }
}

extension Substring: SiftValueConvertible {
  /// `.string(String(self))`.
  public var siftValue: SiftValue { .string(String(self)) }
}

extension Character: SiftValueConvertible {
  /// A one-character string.
  public var siftValue: SiftValue { .string(String(self)) }
}

extension Bool: SiftValueConvertible {
  /// `.bool(self)`.
  public var siftValue: SiftValue { .bool(self) }
}

extension Int: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension Int8: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension Int16: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension Int32: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension Int64: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(self) }
}
extension UInt8: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension UInt16: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension UInt32: SiftValueConvertible {
  /// `.int(self)`.
  public var siftValue: SiftValue { .int(Int64(self)) }
}
extension UInt: SiftValueConvertible {
  /// `.int(self)`; above `Int64.max` a double, as an integer literal that large is.
  public var siftValue: SiftValue { UInt64(self).siftValue }
}
extension UInt64: SiftValueConvertible {
  /// `.int(self)`; above `Int64.max` a double, as an integer literal that large is.
  public var siftValue: SiftValue {
    if let exact = Int64(exactly: self) { return .int(exact) }
    return .double(Double(self))
  }
}

extension Double: SiftValueConvertible {
  /// `.double(self)`.
  public var siftValue: SiftValue { .double(self) }
}

extension Float: SiftValueConvertible {
  /// The double with the same shortest decimal form (`Float(0.1)` is `0.1`, not
  /// `0.10000000149011612`), so it compares as the number the user wrote.
  public var siftValue: SiftValue {
    guard isFinite, let d = Double(description) else { return .double(Double(self)) }
    return .double(d)
  }
}

extension Decimal: SiftValueConvertible {
  /// An integer when the decimal is whole and fits 64 bits, else the nearest double.
  public var siftValue: SiftValue {
    if isNaN { return .double(.nan) }
    let d = NSDecimalNumber(decimal: self)
    var rounded = Decimal()
    var copy = self
    NSDecimalRound(&rounded, &copy, 0, .plain)
    if rounded == self, let i = Int64(exactly: d.doubleValue), Decimal(i) == self { return .int(i) }
    return .double(Double(description) ?? d.doubleValue)
  }
}

extension Date: SiftValueConvertible {
  /// `.date(self)`.
  public var siftValue: SiftValue { .date(self) }
}

extension Data: SiftValueConvertible {
  /// `.data(self)`.
  public var siftValue: SiftValue { .data(self) }
}

extension UUID: SiftValueConvertible {
  /// The canonical text (`uuidString`, upper case), as `JSONEncoder` writes a UUID; a
  /// database column that stores UUIDs as 16-byte blobs gets the blob through its column's
  /// encoding.
  public var siftValue: SiftValue { .string(uuidString) }
}

extension URL: SiftValueConvertible {
  /// The absolute string, as `JSONEncoder` writes a URL.
  public var siftValue: SiftValue { .string(absoluteString) }
}

extension Optional: SiftValueConvertible where Wrapped: SiftValueConvertible {
  /// The wrapped value's, or `.null` for nil.
  public var siftValue: SiftValue {
    switch self {
    case .some(let w): return w.siftValue
    case .none: return .null
    }
  }
}

extension Array: SiftValueConvertible where Element: SiftValueConvertible {
  /// `.array` of the elements' values.
  public var siftValue: SiftValue { .array(map(\.siftValue)) }
}

extension ArraySlice: SiftValueConvertible where Element: SiftValueConvertible {
  /// `.array` of the elements' values.
  public var siftValue: SiftValue { .array(map(\.siftValue)) }
}

extension Set: SiftValueConvertible where Element: SiftValueConvertible {
  /// `.array` of the elements' values (a set's order is unspecified; `IN` and `ANY` do not
  /// depend on it).
  public var siftValue: SiftValue { .array(map(\.siftValue)) }
}

extension Dictionary: SiftValueConvertible where Key == String, Value: SiftValueConvertible {
  /// `.dictionary` of the values' values.
  public var siftValue: SiftValue { .dictionary(mapValues(\.siftValue)) }
}
