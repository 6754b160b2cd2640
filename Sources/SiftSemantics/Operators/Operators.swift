/// The operator of a comparison predicate (`NSComparisonPredicate.Operator`).
///
/// ```swift
/// ComparisonOperator.beginsWith.keyword   // "BEGINSWITH"
/// ```
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
  /// `==` (also `=`).
  case equal = "=="
  /// `!=` (also `<>`).
  case notEqual = "!="
  /// `<`.
  case lessThan = "<"
  /// `<=` (also `=<`).
  case lessThanOrEqual = "<="
  /// `>`.
  case greaterThan = ">"
  /// `>=` (also `=>`).
  case greaterThanOrEqual = ">="
  /// `x BETWEEN {low, high}`: `low <= x AND x <= high`.
  case between = "BETWEEN"
  /// `x IN collection`: membership.
  case `in` = "IN"
  /// `CONTAINS`: a substring, or an element of a collection.
  case contains = "CONTAINS"
  /// `BEGINSWITH`: a string prefix.
  case beginsWith = "BEGINSWITH"
  /// `ENDSWITH`: a string suffix.
  case endsWith = "ENDSWITH"
  /// `LIKE`: a wildcard pattern (`?` one character, `*` any run).
  case like = "LIKE"
  /// `MATCHES`: an ICU-style regular expression matching the whole string.
  case matches = "MATCHES"
  /// `UTI-CONFORMS-TO`: a uniform type identifier conforms to another.
  case utiConformsTo = "UTI-CONFORMS-TO"
  /// `UTI-EQUALS`: two uniform type identifiers are equal.
  case utiEquals = "UTI-EQUALS"

  /// The canonical spelling printed by `predicateFormat` (`==`, `BEGINSWITH`, …).
  public var keyword: String { rawValue }

  /// True for `==`, `!=`, `<`, `<=`, `>`, `>=`.
  public var isOrdering: Bool { rightOperand == .value }

  /// True for the operators that take a string on both sides (`BEGINSWITH`, `LIKE`, …).
  public var isStringOperator: Bool {
    switch rightOperand {
    case .needle, .wildcardPattern, .regularExpression: return true
    case .value, .needleOrElement, .container, .bounds, .typeIdentifier: return false
    }
  }

  /// What the operator takes on its right: the one table of operator shapes. The SQL
  /// compiler's to-one semi-joins, `isOrdering`, `isStringOperator` and the random-predicate
  /// generators of the tests read it, so a new operator reaches them through this switch alone.
  ///
  /// ```swift
  /// ComparisonOperator.like.rightOperand        // .wildcardPattern
  /// ComparisonOperator.beginsWith.rightOperand  // .needle
  /// ```
  package var rightOperand: RightOperand {
    switch self {
    case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: return .value
    case .beginsWith, .endsWith: return .needle
    case .contains: return .needleOrElement
    case .in: return .container
    case .between: return .bounds
    case .like: return .wildcardPattern
    case .matches: return .regularExpression
    case .utiConformsTo, .utiEquals: return .typeIdentifier
    }
  }

  /// The kinds of right operand (see `rightOperand`).
  ///
  /// ```swift
  /// ComparisonOperator.allCases.filter { $0.rightOperand == .needle }   // [.beginsWith, .endsWith]
  /// ```
  package enum RightOperand: Sendable, Hashable, CaseIterable {
    /// A value of the left side's kind, compared by equality or order (`==`, `<`, …).
    case value
    /// A string searched for in the left string (`BEGINSWITH`, `ENDSWITH`; `TextSearch`).
    case needle
    /// A string searched for in a left string, or an element of a left collection (`CONTAINS`).
    case needleOrElement
    /// The collection (or string) the left side is looked for in (`IN`).
    case container
    /// Two bounds, `{low, high}` (`BETWEEN`).
    case bounds
    /// A wildcard pattern, `?` and `*` (`LIKE`).
    case wildcardPattern
    /// A regular expression matching the whole left string (`MATCHES`).
    case regularExpression
    /// A uniform type identifier (`UTI-CONFORMS-TO`, `UTI-EQUALS`).
    case typeIdentifier

    /// True when the right side is a string that a left string is tested against (every
    /// kind but `value`, `container`, `bounds` and `typeIdentifier`).
    ///
    /// ```swift
    /// ComparisonOperator.RightOperand.needleOrElement.isText   // true
    /// ```
    package var isText: Bool {
      switch self {
      case .needle, .needleOrElement, .wildcardPattern, .regularExpression: return true
      case .value, .container, .bounds, .typeIdentifier: return false
      }
    }
  }
}

