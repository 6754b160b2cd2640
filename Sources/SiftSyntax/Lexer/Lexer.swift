/// Turns format-string text into tokens. The lexer never throws: bad input becomes an
/// `.invalid` token carrying its diagnostic, and the parser reports it when it gets there.
///
/// ```swift
/// let tokens = Lexer.tokenize("ANY tags BEGINSWITH[c] %@")
/// ```
package struct Lexer {
  /// The source bytes; valid only inside `tokenize`, which owns the storage.
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var sawSpace = false
  /// The keyword table, read once per lexer (a global's lazy-initialization check per word costs
  /// about as much as the lookup itself).
  let keywords = KeywordTable.shared

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// All tokens of `source`, ending with one `.end` token.
  package static func tokenize(_ source: String) -> [Token] {
    var text = source
    return text.withUTF8 { buffer in
      var lexer = Lexer(bytes: buffer)
      var tokens: [Token] = []
      tokens.reserveCapacity(buffer.count / 4 + 2)
      while true {
        let t = lexer.next()
        tokens.append(t)
        if case .end = t.kind { break }
      }
      return tokens
    }
  }

  /// The next token.
  mutating func next() -> Token {
    skipWhitespace()
    let space = sawSpace
    sawSpace = false
    let start = position
    guard position < bytes.count else {
      return Token(.end, range: .at(bytes.count), precededBySpace: space)
    }
    let kind = lexToken()
    return Token(kind, range: SiftSourceRange(start: start, end: position), precededBySpace: space)
  }

  // MARK: - Character classes

  @inline(__always) func peek(_ ahead: Int = 0) -> UInt8? {
    let i = position + ahead
    return i < bytes.count ? bytes[i] : nil
  }

  @inline(__always) static func isIdentifierStart(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F
  }

  /// `[A-Za-z0-9_]`, as a bit test: bits 0x30–0x39 of the first mask, 0x41–0x5A, 0x5F and
  /// 0x61–0x7A of the second (offset by 64).
  @inline(__always) static func isIdentifierContinue(_ b: UInt8) -> Bool {
    if b < 64 { return (0x03FF_0000_0000_0000 as UInt64) &>> UInt64(b) & 1 != 0 }
    return b < 128 && (0x07FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(b &- 64) & 1 != 0
  }

  /// ASCII upper case of `b` (other bytes unchanged).
  @inline(__always) static func upperCased(_ b: UInt8) -> UInt8 { b &- 0x61 < 26 ? b &- 0x20 : b }

  @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  /// Decodes the Unicode scalar starting at `index` (for non-ASCII input); returns it and
  /// its length in bytes. Input comes from a Swift `String`, so it is valid UTF-8.
  func scalar(at index: Int) -> (Unicode.Scalar, Int)? {
    guard index < bytes.count else { return nil }
    var iterator = bytes[index...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let s) = decoder.decode(&iterator) {
      return (s, UTF8.width(s))
    }
    return nil
  }

  static func isUnicodeIdentifierStart(_ s: Unicode.Scalar) -> Bool {
    s.properties.isAlphabetic
  }

  static func isUnicodeIdentifierContinue(_ s: Unicode.Scalar) -> Bool {
    let p = s.properties
    return p.isAlphabetic || p.numericType != nil
      || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      let b = bytes[position]
      if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C {
        position += 1
        sawSpace = true
      } else if b >= 0x80, let len = unicodeWhitespaceLength(at: position) {
        position += len
        sawSpace = true
      } else {
        return
      }
    }
  }

  /// The length of the Unicode whitespace scalar at `index`, or nil (kept out of line, so the
  /// ASCII loop does not set up Unicode property lookups).
  @inline(never) func unicodeWhitespaceLength(at index: Int) -> Int? {
    guard let (s, len) = scalar(at: index), s.properties.isWhitespace else { return nil }
    return len
  }

  /// True when a Unicode identifier starts at `index` (out of line, as above).
  @inline(never) func isUnicodeIdentifierStart(at index: Int) -> Bool {
    guard let (s, _) = scalar(at: index) else { return false }
    return Lexer.isUnicodeIdentifierStart(s)
  }

  // MARK: - Dispatch

  mutating func lexToken() -> TokenKind {
    let b = bytes[position]
    if Lexer.isIdentifierStart(b) { return lexWord() }
    if Lexer.isDigit(b) { return lexNumber() }
    switch b {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): return lexString(quote: b)
    case UInt8(ascii: "%"): return lexFormatSpecifier()
    case UInt8(ascii: "$"): return lexPrefixedName(kind: "$")
    case UInt8(ascii: "@"): return lexPrefixedName(kind: "@")
    case UInt8(ascii: "#"): return lexEscapedWord()
    default: break
    }
    if b >= 0x80, isUnicodeIdentifierStart(at: position) {
      return lexWord()
    }
    return lexPunctuation()
  }

  /// The source text from byte `start` to `end` (as `String(decoding:as:)`, repairing invalid
  /// UTF-8; a short ASCII run becomes a small string without a validation pass).
  @inline(__always) func string(_ start: Int, _ end: Int) -> String {
    let source = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    return String(unsafeUninitializedCapacity: source.count) { buffer in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
      return source.count
    }
  }

  /// Reads identifier characters (ASCII or Unicode letters/digits) from `position`.
  mutating func readIdentifierText() -> String {
    let start = position
    skipIdentifierCharacters()
    return string(start, position)
  }

  /// A word: a keyword or an identifier. ASCII words are scanned and packed for the keyword
  /// lookup (`KeywordTable.keyword(low:high:)`) in one pass; a word with a non-ASCII letter is an identifier.
  mutating func lexWord() -> TokenKind {
    let start = position
    let n = bytes.count
    var i = position
    var low: UInt64 = 0  // bytes 0–7, upper-cased, as keyword(packing:)
    var high: UInt64 = 0  // bytes 8–15
    scan: do {
      var shift: UInt64 = 0
      while shift < 64 {
        guard i < n, Lexer.isIdentifierContinue(bytes[i]) else { break scan }
        low |= UInt64(Lexer.upperCased(bytes[i])) &<< shift
        shift &+= 8
        i &+= 1
      }
      shift = 0
      while shift < 64 {
        guard i < n, Lexer.isIdentifierContinue(bytes[i]) else { break scan }
        high |= UInt64(Lexer.upperCased(bytes[i])) &<< shift
        shift &+= 8
        i &+= 1
      }
      while i < n, Lexer.isIdentifierContinue(bytes[i]) { i &+= 1 }  // too long for a keyword
    }
    position = i
    if i < bytes.count, bytes[i] >= 0x80 {
      skipIdentifierCharacters()
      if position != i { return .identifier(string(start, position)) }
    }
    let length = i - start
    if length == 3, low == 0x495455, let uti = utiKeyword() { return .keyword(uti) }  // UTI-…
    if length >= 2, length <= 16, let keyword = keywords.keyword(low: low, high: high) { return .keyword(keyword) }
    return .identifier(string(start, position))
  }

  /// Advances over identifier characters (ASCII or Unicode letters/digits).
  mutating func skipIdentifierCharacters() {
    while position < bytes.count {
      let b = bytes[position]
      if Lexer.isIdentifierContinue(b) {
        position += 1
      } else if b >= 0x80, let len = unicodeIdentifierContinueLength(at: position) {
        position += len
      } else {
        break
      }
    }
  }

  /// The length of the Unicode identifier scalar at `index`, or nil (out of line, as above).
  @inline(never) func unicodeIdentifierContinueLength(at index: Int) -> Int? {
    guard let (s, len) = scalar(at: index), Lexer.isUnicodeIdentifierContinue(s) else { return nil }
    return len
  }

  /// After the word `UTI` (any case): `-CONFORMS-TO` or `-EQUALS` makes it the hyphenated UTI
  /// operator, consumed here.
  mutating func utiKeyword() -> Keyword? {
    for (suffix, keyword) in [("-CONFORMS-TO", Keyword.utiConformsTo), ("-EQUALS", .utiEquals)] {
      if matchesUppercase(suffix, at: position) {
        let end = position + suffix.utf8.count
        if end >= bytes.count || !Lexer.isIdentifierContinue(bytes[end]) {
          position = end
          return keyword
        }
      }
    }
    return nil
  }

  func matchesUppercase(_ text: String, at index: Int) -> Bool {
    var i = index
    for c in text.utf8 {
      guard i < bytes.count else { return false }
      let b = bytes[i]
      let up = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
      if up != c { return false }
      i += 1
    }
    return true
  }

  /// `#word`: a reserved word (or any identifier) used as a key.
  mutating func lexEscapedWord() -> TokenKind {
    let hashAt = position
    position += 1
    guard let b = peek(), Lexer.isIdentifierStart(b) || b >= 0x80 else {
      return .invalid(
        DiagnosticCatalog.expectedKeyAfterHash(at: SiftSourceRange(start: hashAt, end: position)))
    }
    let word = readIdentifierText()
    if word.isEmpty {
      return .invalid(
        DiagnosticCatalog.expectedKeyAfterHash(at: SiftSourceRange(start: hashAt, end: position)))
    }
    return .identifier(word)
  }

  /// `$NAME` (variables; `$#name` also accepted) and `@name` (collection operators).
  mutating func lexPrefixedName(kind: Character) -> TokenKind {
    let sigilAt = position
    position += 1
    if kind == "$", peek() == UInt8(ascii: "#") { position += 1 }
    guard let b = peek(), Lexer.isIdentifierStart(b) || b >= 0x80 else {
      return .invalid(
        DiagnosticCatalog.expectedNameAfterSigil(
          kind, at: SiftSourceRange(start: sigilAt, end: position)))
    }
    let name = readIdentifierText()
    if name.isEmpty {
      return .invalid(
        DiagnosticCatalog.expectedNameAfterSigil(
          kind, at: SiftSourceRange(start: sigilAt, end: position)))
    }
    return kind == "$" ? .variable(name) : .atKey(name)
  }
}
