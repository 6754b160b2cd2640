import Foundation

/// A dynamically typed value: a constant in a predicate, a format argument, a variable's value,
/// or a field of a record.
///
/// The cases mirror what Foundation objects an `NSPredicate` meets: `NSNull`, `NSNumber`
/// (booleans, integers, doubles), `NSString`, `NSDate`, `NSData`, `NSArray`, `NSDictionary`.
/// Integers stay 64-bit integers so that large values compare exactly.
///
/// ```swift
/// let args: [SiftValue] = ["priceCategory", 3, 2.5, true, nil, [1, 2], ["k": "v"]]
/// let when = SiftValue(Date())
/// ```
public enum SiftValue: Sendable, Hashable {
  /// `nil`, `NULL`, JSON `null`, or a missing key.
  case null
  /// `YES`/`NO`, `TRUE`/`FALSE`. Compares as the numbers 1 and 0.
  case bool(Bool)
  /// A 64-bit signed integer.
  case int(Int64)
  /// A double-precision number.
  case double(Double)
  /// A Unicode string.
  case string(String)
  /// A point in time.
  case date(Date)
  /// Raw bytes.
  case data(Data)
  /// An ordered collection (`NSArray`, an aggregate literal `{1, 2}`).
  case array([SiftValue])
  /// A keyed collection (`NSDictionary`, a nested record).
  case dictionary([String: SiftValue])
}

extension SiftValue {
  /// The name of the value's kind, as used in diagnostics ("string", "integer", …).
  ///
  /// ```swift
  /// SiftValue.int(1).kindName   // "integer"
  /// ```
  public var kindName: String {
    switch self {
    case .null: return "nil"
    case .bool: return "boolean"
    case .int: return "integer"
    case .double: return "double"
    case .string: return "string"
    case .date: return "date"
    case .data: return "data"
    case .array: return "array"
    case .dictionary: return "dictionary"
    }
  }

  /// True for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The string payload, if this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}

extension SiftValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `"text"` as a value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// `42` as a value.
  public init(integerLiteral value: Int64) { self = .int(value) }
  /// `2.5` as a value.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// `true` as a value.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// `nil` as a value.
  public init(nilLiteral: ()) { self = .null }
  /// `[1, "a"]` as a value.
  public init(arrayLiteral elements: SiftValue...) { self = .array(elements) }
  /// `["k": 1]` as a value; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, SiftValue)...) {
    var d: [String: SiftValue] = [:]
    for (k, v) in elements { d[k] = v }
    self = .dictionary(d)
  }
}