/// The `[cdnl]` options glued to a comparison operator (`BEGINSWITH[cd]`).
///
/// ```swift
/// let opts: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
/// opts.description   // "[cd]"
/// ```
public struct ComparisonOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
  /// The option bits: `[c]` 1, `[d]` 2, `[n]` 4, `[l]` 8.
  public let rawValue: UInt8
  /// Creates options from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `[c]`: full Unicode case-insensitivity.
  public static let caseInsensitive = ComparisonOptions(rawValue: 1)
  /// `[d]`: diacritic-insensitivity (é = e).
  public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
  /// `[n]`: operands are already normalized; compare them as they are.
  public static let normalized = ComparisonOptions(rawValue: 4)
  /// `[l]`: locale-sensitive (accepted; compared like `[c]`-less Unicode text).
  public static let localeSensitive = ComparisonOptions(rawValue: 8)

  /// The letters in canonical order c, d, n, l, e.g. `[cd]`; empty when there are none.
  public var description: String {
    if isEmpty { return "" }
    var s = "["
    if contains(.caseInsensitive) { s += "c" }
    if contains(.diacriticInsensitive) { s += "d" }
    if contains(.normalized) { s += "n" }
    if contains(.localeSensitive) { s += "l" }
    return s + "]"
  }
}

/// The `ANY`/`SOME`, `ALL`, `NONE` prefix of a comparison.
///
/// ```swift
/// SiftQuantifier.none.keyword   // "NONE"
/// ```
public enum SiftQuantifier: String, Sendable, Hashable, CaseIterable {
  /// `ANY` or `SOME`: at least one element satisfies the comparison.
  case any = "ANY"
  /// `ALL`: every element does (true for an empty collection).
  case all = "ALL"
  /// `NONE`: no element does (true for an empty collection).
  case none = "NONE"

  /// The printed keyword.
  public var keyword: String { rawValue }
}

/// Binary arithmetic and bitwise operators of expressions.
///
/// ```swift
/// BinaryOperator.power.symbol   // "**"
/// ```
public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
  /// `a + b`.
  case add = "+"
  /// `a - b`.
  case subtract = "-"
  /// `a * b`.
  case multiply = "*"
  /// `a / b`.
  case divide = "/"
  /// `a ** b`.
  case power = "**"
  /// `a & b`.
  case bitwiseAnd = "&"
  /// `a | b`.
  case bitwiseOr = "|"
  /// `a ^ b`.
  case bitwiseXor = "^"
  /// `a << b`.
  case leftShift = "<<"
  /// `a >> b`.
  case rightShift = ">>"
  /// `a UNION b`: the elements of both, each once (first `a`'s order, then `b`'s new ones).
  case union = "UNION"
  /// `a INTERSECT b`: the elements of `a` that are in `b`, each once, in `a`'s order.
  case intersect = "INTERSECT"
  /// `a MINUS b`: the elements of `a` that are not in `b`, each once, in `a`'s order.
  case minus = "MINUS"

  /// The printed symbol.
  public var symbol: String { rawValue }

  /// Binding strength; higher binds tighter. Matches the grammar's levels.
  package var precedence: ExpressionPrecedence {
    switch self {
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: return .bitwise
    case .add, .subtract: return .additive
    case .multiply, .divide: return .multiplicative
    case .power: return .power
    case .union, .intersect, .minus: return .set
    }
  }

  /// True for the set operators `UNION`, `INTERSECT` and `MINUS`.
  public var isSetOperator: Bool { self == .union || self == .intersect || self == .minus }

  /// True only for `**`, which groups right to left.
  public var isRightAssociative: Bool { self == .power }
}

/// Expression precedence levels, lowest first (see Grammar/README.md).
///
/// ```swift
/// ExpressionPrecedence.power > .additive   // true
/// ```
package enum ExpressionPrecedence: Int, Sendable, Comparable {
  case assignment = 0
  case set
  case bitwise
  case additive
  case multiplicative
  case power
  case unary
  case postfix

  package static func < (a: ExpressionPrecedence, b: ExpressionPrecedence) -> Bool {
    a.rawValue < b.rawValue
  }
}

/// Prefix operators of expressions.
///
/// ```swift
/// UnaryOperator.negate.symbol   // "-"
/// ```
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
  /// `-x`.
  case negate = "-"
  /// `~x`, the bitwise complement.
  case bitwiseNot = "~"

  /// The printed symbol.
  public var symbol: String { rawValue }
}

/// KVC collection operators that may appear as key-path components (`tags.@count`).
///
/// ```swift
/// CollectionOperator(name: "avg")   // .avg
/// ```
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
  /// `@count`: the number of elements.
  case count
  /// `@sum`: the sum of the elements (or of a key of each).
  case sum
  /// `@avg`: the mean of the elements.
  case avg
  /// `@min`: the smallest element.
  case min
  /// `@max`: the largest element.
  case max
  /// `@distinctUnionOfObjects`: the distinct elements.
  case distinctUnionOfObjects
  /// `@unionOfObjects`: the elements, duplicates kept.
  case unionOfObjects
  /// `@distinctUnionOfArrays`: the distinct elements of the elements' arrays.
  case distinctUnionOfArrays
  /// `@unionOfArrays`: the elements of the elements' arrays, concatenated.
  case unionOfArrays
  /// `@distinctUnionOfSets`: the distinct elements of the elements' sets.
  case distinctUnionOfSets

  /// Looks an operator up by its name without `@` (case-sensitive, as KVC is).
  public init?(name: String) { self.init(rawValue: name) }

  /// The spelling with `@`, e.g. `@count`.
  public var spelling: String { "@" + rawValue }
}
