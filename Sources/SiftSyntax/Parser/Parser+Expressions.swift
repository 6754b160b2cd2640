/// Binding strength of the binary expression operators, weakest first (one grammar rule each).
enum BinaryLevel: Int {
  case set = 1, bitwise, additive, multiplicative, power
}

extension Parser {
  /// `expressionFormat ::= expression`: a whole format string that is one expression
  /// (`NSExpression(format:)`), such as `sum:(scores)` or `price * 1.2`.
  mutating func parseExpressionFormat() throws(ParseFailure) -> ExpressionNode {
    if case .end = currentKind {
      throw ParseFailure(DiagnosticCatalog.emptyExpression(at: current.range))
    }
    let e = try parseExpression()
    if case .end = currentKind { return e }
    try failOnInvalidToken()
    throw ParseFailure(
      DiagnosticCatalog.unexpectedAfterExpression(current, isPredicate: isAtComparisonOperator() || atAnd() || atOr()))
  }

  /// `expression ::= assignment | setExpression`
  mutating func parseExpression() throws(ParseFailure) -> ExpressionNode {
    if case .variable = currentKind, case .punct(.assign) = peekKind() {
      return try parseAssignment()
    }
    return try parseSetExpression()
  }

  /// An expression that starts with `seed`, an already-parsed parenthesised expression:
  /// postfix steps and binary operators may follow it.
  mutating func parseExpression(seed: consuming ExpressionNode) throws(ParseFailure) -> ExpressionNode {
    let first = try parsePostfix(after: seed)
    return try parseBinaryOperators(after: first, level: .set)
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

  // The five binary levels share one precedence-climbing loop (`parseBinaryOperators`), so an
  // operand with no operator after it (the common case) returns after a single token test
  // instead of passing through a function per level.

  /// `setExpression ::= bitwise ( ( "UNION" | "INTERSECT" | "MINUS" ) bitwise )*`
  mutating func parseSetExpression() throws(ParseFailure) -> ExpressionNode {
    try parseBinaryOperators(after: try parseUnary(), level: .set)
  }

  /// `bitwise ::= additive ( ( "&" | "|" | "^" | "<<" | ">>" ) additive )*`
  mutating func parseBitwise() throws(ParseFailure) -> ExpressionNode {
    try parseBinaryOperators(after: try parseUnary(), level: .bitwise)
  }

  /// `additive ::= multiplicative ( ( "+" | "-" ) multiplicative )*`
  mutating func parseAdditive() throws(ParseFailure) -> ExpressionNode {
    try parseBinaryOperators(after: try parseUnary(), level: .additive)
  }

  /// `multiplicative ::= power ( ( "*" | "/" ) power )*`
  mutating func parseMultiplicative() throws(ParseFailure) -> ExpressionNode {
    try parseBinaryOperators(after: try parseUnary(), level: .multiplicative)
  }

  /// `power ::= unary [ "**" power ]` (right-associative)
  mutating func parsePower() throws(ParseFailure) -> ExpressionNode {
    try parseBinaryOperators(after: try parseUnary(), level: .power)
  }

  /// The binary operator under the cursor and its level, or nil.
  func binaryOperator() -> (BinaryOperator, BinaryLevel)? {
    if case .keyword(let k) = currentKind {
      switch k {
      case .union: return (.union, .set)
      case .intersect: return (.intersect, .set)
      case .minus: return (.minus, .set)
      default: return nil
      }
    }
    guard case .punct(let p) = currentKind else { return nil }
    switch p {
    case .ampersand: return (.bitwiseAnd, .bitwise)
    case .pipe: return (.bitwiseOr, .bitwise)
    case .caret: return (.bitwiseXor, .bitwise)
    case .shiftLeft: return (.leftShift, .bitwise)
    case .shiftRight: return (.rightShift, .bitwise)
    case .plus: return (.add, .additive)
    case .minus: return (.subtract, .additive)
    case .star: return (.multiply, .multiplicative)
    case .slash: return (.divide, .multiplicative)
    case .power: return (.power, .power)
    default: return nil
    }
  }

  /// Applies the binary operators of `level` and stronger to `first`: the left-associative
  /// levels loop, each right operand parsed one level stronger; `**` recurses (right-
  /// associative), one nesting level per `**`.
  mutating func parseBinaryOperators(after first: consuming ExpressionNode, level: BinaryLevel)
    throws(ParseFailure) -> ExpressionNode
  {
    var lhs = first
    while let (op, opLevel) = binaryOperator(), opLevel.rawValue >= level.rawValue {
      if opLevel == .power {
        let opToken = advance()
        let exponent = try nested(at: opToken) { (p: inout Parser) throws(ParseFailure) in
          try p.parsePower()
        }
        lhs = try make(.binary(.power, lhs, exponent), from: lhs.range.start)
        continue
      }
      skip()
      let stronger = BinaryLevel(rawValue: opLevel.rawValue + 1) ?? .power
      let rhs = try parseBinaryOperators(after: try parseUnary(), level: stronger)
      lhs = try make(.binary(op, lhs, rhs), from: lhs.range.start, height: 1 + max(lhs.height, rhs.height))
    }
    return lhs
  }

  /// `unary ::= ( "-" | "~" ) unary | postfix`
  ///
  /// A minus directly before a number literal folds into a negative constant.
  mutating func parseUnary() throws(ParseFailure) -> ExpressionNode {
    if at(Punctuation.minus) || at(Punctuation.tilde) {
      let opToken = advance()
      let op: UnaryOperator = opToken.kind == .punct(.minus) ? .negate : .bitwiseNot
      if op == .negate, let literal = negativeLiteral(after: opToken) {
        return try parsePostfix(after: literal)
      }
      let operand = try nested(at: opToken) { (p: inout Parser) throws(ParseFailure) in
        try p.parseUnary()
      }
      return try make(.unary(op, operand), from: opToken.range.start)
    }
    return try parsePostfix()
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
  /// keyComponent ::= identifier | "@" identifier | "SELF" | "%K"
  /// index ::= expression | "FIRST" | "LAST" | "SIZE"
  /// ```
  /// `a.%K` applies the key path `%K` stands for to `a` (`%K.%K`, `$v.%K`, `a.%K.b`); until it
  /// is bound it is the subscript `a[%K]`, which binds the same way.
  mutating func parsePostfix() throws(ParseFailure) -> ExpressionNode {
    try parsePostfix(after: try parsePrimary())
  }

  /// The postfix steps (`.key`, `[index]`) applied to an already-parsed `base`.
  mutating func parsePostfix(after base: consuming ExpressionNode) throws(ParseFailure) -> ExpressionNode {
    var base = base
    while true {
      if at(.dot) {
        if isKeyArgumentAhead() {
          skip()
          base = try parseKeyArgument(after: base)
          continue
        }
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

  /// True at `.` followed by `%K`.
  mutating func isKeyArgumentAhead() -> Bool {
    guard at(.dot), case .formatSpecifier(let text) = peekKind() else { return false }
    return FormatSpecifier(text: text)?.expects == .keyPath
  }

  /// `base.%K` (the `.` is consumed): the bound key path applied to `base`, or, unbound, the
  /// subscript `base[%K]` that `ArgumentBinder` turns into the same key path.
  mutating func parseKeyArgument(after base: ExpressionNode) throws(ParseFailure) -> ExpressionNode {
    guard case .formatSpecifier(let text) = current.kind else {
      throw ParseFailure(DiagnosticCatalog.expectedKeyAfterDot(found: current))
    }
    let key = try parseFormatArgument(text)
    let node = ArgumentBinder.applyKey(key, to: base, range: base.range.union(key.range))
    try checkHeight(node.height, node.range)
    return node
  }

  /// One key after `.`: an identifier (or `#word`) or a collection operator `@name`.
  mutating func parseKeyComponent() throws(ParseFailure) -> (SiftKeyPath.Component, SiftSourceRange) {
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

  func collectionOperator(_ name: String, at range: SiftSourceRange) throws(ParseFailure) -> SiftKeyPath.Component {
    if let op = CollectionOperator(name: name) { return .operator(op) }
    let suggestion = Spelling.closest(to: name, in: CollectionOperator.allCases.map(\.rawValue), maxDistance: 3)
    throw ParseFailure(DiagnosticCatalog.unknownCollectionOperator(name, suggestion: suggestion, at: range))
  }

  /// Adds a key to a key path; on any other base it starts a key path applied to that base.
  func appendKey(_ component: (SiftKeyPath.Component, SiftSourceRange), to base: ExpressionNode)
    throws(ParseFailure) -> ExpressionNode
  {
    let r = base.range.union(component.1)
    switch base.kind {
    case .keyPath(let b, var kp):
      kp.components.append(component.0)
      return ExpressionNode(.keyPath(base: b, kp), range: r, height: base.height)
    case .evaluatedObject:
      return ExpressionNode(.keyPath(base: nil, SiftKeyPath([component.0])), range: r, height: 1)
    default:
      let node = ExpressionNode(.keyPath(base: base, SiftKeyPath([component.0])), range: r, height: 1 + base.height)
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
    } else if case .formatSpecifier(let text) = current.kind, FormatSpecifier(text: text)?.expects == .keyPath,
      case .punct(.rightBracket) = peekKind()
    {
      // `a[%K]` is `a.%K`: the key the argument names.
      let key = try parseFormatArgument(text)
      let close = try expect(.rightBracket, "to close '['", opening: open)
      let node = ArgumentBinder.applyKey(key, to: base, range: base.range.union(close.range))
      try checkHeight(node.height, node.range)
      return node
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
