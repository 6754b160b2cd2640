/// The selectors of Foundation's value types that `FUNCTION(receiver, 'selector')` runs without
/// any registration, in memory and in SQL (Grammar/notes/evaluation.md, "FUNCTION").
///
/// Apple sends the selector to the receiver; Sift has no Objective-C runtime, so it reads each
/// selector as a tree of nodes both engines already run (`lowered(_:at:)`): the meaning lives
/// here once. None takes arguments. The receivers, and what each gives (nil gives nil):
///
/// - `uppercaseString`, `lowercaseString`: `uppercase:`/`lowercase:` of a string; else `not-a-string`.
/// - `length`: a string's UTF-16 code units (NSString's `length`); else `not-a-string`.
/// - `stringValue`, `description`: `CAST(x, "NSString")`: a string itself, a number in decimal,
///   a bool `"1"`/`"0"`, a date ISO 8601, an array JSON.
/// - `intValue`, `integerValue`, `longLongValue`: `trunc:` of `CAST(x, "NSNumber")`: the number a
///   string spells (nil if none), a number, a bool 1/0, a date's seconds since 2001.
/// - `doubleValue`, `floatValue`: the same number, as a double.
/// - `boolValue`: whether that number is not 0 (nil when there is none).
/// - `timeIntervalSinceReferenceDate`, `timeIntervalSince1970`: seconds of `CAST(x, "NSDate")`
///   (a date, a number of seconds since 2001, ISO-8601 text).
/// - `count`: `x.@count` of an array.
///
/// ```swift
/// SiftSelector(rawValue: "uppercaseString")?.lowered(.keyPath("name"), at: .at(0))
/// // uppercase:(name)
/// ```
public enum SiftSelector: String, Sendable, Hashable, CaseIterable {
  /// `NSString.uppercaseString`: `uppercase:(x)`.
  case uppercaseString
  /// `NSString.lowercaseString`: `lowercase:(x)`.
  case lowercaseString
  /// `NSString.length`: the number of UTF-16 code units (`"😀".length` is 2), as Apple.
  case length
  /// `NSNumber.stringValue`: `CAST(x, "NSString")`.
  case stringValue
  /// `NSObject.description`: `CAST(x, "NSString")` (a date prints as ISO 8601, not Apple's
  /// `2001-01-01 00:00:00 +0000`).
  case description
  /// `NSNumber.intValue`: `trunc:(CAST(x, "NSNumber"))` (64 bits, never wrapped to 32).
  case intValue
  /// `NSNumber.integerValue`: as `intValue`.
  case integerValue
  /// `NSNumber.longLongValue`: as `intValue`.
  case longLongValue
  /// `NSNumber.doubleValue`: `CAST(x, "NSNumber") * 1.0`.
  case doubleValue
  /// `NSNumber.floatValue`: as `doubleValue` (a double, not rounded to 32 bits).
  case floatValue
  /// `NSNumber.boolValue`: `CAST(x, "NSNumber") != 0`, nil for nil.
  case boolValue
  /// `NSDate.timeIntervalSinceReferenceDate`: `CAST(CAST(x, "NSDate"), "NSNumber")`.
  case timeIntervalSinceReferenceDate
  /// `NSDate.timeIntervalSince1970`: `CAST(CAST(x, "NSDate"), "NSNumber") + 978307200`.
  case timeIntervalSince1970
  /// `NSArray.count`: `x.@count`.
  case count

  /// The selector as written in `FUNCTION(x, 'selector')`.
  public var selector: String { rawValue }

  /// The names, sorted, for messages: `boolValue, count, …`.
  public static var names: String { allCases.map(\.rawValue).sorted().joined(separator: ", ") }

  /// The tree the selector means for `receiver`, every node at `range` (errors point at the
  /// `FUNCTION`); nil for `length`, which each engine runs itself (no node counts UTF-16).
  ///
  /// ```swift
  /// SiftSelector.count.lowered(.keyPath("tags"), at: .at(0))   // tags.@count
  /// ```
  public func lowered(_ receiver: ExpressionNode, at range: SiftSourceRange) -> ExpressionNode? {
    func node(_ k: ExpressionNode.Kind) -> ExpressionNode { ExpressionNode(k, range: range) }
    func constant(_ v: SiftValue) -> ExpressionNode { node(.constant(v)) }
    let number = node(.cast(receiver, .number))
    let seconds = node(.cast(node(.cast(receiver, .date)), .number))
    switch self {
    case .uppercaseString: return node(.function(.uppercase, [receiver]))
    case .lowercaseString: return node(.function(.lowercase, [receiver]))
    case .length: return nil
    case .stringValue, .description: return node(.cast(receiver, .string))
    case .intValue, .integerValue, .longLongValue: return node(.function(.trunc, [number]))
    case .doubleValue, .floatValue: return node(.binary(.multiply, number, constant(.double(1))))
    case .boolValue:
      func test(_ op: ComparisonOperator, _ v: SiftValue) -> PredicateNode {
        PredicateNode(
          .comparison(SiftComparison(lhs: number, op: op, rhs: constant(v), operatorRange: range)), range: range)
      }
      let truth = node(.ternary(test(.notEqual, .int(0)), constant(.bool(true)), constant(.bool(false))))
      return node(.ternary(test(.equal, .null), constant(.null), truth))
    case .timeIntervalSinceReferenceDate: return seconds
    case .timeIntervalSince1970: return node(.binary(.add, seconds, constant(.int(978_307_200))))
    case .count: return node(.keyPath(base: receiver, SiftKeyPath([.operator(.count)])))
    }
  }

  /// `NSString.length`: the UTF-16 code units of `text`.
  ///
  /// ```swift
  /// SiftSelector.utf16Length("a😀")   // 3
  /// ```
  public static func utf16Length(_ text: String) -> Int { text.utf16.count }
}
