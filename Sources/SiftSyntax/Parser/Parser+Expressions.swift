extension Parser {
  /// `expression ::= assignment | bitwise`
  ///
  /// `seed` is an already-parsed parenthesised expression that starts this expression.
  mutating func parseExpression(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    if seed == nil, case .variable = currentKind, case .punct(.assign) = peekKind() {
      return try parseAssignment()
    }
    return try parseBitwise(seed: seed)
  }

  /// `assignment ::= variable ":=" expression`
  mutating func parseAssignment() throws(ParseFailure) -> ExpressionNode {
    let variableToken = advance()
    guard case .variable(let name) = variableToken.kind else {
      throw ParseFailure(DiagnosticCatalog.expectedExpression(found: variableToken))
    }
    skip()  // :=
    let value = try nested(at: variableToken) { (p: inout Parser) throws(ParseFailure) in
      try p.parseExpression()
    }
    return try make(.assignment(variable: name, value), from: variableToken.range.start)
  }

  /// `bitwise ::= additive ( ( "&" | "|" | "^" | "<<" | ">>" ) additive )*`
  mutating func parseBitwise(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    var lhs = try parseAdditive(seed: seed)
    while true {
      let op: BinaryOperator
      switch currentKind {
      case .punct(.ampersand): op = .bitwiseAnd
      case .punct(.pipe): op = .bitwiseOr
      case .punct(.caret): op = .bitwiseXor
      case .punct(.shiftLeft): op = .leftShift
      case .punct(.shiftRight): op = .rightShift
      case .keyword(let k) where k == .union || k == .intersect || k == .minus:
        throw ParseFailure(DiagnosticCatalog.unsupportedFeature("set expression '\(k.spelling)'", at: current.range))
      default: return lhs
      }
      skip()
      let rhs = try parseAdditive()
      lhs = try make(.binary(op, lhs, rhs), from: lhs.range.start, height: 1 + max(lhs.height, rhs.height))
    }
  }

  /// `additive ::= multiplicative ( ( "+" | "-" ) multiplicative )*`
  mutating func parseAdditive(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    var lhs = try parseMultiplicative(seed: seed)
    while true {
      let op: BinaryOperator
      switch currentKind {
      case .punct(.plus): op = .add
      case .punct(.minus): op = .subtract
      default: return lhs
      }
      skip()
      let rhs = try parseMultiplicative()
      lhs = try make(.binary(op, lhs, rhs), from: lhs.range.start, height: 1 + max(lhs.height, rhs.height))
    }
  }

  /// `multiplicative ::= power ( ( "*" | "/" ) power )*`
  mutating func parseMultiplicative(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    var lhs = try parsePower(seed: seed)
    while true {
      let op: BinaryOperator
      switch currentKind {
      case .punct(.star): op = .multiply
      case .punct(.slash): op = .divide
      default: return lhs
      }
      skip()
      let rhs = try parsePower()
      lhs = try make(.binary(op, lhs, rhs), from: lhs.range.start, height: 1 + max(lhs.height, rhs.height))
    }
  }

  /// `power ::= unary [ "**" power ]` (right-associative)
  mutating func parsePower(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    let base = try parseUnary(seed: seed)
    guard at(.power) else { return base }
    let opToken = advance()
    let exponent = try nested(at: opToken) { (p: inout Parser) throws(ParseFailure) in
      try p.parsePower()
    }
    return try make(.binary(.power, base, exponent), from: base.range.start)
  }

  /// `unary ::= ( "-" | "~" ) unary | postfix`
  ///
  /// A minus directly before a number literal folds into a negative constant.
  mutating func parseUnary(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    if seed == nil, at(Punctuation.minus) || at(Punctuation.tilde) {
      let opToken = advance()
      let op: UnaryOperator = opToken.kind == .punct(.minus) ? .negate : .bitwiseNot
      if op == .negate, let literal = negativeLiteral(after: opToken) {
        return try parsePostfix(seed: literal)
      }
      let operand = try nested(at: opToken) { (p: inout Parser) throws(ParseFailure) in
        try p.parseUnary()
      }
      return try make(.unary(op, operand), from: opToken.range.start)
    }
    return try parsePostfix(seed: seed)
  }

  /// Folds `-<number>` into one constant, including `-9223372036854775808`.
  mutating func negativeLiteral(after minus: Token) -> ExpressionNode? {
    let value: SiftValue
    switch currentKind {
    case .integer(let magnitude):
      if magnitude <= UInt64(Int64.max) {
        value = .int(-Int64(magnitude))
      } else {
        value = .int(Int64.min)
      }
    case .double(let d): value = .double(-d)
    default: return nil
    }
    let token = advance()
    return ExpressionNode(.constant(value), range: minus.range.union(token.range))
  }

  /// ```
  /// postfix ::= primary ( "." keyComponent | "[" index "]" )*
  /// keyComponent ::= identifier | "@" identifier
  /// index ::= expression | "FIRST" | "LAST" | "SIZE"
  /// ```
  mutating func parsePostfix(seed: ExpressionNode? = nil) throws(ParseFailure) -> ExpressionNode {
    var base: ExpressionNode
    if let seed { base = seed } else { base = try parsePrimary() }
    while true {
      if at(.dot) {
        skip()
        let component = try parseKeyComponent()
        base = try appendKey(component, to: base)
      } else if at(.leftBracket) {
        base = try parseIndex(base)
      } else {
        return base
      }
    }
  }

  /// One key after `.`: an identifier (or `#word`) or a collection operator `@name`.
  mutating func parseKeyComponent() throws(ParseFailure) -> (KeyPath.Component, SourceRange) {
    let r = current.range
    switch current.kind {
    case .identifier(let name):
      skip()
      return (.key(name), r)
    case .atKey(let name):
      skip()
      return (try collectionOperator(name, at: r), r)
    case .keyword(.self):
      // KVC's `self` key: `scores.@sum.self`.
      skip()
      return (.key("self"), r)
    case .keyword(let k):
      throw ParseFailure(DiagnosticCatalog.reservedWordAsKey(k, text: text(of: r), at: r))
    default:
      try failOnInvalidToken()
      throw ParseFailure(DiagnosticCatalog.expectedKeyAfterDot(found: current))
    }
  }

  func collectionOperator(_ name: String, at range: SourceRange) throws(ParseFailure) -> KeyPath.Component {
    if let op = CollectionOperator(name: name) { return .operator(op) }
    let suggestion = Spelling.closest(to: name, in: CollectionOperator.allCases.map(\.rawValue), maxDistance: 3)
    throw ParseFailure(DiagnosticCatalog.unknownCollectionOperator(name, suggestion: suggestion, at: range))
  }

  /// Adds a key to a key path; on any other base it starts a key path applied to that base.
  func appendKey(_ component: (KeyPath.Component, SourceRange), to base: ExpressionNode)
    throws(ParseFailure) -> ExpressionNode
  {
    let r = base.range.union(component.1)
    switch base.kind {
    case .keyPath(let b, var kp):
      kp.components.append(component.0)
      return ExpressionNode(.keyPath(base: b, kp), range: r, height: base.height)
    case .evaluatedObject:
      return ExpressionNode(.keyPath(base: nil, KeyPath([component.0])), range: r, height: 1)
    default:
      let node = ExpressionNode(.keyPath(base: base, KeyPath([component.0])), range: r, height: 1 + base.height)
      try checkHeight(node.height, r)
      return node
    }
  }

  mutating func parseIndex(_ base: ExpressionNode) throws(ParseFailure) -> ExpressionNode {
    let open = advance()
    let index: IndexKind
    if let _ = eat(.first) {
      index = .first
    } else if let _ = eat(.last) {
      index = .last
    } else if let _ = eat(.size) {
      index = .size
    } else {
      let e = try nested(at: open) { (p: inout Parser) throws(ParseFailure) in try p.parseExpression() }
      if case .constant(.string(let key)) = e.kind {
        let close = try expect(.rightBracket, "to close '['", opening: open)
        return try appendKey((.key(key), close.range), to: base)
      }
      index = .expression(e)
    }
    _ = try expect(.rightBracket, "to close '['", opening: open)
    return try make(.index(base, index), from: base.range.start)
  }

  /// Builds a node ending at the previous token, enforcing the depth limit.
  func make(_ kind: ExpressionNode.Kind, from start: Int) throws(ParseFailure) -> ExpressionNode {
    let node = ExpressionNode(kind, range: range(from: start))
    try checkHeight(node.height, node.range)
    return node
  }

  /// `make` when the parser already knows the node's height.
  func make(_ kind: ExpressionNode.Kind, from start: Int, height: Int) throws(ParseFailure) -> ExpressionNode {
    let r = range(from: start)
    try checkHeight(height, r)
    return ExpressionNode(kind, range: r, height: height)
  }
}
