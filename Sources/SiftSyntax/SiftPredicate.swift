/// A parsed predicate: Sift's counterpart of `NSPredicate(format:)`.
///
/// ```swift
/// let p = try SiftPredicate(
///   format: "%K == %@ AND createdAt >= %@",
///   "priceInfo.priceCategory", "$", SiftValue(Date()))
/// print(p)   // priceInfo.priceCategory == "$" AND createdAt >= CAST(…, "NSDate")
/// ```
///
/// Equality compares the trees only (not the source text or positions).
public struct SiftPredicate: Sendable, Hashable, CustomStringConvertible {
  /// The predicate tree.
  public var root: PredicateNode
  /// The format string the tree's source ranges point into.
  public var source: String
  /// Warnings found while parsing (for example an unparenthesised AND/OR mix).
  public var warnings: [SiftDiagnostic]
  /// Format specifiers still waiting for an argument (0 once bound).
  public var unboundArgumentCount: Int
  /// A converted `#Predicate`'s key paths (Typed/SiftTypedKeyPaths.swift); no part of equality.
  package var typed = SiftTypedKeyPathsBox()

  /// Wraps a tree built in code; `source` is only used to render diagnostics.
  public init(root: PredicateNode, source: String = "", warnings: [SiftDiagnostic] = []) {
    self.init(
      root: root, source: source, warnings: warnings, unboundArgumentCount: SiftPredicate.countArguments(in: root))
  }

  init(root: PredicateNode, source: String, warnings: [SiftDiagnostic], unboundArgumentCount: Int) {
    self.root = root
    self.source = source
    self.warnings = warnings
    self.unboundArgumentCount = unboundArgumentCount
  }

  /// Parses `format` and binds `arguments` to its `%@`/`%K`/… specifiers, in order.
  ///
  /// ```swift
  /// let p = try SiftPredicate(format: "name BEGINSWITH[c] %@", "blue")
  /// ```
  /// - Throws: `SiftError` at stage `.parse` or `.arguments`.
  public init(format: String, _ arguments: SiftValue...) throws(SiftError) {
    try self.init(format: format, arguments: arguments)
  }

  /// Parses `format` and binds an argument array (`predicateWithFormat:argumentArray:`).
  /// Specifiers are bound as they are parsed: the same tree and errors as
  /// `SiftPredicate.parse(format).binding(arguments)`, `limits.maxDepth` included (it bounds
  /// the format as written, see Grammar/README.md, "ParserLimits").
  ///
  /// ```swift
  /// let p = try SiftPredicate(format: "tipCount BETWEEN %@", arguments: [[10, 20]])
  /// ```
  public init(format: String, arguments: [SiftValue], limits: ParserLimits = ParserLimits())
    throws(SiftError)
  {
    // Parse and bind in one pass: the same tree and the same errors as
    // `SiftPredicate.parse(format).binding(arguments)`, without building the unbound tree.
    var failure: ArgumentFailure?
    let result = try Parser.parse(format, limits: limits, arguments: arguments, argumentFailure: &failure)
    if arguments.count > result.argumentCount {
      throw ArgumentBinder.tooManyArguments(arguments.count, uses: result.argumentCount, source: format)
    }
    if let failure {
      throw SiftError(stage: .arguments, diagnostic: failure.diagnostic, source: format)
    }
    self.init(root: result.root, source: format, warnings: result.warnings, unboundArgumentCount: 0)
  }

  /// Parses without binding arguments: specifiers stay as `.argument` nodes until
  /// `binding(_:)`, so one parse can serve many argument lists.
  ///
  /// ```swift
  /// let template = try SiftPredicate.parse("price < %@")
  /// let cheap = try template.binding([5])
  /// ```
  public static func parse(_ format: String, limits: ParserLimits = ParserLimits()) throws(SiftError)
    -> SiftPredicate
  {
    let result = try Parser.parse(format, limits: limits)
    return SiftPredicate(
      root: result.root, source: format, warnings: result.warnings, unboundArgumentCount: result.argumentCount)
  }

  /// The canonical format string, in Apple's `predicateFormat` style.
  public var predicateFormat: String { CanonicalPrinter().print(root) }

  /// Same as `predicateFormat`.
  public var description: String { predicateFormat }

  /// Names of the `$VARIABLES` still free in the predicate (subquery iterators excluded).
  public var variables: Set<String> { VariableCollector.freeVariables(of: root) }

  /// False when the predicate calls a function whose answer changes from call to call
  /// (`random()`, `random:`, `randomn:`, `now()`) or a `FUNCTION(…)` Sift cannot see into: two
  /// runs over the same records may then match different ones, so do not cache its results.
  ///
  /// ```swift
  /// try SiftPredicate(format: "price < 5").isDeterministic        // true
  /// try SiftPredicate(format: "random:(8) > 1").isDeterministic   // false
  /// ```
  public var isDeterministic: Bool {
    var deterministic = true
    ASTWalker.forEachExpression(in: root) { e in
      switch e.kind {
      case .function(let f, _) where !f.isDeterministic: deterministic = false
      case .customFunction: deterministic = false
      default: break
      }
    }
    return deterministic
  }

  /// Two SiftPredicate values are equal when their trees are (source positions aside).
  public static func == (a: SiftPredicate, b: SiftPredicate) -> Bool { a.root == b.root }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(root) }

  static func countArguments(in root: PredicateNode) -> Int {
    var count = 0
    ASTWalker.forEachExpression(in: root) { e in
      if case .argument = e.kind { count += 1 }
    }
    return count
  }
}
