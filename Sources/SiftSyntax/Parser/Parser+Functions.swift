import Foundation

/// A date from seconds since 2001-01-01 00:00:00 UTC (Foundation's reference date).
func referenceDate(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

extension Parser {
  /// ```
  /// functionCall ::= functionName "(" [ expression ( "," expression )* ] ")"
  /// functionName ::= identifier | ( identifier ":" )+
  /// ```
  /// Unknown names and wrong argument counts are parse errors. `objectFrom:withIndex:(a, i)` is
  /// Apple's spelling of `a[i]` and parses to the same node (a key path for a string `i`).
  mutating func parseFunctionCall() throws(ParseFailure) -> ExpressionNode {
    let start = current.range.start
    var spelling = ""
    while case .identifier(let part) = currentKind {
      skip()
      spelling += part
      guard eat(.colon) != nil else { break }
      spelling += ":"
    }
    let nameRange = range(from: start)
    if spelling == "castObject:toType:" && at(.leftParen) {
      // Apple's selector for CAST: the same node, so every engine answers alike.
      return try parseCastArguments(name: spelling, from: start)
    }
    guard at(.leftParen) else {
      try failOnInvalidToken()
      throw ParseFailure(
        DiagnosticCatalog.expectedPunctuation(.leftParen, "after function name", found: current, opening: nil))
    }
    let open = current
    let args = try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      p.skip()
      return try p.parseArgumentList(opening: open)
    }
    if spelling == "objectFrom:withIndex:" {
      // Apple's name for `array[index]`: the same node, so every engine answers alike.
      guard args.count == 2 else {
        throw ParseFailure(
          DiagnosticCatalog.wrongArgumentCount(
            function: spelling, expected: 2...2, found: args.count, at: range(from: start)))
      }
      if case .constant(.string(let key)) = args[1].kind {
        // A string index is a key, as `a["x"]` parses (and as binding `a[%@]` to text gives).
        return try appendKey((.key(key), range(from: start)), to: args[0])
      }
      return try make(.index(args[0], .expression(args[1])), from: start)
    }
    guard let function = BuiltinFunction(spelling: spelling, argumentCount: args.count) else {
      let names = BuiltinFunction.allCases.map(\.printedName) + BuiltinFunction.allCases.map(\.selector)
      let suggestion = Spelling.closest(to: spelling, in: names, maxDistance: 3)
      throw ParseFailure(DiagnosticCatalog.unknownFunction(spelling, suggestion: suggestion, at: nameRange))
    }
    if !function.arity.contains(args.count) {
      throw ParseFailure(
        DiagnosticCatalog.wrongArgumentCount(
          function: spelling, expected: function.arity, found: args.count, at: range(from: start)))
    }
    return try make(.function(function, args), from: start)
  }

  /// `functionExpression ::= "FUNCTION" "(" expression "," string ( "," expression )* ")"`
  mutating func parseFunctionExpression() throws(ParseFailure) -> ExpressionNode {
    let keyword = advance()
    let open = try expect(.leftParen, "after FUNCTION")
    return try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      let receiver = try p.parseExpression()
      _ = try p.expect(.comma, "after the FUNCTION receiver")
      guard case .string(let selector) = p.currentKind else {
        try p.failOnInvalidToken()
        throw ParseFailure(DiagnosticCatalog.expectedString("a selector name", found: p.current))
      }
      p.skip()
      var args: [ExpressionNode] = []
      while p.eat(.comma) != nil { args.append(try p.parseExpression()) }
      _ = try p.expect(.rightParen, "to close FUNCTION(", opening: open)
      return try p.make(
        .customFunction(receiver: receiver, selector: selector, arguments: args), from: keyword.range.start)
    }
  }

  /// `subqueryExpression ::= "SUBQUERY" "(" expression "," variable "," orPredicate ")"`
  mutating func parseSubqueryExpression() throws(ParseFailure) -> ExpressionNode {
    let keyword = advance()
    let open = try expect(.leftParen, "after SUBQUERY")
    return try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      let collection = try p.parseExpression()
      _ = try p.expect(.comma, "after the SUBQUERY collection")
      guard case .variable(let name) = p.currentKind else {
        try p.failOnInvalidToken()
        throw ParseFailure(
          DiagnosticCatalog.expectedSubqueryVariable(found: p.current, text: p.text(of: p.current.range)))
      }
      p.skip()
      _ = try p.expect(.comma, "after the SUBQUERY variable")
      let predicate = try p.requirePredicate(try p.parseOrPredicate(allowBareExpression: false))
      _ = try p.expect(.rightParen, "to close SUBQUERY(", opening: open)
      return try p.make(
        .subquery(collection: collection, variable: name, predicate: predicate), from: keyword.range.start)
    }
  }

  /// `castExpression ::= "CAST" "(" expression "," string ")"` — `CAST(<number>, "NSDate")`
  /// folds into a date constant (seconds since 2001-01-01 00:00:00 UTC), and so does Sift's
  /// extension `CAST("2024-03-01T09:30:00Z", "NSDate")` (ISO-8601 text, `SiftDateText`).
  mutating func parseCastExpression() throws(ParseFailure) -> ExpressionNode {
    let keyword = advance()
    return try parseCastArguments(name: "CAST", from: keyword.range.start)
  }

  /// `"(" expression "," string ")"` after `CAST` or Apple's `castObject:toType:` (the same
  /// function), which starts at `start`.
  mutating func parseCastArguments(
    name: String, from start: Int
  ) throws(ParseFailure) -> ExpressionNode {
    let open = try expect(.leftParen, "after \(name)")
    return try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      let value = try p.parseExpression()
      _ = try p.expect(.comma, "after the \(name) value")
      let typeToken = p.current
      guard case .string(let className) = typeToken.kind else {
        try p.failOnInvalidToken()
        throw ParseFailure(DiagnosticCatalog.expectedString("a class name such as \"NSNumber\"", found: typeToken))
      }
      guard let type = CastType(className: className) else {
        let suggestion = Spelling.closest(to: className, in: CastType.allCases.map(\.rawValue), maxDistance: 3)
        throw ParseFailure(DiagnosticCatalog.unknownCastType(className, suggestion: suggestion, at: typeToken.range))
      }
      p.skip()
      _ = try p.expect(.rightParen, "to close \(name)(", opening: open)
      if type == .date, case .constant(let v) = value.kind {
        if let seconds = v.numericSeconds {
          return ExpressionNode(.constant(.date(referenceDate(seconds))), range: p.range(from: start))
        }
        // Other text stays a CAST (as a bound argument would): evaluation and SQL refuse it
        // with `invalid-cast` at the CAST, and the printed form parses back to the same tree.
        if case .string(let text) = v, let date = SiftDateText.parse(text) {
          return ExpressionNode(.constant(.date(date)), range: p.range(from: start))
        }
      }
      return try p.make(.cast(value, type), from: start)
    }
  }

  /// `ternaryExpression ::= "TERNARY" "(" orPredicate "," expression "," expression ")"`
  mutating func parseTernaryExpression() throws(ParseFailure) -> ExpressionNode {
    let keyword = advance()
    let open = try expect(.leftParen, "after TERNARY")
    return try nested(at: open) { (p: inout Parser) throws(ParseFailure) in
      let condition = try p.requirePredicate(try p.parseOrPredicate(allowBareExpression: false))
      _ = try p.expect(.comma, "after the TERNARY condition")
      let whenTrue = try p.parseExpression()
      _ = try p.expect(.comma, "after the TERNARY true value")
      let whenFalse = try p.parseExpression()
      _ = try p.expect(.rightParen, "to close TERNARY(", opening: open)
      return try p.make(.ternary(condition, whenTrue, whenFalse), from: keyword.range.start)
    }
  }
}

extension SiftValue {
  /// The payload of an integer or double as seconds (for `CAST(n, "NSDate")` folding).
  var numericSeconds: Double? {
    switch self {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }
}
