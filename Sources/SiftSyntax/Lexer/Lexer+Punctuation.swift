extension Lexer {
  /// Operators and punctuation, folding synonyms: `=`→`==`, `<>`→`!=`, `=<`→`<=`,
  /// `=>`→`>=`. Comments, `?`, stray backslashes and other characters are invalid tokens.
  mutating func lexPunctuation() -> TokenKind {
    let start = position
    let b = bytes[position]
    let n = peek(1)
    func take(_ count: Int, _ p: Punctuation) -> TokenKind {
      position += count
      return .punct(p)
    }
    switch b {
    case UInt8(ascii: "("): return take(1, .leftParen)
    case UInt8(ascii: ")"): return take(1, .rightParen)
    case UInt8(ascii: "{"): return take(1, .leftBrace)
    case UInt8(ascii: "}"): return take(1, .rightBrace)
    case UInt8(ascii: "["): return take(1, .leftBracket)
    case UInt8(ascii: "]"): return take(1, .rightBracket)
    case UInt8(ascii: ","): return take(1, .comma)
    case UInt8(ascii: "."): return take(1, .dot)
    case UInt8(ascii: "+"): return take(1, .plus)
    case UInt8(ascii: "-"): return take(1, .minus)
    case UInt8(ascii: "^"): return take(1, .caret)
    case UInt8(ascii: "~"): return take(1, .tilde)
    case UInt8(ascii: "*"): return n == UInt8(ascii: "*") ? take(2, .power) : take(1, .star)
    case UInt8(ascii: "/"):
      if n == UInt8(ascii: "/") || n == UInt8(ascii: "*") {
        position += 2
        return .invalid(DiagnosticCatalog.commentsUnsupported(at: SiftSourceRange(start: start, end: position)))
      }
      return take(1, .slash)
    case UInt8(ascii: "&"): return n == UInt8(ascii: "&") ? take(2, .andAnd) : take(1, .ampersand)
    case UInt8(ascii: "|"): return n == UInt8(ascii: "|") ? take(2, .orOr) : take(1, .pipe)
    case UInt8(ascii: "!"): return n == UInt8(ascii: "=") ? take(2, .notEqual) : take(1, .bang)
    case UInt8(ascii: ":"): return n == UInt8(ascii: "=") ? take(2, .assign) : take(1, .colon)
    case UInt8(ascii: "="):
      if n == UInt8(ascii: "="), peek(2) == UInt8(ascii: "=") {
        position += 3
        return .invalid(DiagnosticCatalog.tripleEquals(at: SiftSourceRange(start: start, end: position)))
      }
      if n == UInt8(ascii: "=") { return take(2, .equal) }
      if n == UInt8(ascii: "<") { return take(2, .lessEqual) }
      if n == UInt8(ascii: ">") { return take(2, .greaterEqual) }
      return take(1, .equal)
    case UInt8(ascii: "<"):
      if n == UInt8(ascii: "=") { return take(2, .lessEqual) }
      if n == UInt8(ascii: ">") { return take(2, .notEqual) }
      if n == UInt8(ascii: "<") { return take(2, .shiftLeft) }
      return take(1, .less)
    case UInt8(ascii: ">"):
      if n == UInt8(ascii: "=") { return take(2, .greaterEqual) }
      if n == UInt8(ascii: ">") { return take(2, .shiftRight) }
      return take(1, .greater)
    default:
      break
    }
    // Anything else: one whole Unicode scalar (or one byte) is invalid.
    if b >= 0x80, let (_, len) = scalar(at: position) {
      position += len
    } else {
      position += 1
    }
    let text = string(start, position)
    return .invalid(DiagnosticCatalog.invalidCharacter(text, at: SiftSourceRange(start: start, end: position)))
  }
}
