/// The result of parsing where either a predicate or a bare expression may stand: inside
/// parentheses, `(a + b) > 3` and `(a > 3)` share a prefix, so the decision is made after `)`.
enum Operand {
  case predicate(PredicateNode)
  case expression(ExpressionNode)
}

extension Parser {
  /// `format ::= orPredicate EOF`
  mutating func parseFormat() throws(ParseFailure) -> PredicateNode {
    if case .end = currentKind {
      throw ParseFailure(DiagnosticCatalog.emptyPredicate(at: current.range))
    }
    let operand = try parseOrPredicate(allowBareExpression: false)
    guard case .predicate(let node) = operand else {
      throw ParseFailure(DiagnosticCatalog.expectedComparisonOperator(found: current, suggestion: nil))
    }
    if case .end = currentKind { return node }
    try failOnInvalidToken()
    throw ParseFailure(DiagnosticCatalog.unexpectedAfterPredicate(current))
  }

  /// `orPredicate ::= andPredicate ( ( "OR" | "||" ) andPredicate )*`
  mutating func parseOrPredicate(allowBareExpression: Bool) throws(ParseFailure) -> Operand {
    let start = current.range.start
    var chain: SiftSourceRange?  // the first AND chain among the terms (for the mixed AND/OR warning)
    let first = try parseAndPredicate(allowBareExpression: allowBareExpression, chain: &chain)
    guard atOr() else { return first }
    var terms: [PredicateNode] = []
    terms.reserveCapacity(4)
    terms.append(try requirePredicate(first))
    while atOr() {
      skip()
      terms.append(try requirePredicate(try parseAndPredicate(allowBareExpression: false, chain: &chain)))
    }
    let node = PredicateNode(.or(terms), range: range(from: start), height: 1 + PredicateNode.maxHeight(terms))
    try checkHeight(node.height, node.range)
    if let chain {
      warnings.append(DiagnosticCatalog.mixedAndOr(chain: chain, text: text(of: chain)))
    }
    return .predicate(node)
  }

  /// `andPredicate ::= notPredicate ( ( "AND" | "&&" ) notPredicate )*`
  ///
  /// When this is a chain of two or more terms and `chain` is still nil, sets it to the range.
  mutating func parseAndPredicate(allowBareExpression: Bool, chain: inout SiftSourceRange?) throws(ParseFailure)
    -> Operand
  {
    let start = current.range.start
    let first = try parseNotPredicate(allowBareExpression: allowBareExpression)
    guard atAnd() else { return first }
    var terms: [PredicateNode] = []
    terms.reserveCapacity(4)
    terms.append(try requirePredicate(first))
    while atAnd() {
      skip()
      terms.append(try requirePredicate(try parseNotPredicate(allowBareExpression: false)))
    }
    let r = range(from: start)
    let node = PredicateNode(.and(terms), range: r, height: 1 + PredicateNode.maxHeight(terms))
    try checkHeight(node.height, r)
    if chain == nil { chain = r }
    return .predicate(node)
  }

  /// `notPredicate ::= ( "NOT" | "!" ) notPredicate | primaryPredicate`
  mutating func parseNotPredicate(allowBareExpression: Bool) throws(ParseFailure) -> Operand {
    if at(.not) || at(.bang) {
      let notToken = advance()
      let inner = try nested(at: notToken) { (p: inout Parser) throws(ParseFailure) in
        try p.requirePredicate(try p.parseNotPredicate(allowBareExpression: false))
      }
      let node = PredicateNode(.not(inner), range: range(from: notToken.range.start), height: 1 + inner.height)
      try checkHeight(node.height, node.range)
      return .predicate(node)
    }
    return try parsePrimaryPredicate(allowBareExpression: allowBareExpression)
  }

