/// A token of the format-string language. Produced by `Lexer`, consumed by `Parser`.
///
/// ```swift
/// let tokens = Lexer.tokenize("name == 'x'")
/// tokens.map(\.kind)   // [.identifier("name"), .punct(.equal), .string("x"), .end]
/// ```
package struct Token: Sendable, Hashable {
  /// The kind and payload.
  package var kind: TokenKind
  /// Where it stands in the source.
  package var range: SiftSourceRange
  /// True when whitespace precedes the token (used for `BEGINSWITH [c]` style hints).
  package var precededBySpace: Bool

  /// Creates a token.
  package init(_ kind: TokenKind, range: SiftSourceRange, precededBySpace: Bool = false) {
    self.kind = kind
    self.range = range
    self.precededBySpace = precededBySpace
  }
}

/// What a token is.
package enum TokenKind: Sendable, Hashable {
  /// A non-reserved word, or a reserved word escaped with `#` (the `#` is dropped).
  case identifier(String)
  /// A reserved word (case-insensitive in the source).
  case keyword(Keyword)
  /// A quoted string, escapes decoded.
  case string(String)
  /// An integer literal that fits in 64 bits (the magnitude; unary minus is separate).
  case integer(UInt64)
  /// A decimal or exponent literal.
  case double(Double)
  /// `$NAME`.
  case variable(String)
  /// `@name` (a collection operator or other `@` key).
  case atKey(String)
  /// A format specifier such as `%@`, `%K`, `%lld`; `%%` is kept as text `%%`.
  case formatSpecifier(String)
  /// Punctuation and operators.
  case punct(Punctuation)
  /// Something the lexer could not read; carries the diagnostic explaining why (boxed, so
  /// tokens stay small and cheap to copy).
  indirect case invalid(SiftDiagnostic)
  /// End of input.
  case end
}

/// Punctuation and operator tokens. Synonyms (`=` and `==`, `&&` and `AND`) are folded.
package enum Punctuation: String, Sendable, Hashable, CaseIterable {
  case leftParen = "("
  case rightParen = ")"
  case leftBrace = "{"
  case rightBrace = "}"
  case leftBracket = "["
  case rightBracket = "]"
  case comma = ","
  case dot = "."
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessEqual = "<="
  case greater = ">"
  case greaterEqual = ">="
  case plus = "+"
  case minus = "-"
  case star = "*"
  case slash = "/"
  case power = "**"
  case ampersand = "&"
  case pipe = "|"
  case caret = "^"
  case tilde = "~"
  case shiftLeft = "<<"
  case shiftRight = ">>"
  case andAnd = "&&"
  case orOr = "||"
  case bang = "!"
  case assign = ":="
  case colon = ":"
}

/// Reserved words. Matching is case-insensitive; `#word` escapes one into a key.
package enum Keyword: String, Sendable, Hashable, CaseIterable {
  case and = "AND", or = "OR", not = "NOT"
  case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
  case `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
  case like = "LIKE", matches = "MATCHES", between = "BETWEEN"
  case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"
  case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
  case null = "NULL", nil_ = "NIL"
  case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
  case `self` = "SELF", first = "FIRST", last = "LAST", size = "SIZE"
  case subquery = "SUBQUERY", function = "FUNCTION", cast = "CAST", ternary = "TERNARY"
  case anyKey = "ANYKEY"
  case union = "UNION", intersect = "INTERSECT", minus = "MINUS"
  case fetch = "FETCH", caseInsensitive = "CASEINSENSITIVE", ci = "CI"

  /// The canonical (upper-case) spelling.
  package var spelling: String { rawValue }

  /// Looks a word up case-insensitively.
  ///
  /// ```swift
  /// Keyword.lookup("beginsWith")   // .beginsWith
  /// ```
  package static func lookup(_ word: String) -> Keyword? {
    if word.utf8.contains(0x2D) { return Keyword(rawValue: word.uppercased()) }  // UTI-EQUALS, …
    var word = word
    return word.withUTF8 { Lexer.keyword(packing: $0) }
  }

  /// The comparison operator a keyword spells, if any.
  package var comparisonOperator: ComparisonOperator? {
    switch self {
    case .in: return .in
    case .contains: return .contains
    case .beginsWith: return .beginsWith
    case .endsWith: return .endsWith
    case .like: return .like
    case .matches: return .matches
    case .between: return .between
    case .utiConformsTo: return .utiConformsTo
    case .utiEquals: return .utiEquals
    default: return nil
    }
  }
}

extension TokenKind {
  /// How the token reads in a diagnostic: `'=='`, `string "x"`, `end of input`.
  package var displayName: String {
    switch self {
    case .identifier(let s): return "'\(s)'"
    case .keyword(let k): return "'\(k.spelling)'"
    case .string: return "string literal"
    case .integer, .double: return "number"
    case .variable(let v): return "'$\(v)'"
    case .atKey(let k): return "'@\(k)'"
    case .formatSpecifier(let s): return "'\(s)'"
    case .punct(let p): return "'\(p.rawValue)'"
    case .invalid: return "invalid token"
    case .end: return "end of input"
    }
  }
}
