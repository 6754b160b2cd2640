/// Every diagnostic Sift's syntax stage reports, in one place, alphabetical by name.
/// The `id` of each is its stable kebab-case name; messages are lower case without a period.
enum DiagnosticCatalog {
  static func chainedComparison(at range: SiftSourceRange, first: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .chainedComparison,
      message: "comparisons do not chain; combine them with AND (a < b AND b < c)",
      range: range, notes: [.init("first comparison operator is here", at: first)])
  }

  static func commentsUnsupported(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .commentsUnsupported, message: "comments are not supported in predicates", range: range)
  }

  static func emptyPredicate(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .emptyPredicate, message: "expected a predicate, but the input is empty",
      range: range, notes: [.init("TRUEPREDICATE matches everything")])
  }

  static func expectedComparisonOperator(found: Token, suggestion: String?) -> SiftDiagnostic {
    var fixIts: [SiftDiagnostic.FixIt] = []
    if let suggestion {
      fixIts.append(.init("did you mean '\(suggestion)'?", range: found.range, replacement: suggestion))
    }
    return SiftDiagnostic(
      id: .expectedComparisonOperator,
      message: "expected a comparison operator (==, <, BEGINSWITH, IN, …), found \(found.kind.displayName)",
      range: found.range, fixIts: fixIts)
  }

  static func expectedDigits(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .expectedDigits, message: "expected digits after the radix prefix", range: range)
  }

  static func expectedExpression(found: Token) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .expectedExpression,
      message: "expected an expression, found \(found.kind.displayName)", range: found.range)
  }

  static func expectedKeyAfterDot(found: Token) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .expectedKey,
      message: "expected a key or collection operator after '.', found \(found.kind.displayName)",
      range: found.range)
  }

  static func expectedKeyAfterHash(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .expectedKey, message: "expected a key after '#'", range: range)
  }

  static func expectedNameAfterSigil(_ sigil: Character, at range: SiftSourceRange) -> SiftDiagnostic {
    let what = sigil == "$" ? "a variable name after '$'" : "a collection operator name after '@'"
    return SiftDiagnostic(id: .expectedName, message: "expected \(what)", range: range)
  }

  static func expectedPunctuation(
    _ p: Punctuation, _ context: String, found: Token, opening: Token?
  ) -> SiftDiagnostic {
    var notes: [SiftDiagnostic.Note] = []
    if let opening {
      notes.append(.init("to match this '\(text(of: opening.kind))'", at: opening.range))
    }
    return SiftDiagnostic(
      id: punctuationID(p),
      message: "expected '\(p.rawValue)' \(context), found \(found.kind.displayName)",
      range: found.range, notes: notes,
      fixIts: [.init("insert '\(p.rawValue)'", range: .at(found.range.start), replacement: p.rawValue)])
  }

  static func expectedString(_ what: String, found: Token) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .expectedString, message: "expected \(what) in quotes, found \(found.kind.displayName)",
      range: found.range)
  }

  static func expectedSubqueryVariable(found: Token, text: String) -> SiftDiagnostic {
    var fixIts: [SiftDiagnostic.FixIt] = []
    if case .identifier = found.kind {
      fixIts.append(.init("write '$\(text)'", range: found.range, replacement: "$" + text))
    }
    return SiftDiagnostic(
      id: .expectedSubqueryVariable,
      message: "expected the SUBQUERY iterator variable (such as $x), found \(found.kind.displayName)",
      range: found.range, fixIts: fixIts)
  }

  static func inputTooLarge(size: Int, limit: Int, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .inputTooLarge,
      message: "the predicate is \(size) bytes, over the limit of \(limit) bytes", range: range)
  }

  static func integerOverflow(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .integerOverflow, message: "integer literal does not fit in 64 bits", range: range)
  }

  static func invalidCharacter(_ text: String, at range: SiftSourceRange) -> SiftDiagnostic {
    var notes: [SiftDiagnostic.Note] = []
    var message = "unexpected character '\(printable(text))'"
    if text == "?" {
      message = "'?' is not a valid token"
      notes.append(.init("pass values with %@ and a format argument, or $VARIABLE"))
    } else if text == "\\" {
      message = "a backslash is only valid inside a quoted string"
    }
    return SiftDiagnostic(id: .invalidCharacter, message: message, range: range, notes: notes)
  }

  static func invalidEscape(_ message: String, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .invalidEscape, message: "invalid escape sequence: \(message)", range: range)
  }

  static func invalidNumber(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .invalidNumber, message: "a number cannot be followed by letters", range: range)
  }

  static func literalPercent(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .literalPercent,
      message: "'%%' (a literal percent sign) is only meaningful inside a quoted string",
      range: range)
  }

  static func mixedAndOr(chain: SiftSourceRange, text: String) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .mixedAndOr, severity: .warning,
      message: "AND binds tighter than OR here; add parentheses to make the grouping explicit",
      range: chain,
      fixIts: [.init("parenthesize the AND group", range: chain, replacement: "(\(text))")])
  }

  static func nestingTooDeep(limit: Int, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .nestingTooDeep,
      message: "the predicate nests deeper than the limit of \(limit) levels", range: range)
  }

  static func reservedWordAsKey(_ k: Keyword, text: String, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .reservedWord,
      message: "'\(k.spelling)' is a reserved word and cannot be used as a key here",
      range: range,
      fixIts: [.init("write '#\(text)' to use it as a key", range: range, replacement: "#" + text)])
  }

  static func tripleEquals(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unknownOperator, message: "'===' is not an operator",
      range: range, fixIts: [.init("did you mean '=='?", range: range, replacement: "==")])
  }

  static func emptyExpression(at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .emptyExpression, message: "expected an expression, but the input is empty", range: range)
  }

  /// Something after a complete standalone expression; a comparison or AND/OR there means the
  /// text is a predicate.
  static func unexpectedAfterExpression(_ t: Token, isPredicate: Bool) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unexpectedToken,
      message: "unexpected \(t.kind.displayName) after a complete expression; expected an operator or the end",
      range: t.range,
      notes: isPredicate ? [.init("this is a predicate, not an expression: parse it with SiftPredicate(format:)")] : [])
  }

  static func unexpectedAfterPredicate(_ t: Token) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unexpectedToken,
      message: "unexpected \(t.kind.displayName) after a complete predicate; expected AND, OR or the end",
      range: t.range)
  }

  static func unknownCastType(_ name: String, suggestion: String?, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unknownCastType,
      message: "unknown CAST type \"\(name)\"; expected NSDate, NSNumber, NSString, NSDecimalNumber or NSArray",
      range: range, fixIts: suggestionFix(suggestion, range, quoted: true))
  }

  static func unknownCollectionOperator(_ name: String, suggestion: String?, at range: SiftSourceRange)
    -> SiftDiagnostic
  {
    SiftDiagnostic(
      id: .unknownCollectionOperator, message: "unknown collection operator '@\(name)'",
      range: range, fixIts: suggestionFix(suggestion.map { "@" + $0 }, range, quoted: false))
  }

  static func unknownComparisonOption(_ text: String, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unknownComparisonOption,
      message: "unknown comparison option '\(text)'; options are c (case), d (diacritics), n (normalized), l (locale)",
      range: range)
  }

  static func unknownFormatSpecifier(_ text: String, at range: SiftSourceRange) -> SiftDiagnostic {
    var fixIts: [SiftDiagnostic.FixIt] = []
    if text == "%k" { fixIts.append(.init("did you mean '%K'?", range: range, replacement: "%K")) }
    return SiftDiagnostic(
      id: .unknownFormatSpecifier,
      message: "unknown format specifier '\(printable(text))'; use %@ for values and %K for key paths",
      range: range, fixIts: fixIts)
  }

  static func unknownFunction(_ name: String, suggestion: String?, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unknownFunction, message: "unknown function '\(name)'",
      range: range, notes: [.init("FUNCTION(receiver, 'name', …) calls a function registered with the evaluator")],
      fixIts: suggestionFix(suggestion, range, quoted: false))
  }

  static func unsupportedFeature(_ what: String, at range: SiftSourceRange) -> SiftDiagnostic {
    SiftDiagnostic(id: .unsupportedFeature, message: "\(what) is not supported by Sift", range: range)
  }

  static func unterminatedString(at range: SiftSourceRange, quote: Character) -> SiftDiagnostic {
    SiftDiagnostic(
      id: .unterminatedString, message: "unterminated string literal",
      range: SiftSourceRange(start: range.start, end: range.start + 1),
      notes: [.init("the string starting here has no closing \(quote)", at: range)],
      fixIts: [.init("insert the closing \(quote)", range: .at(range.end), replacement: String(quote))])
  }

  static func wrongArgumentCount(function: String, expected: ClosedRange<Int>, found: Int, at range: SiftSourceRange)
    -> SiftDiagnostic
  {
    let want =
      expected.lowerBound == expected.upperBound
      ? "\(expected.lowerBound)" : "\(expected.lowerBound) to \(expected.upperBound)"
    return SiftDiagnostic(
      id: .wrongArgumentCount,
      message:
        "\(function) takes \(want) argument\(want == "1" ? "" : "s"), but \(found) \(found == 1 ? "was" : "were") given",
      range: range)
  }

  // MARK: - Helpers

  static func suggestionFix(_ suggestion: String?, _ range: SiftSourceRange, quoted: Bool) -> [SiftDiagnostic.FixIt] {
    guard let suggestion else { return [] }
    let replacement = quoted ? "\"\(suggestion)\"" : suggestion
    return [.init("did you mean '\(suggestion)'?", range: range, replacement: replacement)]
  }

  static func text(of kind: TokenKind) -> String {
    if case .punct(let p) = kind { return p.rawValue }
    return kind.displayName
  }

  static func punctuationID(_ p: Punctuation) -> DiagnosticID {
    switch p {
    case .rightParen: return .expectedClosingParen
    case .leftParen: return .expectedOpeningParen
    case .rightBrace: return .expectedClosingBrace
    case .rightBracket: return .expectedClosingBracket
    case .comma: return .expectedComma
    default: return .expectedPunctuation
    }
  }

  static func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "�" : Character($0) })
  }
}
