extension Parser {
  /// ```
  /// primary ::= literal | "SELF" | keyPathStart | variable | formatArgument
  ///           | aggregate | "(" expression ")" | functionCall | functionExpression
  ///           | subqueryExpression | castExpression | ternaryExpression | "ANYKEY"
  /// literal ::= string | number | "NULL" | "NIL" | "TRUE" | "YES" | "FALSE" | "NO"
  /// ```
  mutating func parsePrimary() throws(ParseFailure) -> ExpressionNode {
    let r = current.range  // the token itself is copied only where a diagnostic needs it
    switch current.kind {
    case .string(let s):
      skip()
      return ExpressionNode(.constant(.string(s)), range: r, height: 1)
    case .integer(let magnitude):
      skip()
      let value: SiftValue = magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .double(Double(magnitude))
      return ExpressionNode(.constant(value), range: r, height: 1)
    case .double(let d):
      skip()
      return ExpressionNode(.constant(.double(d)), range: r, height: 1)
    case .variable(let name):
      skip()
      return ExpressionNode(.variable(name), range: r, height: 1)
    case .formatSpecifier(let text):
      return try parseFormatArgument(text)
    case .identifier(let name):
      if isFunctionCallAhead() { return try parseFunctionCall() }
      skip()
      guard at(.dot) else { return ExpressionNode(.keyPath(base: nil, SiftKeyPath([.key(name)])), range: r, height: 1) }
      // `a.b.c`: the keys after the dots go into one array here, instead of `parsePostfix`
      // extending (and so copying) the key path once per key.
      var components: [SiftKeyPath.Component] = []
      components.reserveCapacity(4)
      components.append(.key(name))
      var end = r
      // `a.%K` is left to `parsePostfix` (the key is an argument).
      while at(.dot), !isKeyArgumentAhead() {
        skip()
        let (component, componentRange) = try parseKeyComponent()
        components.append(component)
        end = componentRange
      }
      return ExpressionNode(.keyPath(base: nil, SiftKeyPath(components)), range: r.union(end), height: 1)
    case .atKey(let name):
      skip()
      let component = try collectionOperator(name, at: r)
      return ExpressionNode(.keyPath(base: nil, SiftKeyPath([component])), range: r, height: 1)
    case .punct(.leftBrace):
      return try parseAggregate()
    case .punct(.leftParen):
      return try nested(at: current) { (p: inout Parser) throws(ParseFailure) in
        let open = p.advance()
        var inner = try p.parseExpression()
        let close = try p.expect(.rightParen, "to close '('", opening: open)
        p.widen(&inner, to: open.range.union(close.range))
        return inner
      }
    case .keyword(let k):
      return try parseKeywordPrimary(k, current)
    case .invalid(let d):
      throw ParseFailure(d)
    default:
      throw ParseFailure(DiagnosticCatalog.expectedExpression(found: current))
    }
  }

  /// Primaries introduced by a reserved word: literals, SELF, SUBQUERY, FUNCTION, CAST, …
  mutating func parseKeywordPrimary(_ k: Keyword, _ t: Token) throws(ParseFailure) -> ExpressionNode {
    func constant(_ v: SiftValue, _ p: inout Parser) -> ExpressionNode {
      p.skip()
      return ExpressionNode(.constant(v), range: t.range, height: 1)
    }
    switch k {
    case .null, .nil_: return constant(.null, &self)
    case .true, .yes: return constant(.bool(true), &self)
    case .false, .no: return constant(.bool(false), &self)
    case .self:
      skip()
      return ExpressionNode(.evaluatedObject, range: t.range)
    case .anyKey:
      skip()
      return ExpressionNode(.anyKey, range: t.range)
    case .subquery: return try parseSubqueryExpression()
    case .function: return try parseFunctionExpression()
    case .cast: return try parseCastExpression()
    case .ternary: return try parseTernaryExpression()
    case .fetch:
      throw ParseFailure(DiagnosticCatalog.unsupportedFeature("FETCH expression", at: t.range))
    case .and, .or, .not, .any, .some, .all, .none, .truePredicate, .falsePredicate:
      throw ParseFailure(DiagnosticCatalog.expectedExpression(found: t))
    case _ where k.comparisonOperator != nil:
      throw ParseFailure(DiagnosticCatalog.expectedExpression(found: t))
    default:
      throw ParseFailure(DiagnosticCatalog.reservedWordAsKey(k, text: text(of: t.range), at: t.range))
    }
  }

  /// `formatArgument ::= "%@" | "%K" | printfSpecifier` — numbered in source order; replaced by
  /// its argument when the parser binds as it goes.
  mutating func parseFormatArgument(_ text: String) throws(ParseFailure) -> ExpressionNode {
    let t = advance()
    guard let spec = FormatSpecifier(text: text) else {
      throw ParseFailure(DiagnosticCatalog.literalPercent(at: t.range))
    }
    let position = argumentCount
    argumentCount += 1
    if let arguments, argumentFailure == nil {
      // Bound in place (see `Parser.parse(_:limits:arguments:)`); a failure is kept for
      // after the parse, so syntax errors still come first.
      do throws(ArgumentFailure) {
        return try ArgumentBinder.bind(spec, position: position, range: t.range, arguments)
      } catch {
        argumentFailure = error
      }
    }
    return ExpressionNode(.argument(spec, position: position), range: t.range)
  }

  /// Gives a parenthesised expression the range of its parentheses. `binding` reports an
  /// argument error at the `.argument` node's range, so when `e` is the specifier whose binding
  /// failed (left unbound), the kept failure widens with it: `(%K)` reports `(%K)`.
  mutating func widen(_ e: inout ExpressionNode, to range: SiftSourceRange) {
    if case .argument = e.kind, argumentFailure?.diagnostic.range == e.range {
      argumentFailure?.diagnostic.range = range
    }
    e.range = range
  }

  /// `aggregate ::= "{" [ expression ( "," expression )* ] "}"` — all-constant aggregates
  /// fold into one array constant.
  mutating func parseAggregate() throws(ParseFailure) -> ExpressionNode {
    let open = current
    return try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      p.skip()
      var items: [ExpressionNode] = []
      if !p.at(.rightBrace) {
        items.reserveCapacity(4)
        repeat {
          items.append(try p.parseExpression())
        } while p.eat(.comma) != nil
      }
      _ = try p.expect(.rightBrace, "to close '{'", opening: open)
      var constants: [SiftValue] = []
      constants.reserveCapacity(items.count)
      for item in items {
        guard case .constant(let v) = item.kind else {
          return try p.make(.aggregate(items), from: open.range.start)
        }
        constants.append(v)
      }
      return ExpressionNode(.constant(.array(constants)), range: p.range(from: open.range.start))
    }
  }

  /// True when an identifier starts a function call: `name(` or a selector `name:`.
  mutating func isFunctionCallAhead() -> Bool {
    switch peekKind() {
    case .punct(.leftParen), .punct(.colon): return true
    default: return false
    }
  }

  /// Parses a comma-separated argument list up to `)`; the `(` is already consumed.
  mutating func parseArgumentList(opening: Token) throws(ParseFailure) -> [ExpressionNode] {
    var args: [ExpressionNode] = []
    if !at(.rightParen) {
      repeat {
        args.append(try parseExpression())
      } while eat(.comma) != nil
    }
    _ = try expect(.rightParen, "to close the argument list", opening: opening)
    return args
  }
}