  /// ```
  /// primaryPredicate ::= "TRUEPREDICATE" | "FALSEPREDICATE"
  ///                    | "(" orPredicate ")"
  ///                    | comparison
  /// ```
  mutating func parsePrimaryPredicate(allowBareExpression: Bool) throws(ParseFailure) -> Operand {
    switch currentKind {
    case .keyword(.truePredicate), .keyword(.falsePredicate):
      let value = at(.truePredicate)
      let r = current.range
      skip()
      return .predicate(PredicateNode(.constant(value), range: r))
    case .punct(.leftParen):
      let open = current
      let inner = try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
        try p.parseParenthesized()
      }
      switch inner {
      case .predicate: return inner
      case .expression(let seed):
        let lhs = try parseExpression(seed: seed)
        return try parseComparison(quantifier: nil, lhs: lhs, allowBareExpression: allowBareExpression)
      }
    default:
      return try parseComparison(allowBareExpression: allowBareExpression)
    }
  }

  /// `"(" orPredicate ")"` where the content may also be an expression.
  mutating func parseParenthesized() throws(ParseFailure) -> Operand {
    let open = advance()
    let inner = try parseOrPredicate(allowBareExpression: true)
    let close = try expect(.rightParen, "to close '('", opening: open)
    switch inner {
    case .predicate(var p):
      p.range = open.range.union(close.range)
      return .predicate(p)
    case .expression(var e):
      widen(&e, to: open.range.union(close.range))
      return .expression(e)
    }
  }

  /// `comparison ::= [ quantifier ] expression comparisonOperator expression`
  mutating func parseComparison(allowBareExpression: Bool) throws(ParseFailure) -> Operand {
    var quantifier: SiftQuantifier?
    switch currentKind {
    case .keyword(.any), .keyword(.some): quantifier = .any
    case .keyword(.all): quantifier = .all
    case .keyword(.none): quantifier = SiftQuantifier.none
    default: break
    }
    if quantifier != nil { skip() }
    let lhs = try parseExpression()
    return try parseComparison(
      quantifier: quantifier, lhs: lhs, allowBareExpression: allowBareExpression && quantifier == nil)
  }

  /// The operator and right side of a comparison whose left side is already parsed.
  mutating func parseComparison(quantifier: SiftQuantifier?, lhs: ExpressionNode, allowBareExpression: Bool)
    throws(ParseFailure) -> Operand
  {
    let start = lhs.range.start
    guard let (op, options, opRange) = try parseComparisonOperator() else {
      if allowBareExpression { return .expression(lhs) }
      try failOnInvalidToken()
      throw ParseFailure(
        DiagnosticCatalog.expectedComparisonOperator(found: current, suggestion: operatorSuggestion()))
    }
    let rhs = try parseExpression()
    if isAtComparisonOperator() {
      throw ParseFailure(DiagnosticCatalog.chainedComparison(at: current.range, first: opRange))
    }
    let height = 1 + max(lhs.height, rhs.height)
    let comparison = SiftComparison(
      quantifier: quantifier, lhs: lhs, op: op, options: options, rhs: rhs, operatorRange: opRange)
    let node = PredicateNode(.comparison(comparison), range: range(from: start), height: height)
    try checkHeight(node.height, node.range)
    return .predicate(node)
  }

  /// ```
  /// comparisonOperator ::= ( "==" | "=" | "!=" | … | "BEGINSWITH" | … ) [ comparisonOptions ]
  /// ```
  /// (every spelling in Grammar/Predicate.ebnf; the words are the `Keyword`s whose
  /// `comparisonOperator` is set).
  mutating func parseComparisonOperator() throws(ParseFailure)
    -> (ComparisonOperator, ComparisonOptions, SiftSourceRange)?
  {
    guard let op = comparisonOperator(currentKind) else { return nil }
    let start = current.range.start
    skip()
    var options: ComparisonOptions = []
    if at(.leftBracket) { options = try parseComparisonOptions() }
    return (op, options, range(from: start))
  }

  /// `comparisonOptions ::= "[" optionLetters "]"` where the letters are any of `c d n l`.
  mutating func parseComparisonOptions() throws(ParseFailure) -> ComparisonOptions {
    let open = advance()
    let wordToken = current
    var word = ""
    switch wordToken.kind {
    case .identifier(let w): word = w
    case .keyword: word = text(of: wordToken.range)
    default:
      try failOnInvalidToken()
      throw ParseFailure(DiagnosticCatalog.unknownComparisonOption(text(of: wordToken.range), at: wordToken.range))
    }
    skip()
    var options: ComparisonOptions = []
    for ch in word.utf8 {
      switch ch | 0x20 {
      case UInt8(ascii: "c"): options.insert(.caseInsensitive)
      case UInt8(ascii: "d"): options.insert(.diacriticInsensitive)
      case UInt8(ascii: "n"): options.insert(.normalized)
      case UInt8(ascii: "l"): options.insert(.localeSensitive)
      default:
        throw ParseFailure(DiagnosticCatalog.unknownComparisonOption(word, at: wordToken.range))
      }
    }
    _ = try expect(.rightBracket, "to close the comparison options", opening: open)
    return options
  }

  // MARK: - Helpers

  func comparisonOperator(_ kind: TokenKind) -> ComparisonOperator? {
    switch kind {
    case .punct(.equal): return .equal
    case .punct(.notEqual): return .notEqual
    case .punct(.less): return .lessThan
    case .punct(.lessEqual): return .lessThanOrEqual
    case .punct(.greater): return .greaterThan
    case .punct(.greaterEqual): return .greaterThanOrEqual
    case .keyword(let k): return k.comparisonOperator
    default: return nil
    }
  }

  func isAtComparisonOperator() -> Bool { comparisonOperator(currentKind) != nil }

  func atAnd() -> Bool { at(.and) || at(.andAnd) }
  func atOr() -> Bool { at(.or) || at(.orOr) }

  func requirePredicate(_ operand: Operand) throws(ParseFailure) -> PredicateNode {
    switch operand {
    case .predicate(let p): return p
    case .expression:
      throw ParseFailure(DiagnosticCatalog.expectedComparisonOperator(found: current, suggestion: nil))
    }
  }

  /// "did you mean 'BEGINSWITH'?" for an identifier that looks like a misspelled operator.
  func operatorSuggestion() -> String? {
    guard case .identifier(let word) = currentKind else { return nil }
    // The operators spelled as one word, from the operator list itself (UTI-… has a hyphen).
    let names = ComparisonOperator.allCases.map(\.keyword).filter { $0.first?.isLetter == true && !$0.contains("-") }
    return Spelling.closest(to: word.uppercased(), in: names, maxDistance: 2)
  }
}
