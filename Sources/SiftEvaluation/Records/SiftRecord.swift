import SiftSyntax

/// Anything a predicate can be evaluated against: it answers keys, like KVC's `value(forKey:)`.
///
/// Conform your own type by answering keys; nested values are `SiftValue`s (dictionaries
/// answer further keys, arrays map key paths over their elements):
///
/// ```swift
/// struct Row: SiftRecord {
///   var fields: [String: SiftValue]
///   func value(forKey key: String) -> SiftValue? { fields[key] }
/// }
/// let m = try SiftPredicate(format: "city == 'Paris'").compile()
/// try m.matches(Row(fields: ["city": "Paris"]))   // true
/// ```
///
/// Sift's own conformances: `SiftValue` (dictionaries answer keys), `[String: SiftValue]`,
/// and `SiftObject`, the fast layout `JSONRecords` and `SiftRecordEncoder` produce.
/// A missing key (`nil`) and a stored `.null` behave the same.
public protocol SiftRecord {
  /// The value stored under `key`, or nil when there is none.
  ///
  /// ```swift
  /// SiftValue.dictionary(["a": 1]).value(forKey: "a")   // .int(1)
  /// ```
  func value(forKey key: String) -> SiftValue?

  /// Fast path for a whole key path of plain keys (`location.city` as `["location", "city"]`).
  /// The default walks `value(forKey:)` and then nested dictionaries (mapping over arrays).
  ///
  /// ```swift
  /// record.value(forKeyPath: ["location", "city"])
  /// ```
  func value(forKeyPath keys: [String]) -> SiftValue?

  /// How the evaluator sees this record. The default wraps `self`; Sift's own record types
  /// return their storage directly so that no boxing happens per record.
  ///
  /// ```swift
  /// let root = record.siftRecordRoot   // rarely needed by users
  /// ```
  var siftRecordRoot: SiftRecordRoot { get }
}

extension SiftRecord {
  /// Walks `keys` with `value(forKey:)`, then through nested dictionaries and arrays.
  ///
  /// ```swift
  /// ["location": ["city": "Oslo"]].value(forKeyPath: ["location", "city"])   // "Oslo"
  /// ```
  public func value(forKeyPath keys: [String]) -> SiftValue? {
    guard let first = keys.first else { return nil }
    guard var current = value(forKey: first) else { return nil }
    for key in keys.dropFirst() {
      current = KeyPathWalker.step(current, key, depth: EvalLimits.maxDataDepth)
    }
    return current
  }

  /// Wraps `self` (one existential box per record; Sift's own types avoid it).
  public var siftRecordRoot: SiftRecordRoot { SiftRecordRoot(.record(RecordBox(self))) }
}

/// The evaluator's view of one record, produced by `SiftRecord.siftRecordRoot`.
///
/// ```swift
/// let root = SiftValue.dictionary(["a": 1]).siftRecordRoot
/// ```
public struct SiftRecordRoot {
  @usableFromInline let value: EvalValue
  @usableFromInline init(_ value: EvalValue) { self.value = value }
}

/// Key lookups on plain `SiftValue`s (used by the default `value(forKeyPath:)`).
enum KeyPathWalker {
  /// `value.key`: a dictionary answers the key, an array maps the key over its elements,
  /// `self` is identity, anything else has no keys (nil).
  static func step(_ value: SiftValue, _ key: String, depth: Int) -> SiftValue {
    if key == "self" { return value }
    switch value {
    case .dictionary(let d): return d[key] ?? .null
    case .array(let items):
      guard depth > 0 else { return .null }
      return .array(items.map { step($0, key, depth: depth - 1) })
    default: return .null
    }
  }
}

extension SiftValue: SiftRecord {
  /// A dictionary answers its keys; other values answer none.
  ///
  /// ```swift
  /// SiftValue.dictionary(["n": 1]).value(forKey: "n")   // .int(1)
  /// ```
  public func value(forKey key: String) -> SiftValue? {
    if case .dictionary(let d) = self { return d[key] }
    return nil
  }

  /// The value itself, without boxing.
  public var siftRecordRoot: SiftRecordRoot { SiftRecordRoot(EvalValue(self)) }
}

extension Dictionary: SiftRecord where Key == String, Value == SiftValue {
  /// The dictionary's entry for `key`.
  ///
  /// ```swift
  /// (["n": 1] as [String: SiftValue]).value(forKey: "n")   // .int(1)
  /// ```
  public func value(forKey key: String) -> SiftValue? { self[key] }

  /// The dictionary itself, without boxing.
  public var siftRecordRoot: SiftRecordRoot { SiftRecordRoot(.dict(self)) }
}
