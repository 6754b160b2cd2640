/// A node of an expression tree: what `NSExpression` is in Foundation.
///
/// Equality and hashing ignore source ranges.
///
/// ```swift
/// let e = ExpressionNode.keyPath("location.city")
/// if case .keyPath(let kp) = e.kind { print(kp.components.count) }   // 2
/// ```
public struct ExpressionNode: Sendable, Hashable {
  /// What the node is.
  public indirect enum Kind: Sendable, Hashable {
    /// A constant value: a literal, a folded aggregate of constants, or a bound `%@`.
    case constant(SiftValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$NAME`: a substitution or subquery variable.
    case variable(String)
    /// A key path, applied to `base` (nil means `SELF`): `a.b.@count`, `$x.name`.
    case keyPath(base: ExpressionNode?, SiftKeyPath)
    /// `base[i]`, `base[FIRST]`, `base[LAST]`, `base[SIZE]`.
    case index(ExpressionNode, IndexKind)
    /// `{a, b}` with at least one non-constant element.
    case aggregate([ExpressionNode])
    /// `-x`, `~x`.
    case unary(UnaryOperator, ExpressionNode)
    /// `a + b`, `a ** b`, `a & b`, …
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    /// A built-in function: `sum({1, 2})`, `modulus:by:(7, 2)`, `now()`.
    case function(BuiltinFunction, [ExpressionNode])
    /// `FUNCTION(receiver, 'selector', args…)`: a user-registered function.
    case customFunction(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
    /// `SUBQUERY(collection, $variable, predicate)`.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// `CAST(value, "NSNumber")`.
    case cast(ExpressionNode, CastType)
    /// `TERNARY(predicate, whenTrue, whenFalse)`.
    case ternary(PredicateNode, ExpressionNode, ExpressionNode)
    /// `$NAME := value`.
    case assignment(variable: String, ExpressionNode)
    /// `ANYKEY` (Spotlight's any-key expression).
    case anyKey
    /// An unbound format specifier (`%@`, `%K`, `%d`, …), numbered from 0 in source order.
    case argument(FormatSpecifier, position: Int)
  }

  /// What the node is.
  public var kind: Kind
  /// Where the node came from in the source (ignored by `==`).
  public var range: SiftSourceRange
  /// Height of the tree below this node (a leaf is 1); used to enforce depth limits.
  public let height: Int

  /// Creates a node; `height` is computed from the children.
  public init(_ kind: Kind, range: SiftSourceRange = .at(0)) {
    self.kind = kind
    self.range = range
    self.height = ExpressionNode.computeHeight(kind)
  }

  /// A node whose height the caller already knows (the parser, from the children it built).
  init(_ kind: Kind, range: SiftSourceRange, height: Int) {
    self.kind = kind
    self.range = range
    self.height = height
  }

  private static func computeHeight(_ kind: Kind) -> Int {
    func h(_ list: [ExpressionNode]) -> Int {
      var m = 0
      for e in list where e.height > m { m = e.height }
      return m
    }
    switch kind {
    case .constant, .evaluatedObject, .variable, .anyKey, .argument: return 1
    case .keyPath(let base, let kp):
      _ = kp
      return 1 + (base?.height ?? 0)
    case .index(let b, let i):
      if case .expression(let e) = i { return 1 + max(b.height, e.height) }
      return 1 + b.height
    case .aggregate(let list): return 1 + h(list)
    case .unary(_, let e): return 1 + e.height
    case .binary(_, let a, let b): return 1 + max(a.height, b.height)
    case .function(_, let args): return 1 + h(args)
    case .customFunction(let r, _, let args): return 1 + max(r.height, h(args))
    case .subquery(let c, _, let p): return 1 + max(c.height, p.height)
    case .cast(let e, _): return 1 + e.height
    case .ternary(let p, let a, let b): return 1 + max(p.height, a.height, b.height)
    case .assignment(_, let e): return 1 + e.height
    }
  }

  /// Two ExpressionNode values are equal when their trees are (source positions aside).
  public static func == (a: ExpressionNode, b: ExpressionNode) -> Bool { a.kind == b.kind }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension ExpressionNode {
  /// A constant expression.
  ///
  /// ```swift
  /// let five = ExpressionNode.constant(5)
  /// ```
  public static func constant(_ value: SiftValue, range: SiftSourceRange = .at(0)) -> ExpressionNode {
    ExpressionNode(.constant(value), range: range)
  }

  /// A key path on `SELF` from dotted text (`"location.city"`, `"menu.@count"`).
  /// Components starting with `@` that name a collection operator become operators.
  ///
  /// ```swift
  /// let kp = ExpressionNode.keyPath("menu.@avg.price")
  /// ```
  public static func keyPath(_ dotted: String, range: SiftSourceRange = .at(0)) -> ExpressionNode {
    ExpressionNode(.keyPath(base: nil, SiftKeyPath(dotted: dotted)), range: range)
  }
}

/// The subscript of an index expression.
///
/// ```swift
/// // tags[FIRST]
/// ExpressionNode(.index(.keyPath("tags"), .first))
/// ```
public enum IndexKind: Sendable, Hashable {
  /// `[expr]`: an array position (integer) or a dictionary key (string).
  case expression(ExpressionNode)
  /// `[FIRST]`.
  case first
  /// `[LAST]`.
  case last
  /// `[SIZE]`.
  case size
}

/// A dotted key path: keys and KVC collection operators.
///
/// ```swift
/// SiftKeyPath(dotted: "scores.@sum").components   // [.key("scores"), .operator(.sum)]
/// ```
public struct SiftKeyPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a key path.
  public enum Component: Sendable, Hashable {
    /// A plain key.
    case key(String)
    /// A collection operator such as `@count`.
    case `operator`(CollectionOperator)
  }

  /// The steps, in order. Never empty for a key path built by the parser.
  public var components: [Component]

  /// Creates a key path from its components.
  public init(_ components: [Component]) { self.components = components }

  /// Splits dotted text on `.`; `@name` components naming a collection operator become
  /// operators, everything else stays a key.
  public init(dotted: String) {
    var text = dotted
    let split: [Component]? = text.withUTF8 { bytes in
      var dots = 0
      var ascii = true
      for b in bytes {
        if b == 0x2E { dots += 1 } else if b >= 0x80 { ascii = false }
      }
      if dots == 0, bytes.first != 0x40 { return nil }  // one plain key: no "." and no "@"
      // By Characters: a "." followed by a combining mark is not a separator.
      guard ascii else {
        return dotted.split(separator: ".", omittingEmptySubsequences: false).map(SiftKeyPath.component)
      }
      // ASCII: split by bytes (the same pieces as by Characters, much cheaper).
      var parts: [Component] = []
      parts.reserveCapacity(dots + 1)
      var start = 0
      for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2E {
        let piece = UnsafeBufferPointer(rebasing: bytes[start..<i])
        if piece.first == 0x40,
          let op = CollectionOperator(
            name: String(decoding: UnsafeBufferPointer(rebasing: piece.dropFirst()), as: UTF8.self))
        {
          parts.append(.operator(op))
        } else {
          parts.append(.key(String(decoding: piece, as: UTF8.self)))
        }
        start = i + 1
      }
      return parts
    }
    self.components = split ?? [.key(dotted)]
  }

  /// One piece of dotted text: `@name` naming a collection operator, or a key.
  private static func component(_ part: Substring) -> Component {
    if part.utf8.first == 0x40, let op = CollectionOperator(name: String(part.dropFirst())) { return .operator(op) }
    return .key(String(part))
  }

  /// The key path as written in a format string: `author.name`.
  public var description: String {
    components.map { c -> String in
      switch c {
      case .key(let k): return k
      case .operator(let op): return op.spelling
      }
    }.joined(separator: ".")
  }
}

/// The target class of `CAST(value, "Class")`.
///
/// ```swift
/// CastType(className: "NSDate")   // .date
/// ```
public enum CastType: String, Sendable, Hashable, CaseIterable {
  /// `CAST(x, "NSDate")`: a date (from seconds since 2001, or ISO-8601 text).
  case date = "NSDate"
  /// `CAST(x, "NSNumber")`: a number.
  case number = "NSNumber"
  /// `CAST(x, "NSString")`: a string.
  case string = "NSString"
  /// `CAST(x, "NSDecimalNumber")`: a decimal number.
  case decimalNumber = "NSDecimalNumber"
  /// `CAST(x, "NSArray")`: an array.
  case array = "NSArray"

  /// Looks a class name up (exact spelling, as Apple's `castObject:toType:`).
  public init?(className: String) { self.init(rawValue: className) }

  /// The class name as printed.
  public var className: String { rawValue }
}
