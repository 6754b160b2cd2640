import Foundation
import SiftSyntax

/// A constant list prepared for membership (`x IN {…}`, and a run of `x == c1 OR x == c2 …`
/// merged into one): strings and numbers hashed, so a test costs one lookup instead of a scan
/// of the list. Equality is exactly `ValueComparison.equal` under the comparison's `TextRule`:
/// strings by their (folded) UTF-8 bytes, numbers by value (booleans 1 and 0, `2.0 == 2`),
/// nil equal to nil; other kinds (dates, data, collections) are compared one by one.
package struct ConstantSet: Sendable {
  /// Lists shorter than this are scanned as they are (SiftColumnar's kernels too: an OR of
  /// equality kernels below it, one set lookup a row from it).
  package static let minimumCount = 16

  let rule: TextRule
  let strings: Set<ByteKey>
  let integers: Set<Int64>
  /// Bit patterns of the non-integral, non-NaN doubles.
  let doubles: Set<UInt64>
  let hasNull: Bool
  /// The elements of other kinds.
  let others: [EvalValue]

  init(_ list: EvalList, rule: TextRule) {
    self.rule = rule
    var strings: Set<ByteKey> = []
    var integers: Set<Int64> = []
    var doubles: Set<UInt64> = []
    var hasNull = false
    var others: [EvalValue] = []
    for i in 0..<list.count {
      let v = list[i]
      switch v {
      case .null: hasNull = true
      case .string(let s): strings.insert(ByteKey(rule.folds ? TextFolding.fold(s, rule.options) : s))
      default:
        switch ConstantSet.numberKey(v) {
        case .integer(let n)?: integers.insert(n)
        case .double(let bits)?: doubles.insert(bits)
        case .nan?: break  // equal to nothing
        case nil: others.append(v)
        }
      }
    }
    self.strings = strings
    self.integers = integers
    self.doubles = doubles
    self.hasNull = hasNull
    self.others = others
  }

  enum NumberKey {
    case integer(Int64)
    case double(UInt64)
    case nan
  }

  /// The hash key of a number: integral values (within Int64) as integers, so `2.0` meets `2`.
  static func numberKey(_ v: EvalValue) -> NumberKey? {
    switch v.number {
    case .int(let i)?: return .integer(i)
    case .double(let d)?:
      if d.isNaN { return .nan }
      if d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 { return .integer(Int64(d)) }
      return .double(d.bitPattern)
    case nil: return nil
    }
  }

  /// Is `needle` equal to an element?
  func contains(_ needle: EvalValue) -> Bool {
    switch needle {
    case .null: return hasNull
    case .string(let s):
      return strings.contains(ByteKey(rule.folds ? TextFolding.fold(s, rule.options) : s))
    default:
      switch ConstantSet.numberKey(needle) {
      case .integer(let n)?: return integers.contains(n)
      case .double(let bits)?: return doubles.contains(bits)
      case .nan?: return false
      case nil: return others.contains { ValueComparison.equal(needle, $0, rule) }
      }
    }
  }
}

/// A string hashed and compared by its UTF-8 bytes (Swift's `String` equality is canonical
/// equivalence, which Sift's string equality is not).
struct ByteKey: Hashable, Sendable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (a: ByteKey, b: ByteKey) -> Bool { Bytes.equal(a.text, b.text) }

  func hash(into hasher: inout Hasher) {
    Bytes.with(text) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
