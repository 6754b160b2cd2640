import Foundation

/// A `Foundation.PredicateExpressions` node that Sift can read: it converts itself into a piece
/// of Sift's tree. Every supported node type conforms (TypedConversion+*.swift); a node that
/// does not is refused by `TypedConverter.convert(_:)` with its name.
protocol SiftConvertibleExpression {
  /// This node as a Sift predicate or expression; children go through `converter.convert(_:)`.
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm
}

/// What one node of a Swift predicate becomes: a predicate (a `Bool` test) or an expression (a
/// value). A `Bool` value is either, and `predicate()`/`expression()` turn one into the other.
enum TypedTerm {
  case predicate(PredicateNode)
  case expression(ExpressionNode)

  /// The term as a test: a `Bool`-valued expression `e` is `e == YES`; a constant is
  /// `TRUEPREDICATE` or `FALSEPREDICATE`.
  func predicate() -> PredicateNode {
    switch self {
    case .predicate(let p): return p
    case .expression(let e):
      if case .constant(.bool(let b)) = e.kind { return PredicateNode(.constant(b)) }
      return TypedTerm.compare(e, .equal, .constant(.bool(true)))
    }
  }

  /// The term as a value: a test `p` is `TERNARY(p, YES, NO)`.
  func expression() -> ExpressionNode {
    switch self {
    case .expression(let e): return e
    case .predicate(let p): return ExpressionNode(.ternary(p, .constant(.bool(true)), .constant(.bool(false))))
    }
  }

  /// `lhs op rhs`, no options.
  static func compare(
    _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode, quantifier: SiftQuantifier? = nil
  ) -> PredicateNode {
    PredicateNode(.comparison(SiftComparison(quantifier: quantifier, lhs: lhs, op: op, rhs: rhs)))
  }
}

/// Walks a `Predicate<Root>`'s expression tree into Sift's tree: the root variable is `SELF`,
/// closure variables (`contains(where:)`, `filter`, `allSatisfy`) are `$x1`, `$x2`, …, and an
/// optional chain's variable stands for the value it unwraps.
struct TypedConverter {
  /// How Swift property names become stored names.
  let keys: SiftKeyStrategy
  /// What each closure variable stands for.
  var bindings: [PredicateExpressions.VariableID: ExpressionNode] = [:]
  /// The last `$x` number handed out.
  var variableCount = 0
  /// How deep the walk is; a tree deeper than `ParserLimits().maxDepth` is refused as a parsed
  /// one is (a `Predicate` may be decoded from data, so its depth is input too).
  var depth = 0
  let maxDepth = ParserLimits().maxDepth
  /// The root's key paths memory reads a value through (`SiftTypedKeyPaths`).
  let keyPaths: SiftTypedKeyPaths

  init(keys: SiftKeyStrategy, root: Any.Type) {
    self.keys = keys
    keyPaths = SiftTypedKeyPaths(root: root)
  }

  /// Converts one child node, or refuses a node type Sift has no reading of.
  mutating func convert(_ node: Any) throws(SiftError) -> TypedTerm {
    guard let convertible = node as? any SiftConvertibleExpression else {
      throw TypedConverter.refusal(.unconvertibleExpression, TypedConverter.unsupportedReason(node))
    }
    guard depth < maxDepth else {
      throw SiftError(
        stage: .convert, diagnostic: DiagnosticCatalog.nestingTooDeep(limit: maxDepth, at: .at(0)), source: "")
    }
    depth += 1
    defer { depth -= 1 }
    return try convertible.siftTerm(&self)
  }

  /// A child as a value.
  mutating func expression(_ node: Any) throws(SiftError) -> ExpressionNode { try convert(node).expression() }

  /// A child as a test.
  mutating func predicate(_ node: Any) throws(SiftError) -> PredicateNode { try convert(node).predicate() }

  /// Binds `variable` to a fresh `$xN` while `body` converts a closure's body.
  mutating func withClosureVariable<T>(
    _ variable: PredicateExpressions.VariableID, _ body: (inout TypedConverter, String) throws(SiftError) -> T
  ) throws(SiftError) -> T {
    variableCount += 1
    let name = "x\(variableCount)"
    bindings[variable] = ExpressionNode(.variable(name))
    defer { bindings[variable] = nil }
    return try body(&self, name)
  }

  /// A conversion error (stage `.convert`) with no source text to point into.
  static func refusal(_ id: DiagnosticID, _ message: String) -> SiftError {
    SiftError(stage: .convert, diagnostic: SiftDiagnostic(id: id.rawValue, message: message, range: .at(0)), source: "")
  }

  /// The name of a node type without its generic arguments (`StringContainsRegex`).
  static func shortName(_ node: Any) -> String {
    String(String(describing: type(of: node)).prefix { $0 != "<" })
  }

  /// Why a node type is refused, naming it.
  static func unsupportedReason(_ node: Any) -> String {
    let name = shortName(node)
    let why: String
    switch name {
    case "StringContainsRegex": why = "regular expressions have no equivalent; use MATCHES in a format string"
    case "ForcedUnwrap": why = "a force unwrap traps on nil where a store answers; use ?. or ??"
    case "ConditionalCast", "ForceCast", "TypeCheck": why = "stores hold no Swift types to cast to"
    case "DictionaryKeySubscript", "DictionaryKeyDefaultValueSubscript": why = "stored records have no dictionary keys"
    case "CollectionIndexSubscript", "CollectionRangeSubscript":
      why = "stores have no positions inside a to-many; use first, last or contains(where:)"
    case "ExpressionEvaluate": why = "a nested #Expression is not converted"
    default: why = "Sift has no equivalent"
    }
    return "cannot convert \(name) of a #Predicate: \(why)"
  }
}
