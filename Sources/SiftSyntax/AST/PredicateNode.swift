/// A node of the predicate tree: what `NSPredicate` is in Foundation.
///
/// Equality and hashing compare meaning only; the source range is ignored, so a predicate
/// parsed from its own canonical print equals the original.
///
/// ```swift
/// let p = try SiftPredicate(format: "a == 1 AND b == 2")
/// if case .and(let terms) = p.root.kind { print(terms.count) }   // 2
/// ```
public struct PredicateNode: Sendable, Hashable {
  /// What the node is.
  public indirect enum Kind: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// `a AND b AND …`, flat (n-ary). An empty list is true.
    case and([PredicateNode])
    /// `a OR b OR …`, flat (n-ary). An empty list is false.
    case or([PredicateNode])
    /// `NOT p`.
    case not(PredicateNode)
    /// `[ANY|ALL|NONE] lhs op[options] rhs`.
    case comparison(SiftComparison)
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
    self.height = PredicateNode.computeHeight(kind)
  }

  /// A node whose height the caller already knows (the parser, from the children it built).
  init(_ kind: Kind, range: SiftSourceRange, height: Int) {
    self.kind = kind
    self.range = range
    self.height = height
  }

  /// The tallest of `terms` (0 for none), without building an array of heights.
  static func maxHeight(_ terms: [PredicateNode]) -> Int {
    var m = 0
    for t in terms where t.height > m { m = t.height }
    return m
  }

  private static func computeHeight(_ kind: Kind) -> Int {
    switch kind {
    case .constant: return 1
    case .and(let terms), .or(let terms): return 1 + maxHeight(terms)
    case .not(let p): return 1 + p.height
    case .comparison(let c): return 1 + max(c.lhs.height, c.rhs.height)
    }
  }

  /// Two PredicateNode values are equal when their trees are (source positions aside).
  public static func == (a: PredicateNode, b: PredicateNode) -> Bool { a.kind == b.kind }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// A comparison predicate: `[quantifier] lhs op[options] rhs`.
///
/// ```swift
/// // ANY tags BEGINSWITH[c] "l"
/// let c = SiftComparison(quantifier: .any, lhs: .keyPath("tags"), op: .beginsWith,
///                    options: .caseInsensitive, rhs: .constant("l"))
/// ```
public struct SiftComparison: Sendable, Hashable {
  /// `ANY`/`ALL`/`NONE`, or nil for a direct comparison.
  public var quantifier: SiftQuantifier?
  /// Left operand.
  public var lhs: ExpressionNode
  /// The operator.
  public var op: ComparisonOperator
  /// `[c]`, `[d]`, … options.
  public var options: ComparisonOptions
  /// Right operand.
  public var rhs: ExpressionNode
  /// Where the operator token (with its options) stands; used to point at the operator.
  public var operatorRange: SiftSourceRange

  /// Creates a comparison.
  public init(
    quantifier: SiftQuantifier? = nil, lhs: ExpressionNode, op: ComparisonOperator,
    options: ComparisonOptions = [], rhs: ExpressionNode, operatorRange: SiftSourceRange = .at(0)
  ) {
    self.quantifier = quantifier
    self.lhs = lhs
    self.op = op
    self.options = options
    self.rhs = rhs
    self.operatorRange = operatorRange
  }

  /// Two SiftComparison values are equal when their trees are (source positions aside).
  public static func == (a: SiftComparison, b: SiftComparison) -> Bool {
    a.quantifier == b.quantifier && a.op == b.op && a.options == b.options && a.lhs == b.lhs
      && a.rhs == b.rhs
  }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(quantifier)
    hasher.combine(op)
    hasher.combine(options)
    hasher.combine(lhs)
    hasher.combine(rhs)
  }
}
