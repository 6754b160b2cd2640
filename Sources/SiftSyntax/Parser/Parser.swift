/// The recursive-descent parser for the NSPredicate format-string language.
///
/// Each grammar rule in `Grammar/Predicate.ebnf` has exactly one `parseX()` function with the
/// same name, one precedence level per function. The parser stops at the first error (see
/// "Error policy" in Grammar/README.md): predicates are short, and one precise message with
/// a caret beats a cascade. Nesting is bounded by `ParserLimits.maxDepth`; AND/OR chains and
/// left-associative operator runs are loops, not recursion.
///
/// ```swift
/// let result = try Parser.parse("name BEGINSWITH[c] 'blue' AND distance < 5")
/// print(result.root)
/// ```
package struct Parser {
  /// What a successful parse produces: the tree plus warnings (never errors).
  package struct Result: Sendable {
    /// The predicate tree; `%@`-style specifiers are still `.argument` nodes.
    package var root: PredicateNode
    /// Warnings such as an unparenthesised mix of AND and OR.
    package var warnings: [SiftDiagnostic]
    /// Number of format specifiers that consume an argument.
    package var argumentCount: Int
  }

  /// Tokens are read on demand, one ahead at most: no token array is built.
  var lexer: Lexer
  /// The token under the cursor.
  var current: Token
  /// The token after `current`, once `peekKind()` has looked at it.
  var lookahead: Token?
  /// Where the last consumed token ended (for node ranges).
  var previousEnd = 0
  let source: String
  let limits: ParserLimits
  var depth = 0
  var warnings: [SiftDiagnostic] = []
  var argumentCount = 0
  /// The arguments bound to the specifiers as they are parsed; nil leaves `.argument` nodes.
  let arguments: [SiftValue]?
  /// The first specifier that could not be bound (reported once the parse has succeeded).
  var argumentFailure: ArgumentFailure?

  /// A parser over `bytes`, which must stay valid while it runs (see `parse`).
  init(source: String, bytes: UnsafeBufferPointer<UInt8>, limits: ParserLimits, arguments: [SiftValue]? = nil) {
    self.source = source
    self.limits = limits
    self.arguments = arguments
    self.lexer = Lexer(bytes: bytes)
    self.current = lexer.next()
  }

  /// Parses a whole format string.
  ///
  /// - Throws: `SiftError` with stage `.parse` and a diagnostic at the offending spot.
  package static func parse(_ source: String, limits: ParserLimits = ParserLimits()) throws(SiftError)
    -> Result
  {
    var unused: ArgumentFailure?
    return try parse(source, limits: limits, arguments: nil, argumentFailure: &unused)
  }

  /// Parses and, when `arguments` is given, binds each specifier as it is met (the tree
  /// `SiftPredicate.binding` would build, without building the unbound one first). The parser
  /// already builds normalized trees, so a bound node needs no rewriting of its parents.
  /// `argumentFailure` receives the first specifier that could not be bound, in source order
  /// (the order `binding` reports in); it is left to the caller, because a syntax error wins.
  static func parse(
    _ source: String, limits: ParserLimits, arguments: [SiftValue]?, argumentFailure: inout ArgumentFailure?
  ) throws(SiftError) -> Result {
    let (root, warnings, argumentCount) = try run(
      source, limits: limits, arguments: arguments, argumentFailure: &argumentFailure,
      empty: DiagnosticCatalog.emptyPredicate(at: .at(0))
    ) { (p: inout Parser) throws(ParseFailure) in try p.parseFormat() }
    return Result(root: root, warnings: warnings, argumentCount: argumentCount)
  }

  /// Runs one start rule (`parseFormat`, `parseExpressionFormat`) over `source`, checking the
  /// input size first; returns the rule's tree, the warnings and the number of specifiers.
  /// `empty` is reported should the rule neither return nor throw (it cannot).
  static func run<Tree>(
    _ source: String, limits: ParserLimits, arguments: [SiftValue]?, argumentFailure: inout ArgumentFailure?,
    empty: @autoclosure () -> SiftDiagnostic, _ rule: (inout Parser) throws(ParseFailure) -> Tree
  ) throws(SiftError) -> (Tree, [SiftDiagnostic], Int) {
    if source.utf8.count > limits.maxInputBytes {
      throw SiftError(
        stage: .parse,
        diagnostic: DiagnosticCatalog.inputTooLarge(
          size: source.utf8.count, limit: limits.maxInputBytes,
          at: SiftSourceRange(start: limits.maxInputBytes, end: source.utf8.count)),
        source: source)
    }
    // The closure hands its outcome back through these (cheaper than returning an enum).
    var text = source
    var tree: Tree?
    var diagnostic: SiftDiagnostic?
    var warnings: [SiftDiagnostic] = []
    var argumentCount = 0
    text.withUTF8 { bytes in
      var parser = Parser(source: source, bytes: bytes, limits: limits, arguments: arguments)
      do throws(ParseFailure) {
        tree = try rule(&parser)
      } catch {
        diagnostic = error.diagnostic
      }
      swap(&warnings, &parser.warnings)
      argumentCount = parser.argumentCount
      swap(&argumentFailure, &parser.argumentFailure)
    }
    if arguments != nil, argumentCount > 0, source.utf8.count > limits.maxDepth {
      // One depth rule: `maxDepth` bounds the format as written, bound or not (Grammar/README.md,
      // "ParserLimits"). A bound value can make the tree shorter (`%K.x` is one key path, `{%@}`
      // one constant), so the unbound parse gives the verdict: its error, if any, is the one
      // `parse` would report (the same but for depth, which it finds where the text nests).
      // Every node of the unbound tree takes at least one token, so a format no longer in bytes
      // than `maxDepth` cannot nest too deep: most formats are not parsed twice.
      var unused: ArgumentFailure?
      _ = try run(source, limits: limits, arguments: nil, argumentFailure: &unused, empty: empty(), rule)
    }
    guard let tree else {
      // The rule either returns or throws, so `diagnostic` is set here.
      throw SiftError(stage: .parse, diagnostic: diagnostic ?? empty(), source: source)
    }
    return (tree, warnings, argumentCount)
  }

  // MARK: - Token access

  var currentKind: TokenKind { current.kind }

  /// The kind of the token after the current one.
  mutating func peekKind() -> TokenKind {
    if case .end = current.kind { return .end }
    if let t = lookahead { return t.kind }
    let t = lexer.next()
    lookahead = t
    return t.kind
  }

  /// Consumes and returns the current token (never moves past `.end`).
  @discardableResult
  mutating func advance() -> Token {
    let t = current
    skip()
    return t
  }

  /// Consumes the current token without handing it back (never moves past `.end`).
  mutating func skip() {
    if case .end = current.kind { return }
    previousEnd = current.range.end
    if let next = lookahead.take() {
      current = next
    } else {
      current = lexer.next()
    }
  }

  func at(_ p: Punctuation) -> Bool {
    if case .punct(let q) = currentKind { return q == p }
    return false
  }

  func at(_ k: Keyword) -> Bool {
    if case .keyword(let q) = currentKind { return q == k }
    return false
  }

  mutating func eat(_ p: Punctuation) -> Token? {
    at(p) ? advance() : nil
  }

  mutating func eat(_ k: Keyword) -> Token? {
    at(k) ? advance() : nil
  }

  /// Consumes `p` or fails with "expected 'p' <context>".
  mutating func expect(_ p: Punctuation, _ context: String, opening: Token? = nil) throws(ParseFailure)
    -> Token
  {
    if let t = eat(p) { return t }
    try failOnInvalidToken()
    throw ParseFailure(
      DiagnosticCatalog.expectedPunctuation(p, context, found: current, opening: opening))
  }

  /// If the current token is an `.invalid` token, reports its diagnostic.
  func failOnInvalidToken() throws(ParseFailure) {
    if case .invalid(let d) = currentKind { throw ParseFailure(d) }
  }

  func range(from start: Int) -> SiftSourceRange {
    SiftSourceRange(start: start, end: max(start, previousEnd))
  }

  /// Runs `body` one nesting level deeper, failing once `maxDepth` is exceeded.
  mutating func nested<T>(at token: Token, _ body: (inout Parser) throws(ParseFailure) -> T)
    throws(ParseFailure) -> T
  {
    depth += 1
    defer { depth -= 1 }
    if depth > limits.maxDepth {
      throw ParseFailure(DiagnosticCatalog.nestingTooDeep(limit: limits.maxDepth, at: token.range))
    }
    return try body(&self)
  }

  /// Fails when a freshly built node makes the tree taller than `maxDepth`.
  func checkHeight(_ height: Int, _ range: SiftSourceRange) throws(ParseFailure) {
    if height > limits.maxDepth {
      throw ParseFailure(DiagnosticCatalog.nestingTooDeep(limit: limits.maxDepth, at: range))
    }
  }

  func text(of range: SiftSourceRange) -> String {
    let utf8 = source.utf8
    let s = max(0, min(range.start, utf8.count))
    let e = max(s, min(range.end, utf8.count))
    let from = utf8.index(utf8.startIndex, offsetBy: s)
    let to = utf8.index(from, offsetBy: e - s)
    return String(decoding: utf8[from..<to], as: UTF8.self)
  }
}

/// Internal error carrier; the front door wraps it into `SiftError`.
struct ParseFailure: Error {
  var diagnostic: SiftDiagnostic
  init(_ diagnostic: SiftDiagnostic) { self.diagnostic = diagnostic }
}
