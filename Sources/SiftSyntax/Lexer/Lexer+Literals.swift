extension Lexer {
  // MARK: - Numbers

  /// Integers (decimal, `0x`, `0o`, `0b`), decimals and exponents. A decimal integer too
  /// large for 64 bits becomes a double; a radix literal too large is an error.
  mutating func lexNumber() -> TokenKind {
    let start = position
    if bytes[position] == UInt8(ascii: "0"), let p = peek(1) {
      let radix: UInt64?
      switch p | 0x20 {
      case UInt8(ascii: "x"): radix = 16
      case UInt8(ascii: "o"): radix = 8
      case UInt8(ascii: "b"): radix = 2
      default: radix = nil
      }
      if let radix { return lexRadixNumber(radix: radix, start: start) }
    }
    while let b = peek(), Lexer.isDigit(b) { position += 1 }
    var isDouble = false
    if peek() == UInt8(ascii: "."), let d = peek(1), Lexer.isDigit(d) {
      isDouble = true
      position += 1
      while let b = peek(), Lexer.isDigit(b) { position += 1 }
    }
    if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
      var look = 1
      if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { look = 2 }
      if let d = peek(look), Lexer.isDigit(d) {
        isDouble = true
        position += look
        while let b = peek(), Lexer.isDigit(b) { position += 1 }
      }
    }
    if let trailing = trailingIdentifierCharacter() { return trailing(start) }
    let text = string(start, position)
    if !isDouble, let value = UInt64(text), value <= UInt64(Int64.max) + 1 {
      return .integer(value)
    }
    return .double(Double(text) ?? .infinity)
  }

  mutating func lexRadixNumber(radix: UInt64, start: Int) -> TokenKind {
    position += 2
    var value: UInt64 = 0
    var digits = 0
    var overflow = false
    while let b = peek() {
      let digit: UInt64
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(b - 0x61 + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(b - 0x41 + 10)
      default: digit = 99
      }
      guard digit < radix else { break }
      let (m, o1) = value.multipliedReportingOverflow(by: radix)
      let (s, o2) = m.addingReportingOverflow(digit)
      overflow = overflow || o1 || o2
      value = s
      digits += 1
      position += 1
    }
    if let trailing = trailingIdentifierCharacter() { return trailing(start) }
    let range = SiftSourceRange(start: start, end: position)
    if digits == 0 { return .invalid(DiagnosticCatalog.expectedDigits(at: range)) }
    if overflow || value > UInt64(Int64.max) + 1 {
      return .invalid(DiagnosticCatalog.integerOverflow(at: range))
    }
    return .integer(value)
  }

  /// A letter glued to a number (`12abc`, `0x1G`) makes the whole run invalid.
  mutating func trailingIdentifierCharacter() -> ((Int) -> TokenKind)? {
    guard let b = peek() else { return nil }
    let glued =
      Lexer.isIdentifierStart(b)
      || (b >= 0x80
        && scalar(at: position).map {
          Lexer.isUnicodeIdentifierStart($0.0)
        } ?? false)
    guard glued else { return nil }
    _ = readIdentifierText()
    let end = position
    return { start in .invalid(DiagnosticCatalog.invalidNumber(at: SiftSourceRange(start: start, end: end))) }
  }

  // MARK: - Strings

  /// `"…"` or `'…'`. Escapes: `\n \t \r \0 \a \b \f \v \\ \" \'`, `\uXXXX` and `\UXXXX`
  /// (surrogate pairs combine), `\xHH`, octal `\ddd`. Any other backslash pair is kept as
  /// written, so regular expressions (`\d`) and LIKE escapes (`\*`) read naturally.
  mutating func lexString(quote: UInt8) -> TokenKind {
    let start = position
    position += 1
    // Fast path: no escapes before the closing quote.
    var end = position
    while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "\\") { end += 1 }
    if end < bytes.count, bytes[end] == quote {
      let text = string(position, end)
      position = end + 1
      return .string(text)
    }
    var scalars = String.UnicodeScalarView()
    var runStart = position
    func flush(_ lexer: Lexer, _ upTo: Int) {
      if upTo > runStart {
        scalars.append(contentsOf: String(decoding: lexer.bytes[runStart..<upTo], as: UTF8.self).unicodeScalars)
      }
    }
    while position < bytes.count {
      let b = bytes[position]
      if b == quote {
        flush(self, position)
        position += 1
        return .string(String(scalars))
      }
      if b == UInt8(ascii: "\\") {
        flush(self, position)
        let escapeStart = position
        position += 1
        switch decodeEscape() {
        case .scalar(let s): scalars.append(s)
        case .verbatim(let text): scalars.append(contentsOf: text.unicodeScalars)
        case .error(let message):
          let range = SiftSourceRange(start: escapeStart, end: position)
          skipToClosingQuote(quote)
          return .invalid(DiagnosticCatalog.invalidEscape(message, at: range))
        }
        runStart = position
        continue
      }
      position += 1
    }
    let range = SiftSourceRange(start: start, end: bytes.count)
    return .invalid(DiagnosticCatalog.unterminatedString(at: range, quote: Character(Unicode.Scalar(quote))))
  }

  mutating func skipToClosingQuote(_ quote: UInt8) {
    while position < bytes.count {
      let b = bytes[position]
      position += 1
      if b == UInt8(ascii: "\\") {
        if position < bytes.count { position += 1 }
      } else if b == quote {
        return
      }
    }
  }

  enum Escape {
    case scalar(Unicode.Scalar)
    case verbatim(String)
    case error(String)
  }

  /// Decodes the escape after a backslash (`position` is just past it).
  mutating func decodeEscape() -> Escape {
    guard let c = peek() else { return .error("backslash at end of input") }
    position += 1
    switch c {
    case UInt8(ascii: "n"): return .scalar("\n")
    case UInt8(ascii: "t"): return .scalar("\t")
    case UInt8(ascii: "r"): return .scalar("\r")
    case UInt8(ascii: "a"): return .scalar("\u{07}")
    case UInt8(ascii: "b"): return .scalar("\u{08}")
    case UInt8(ascii: "f"): return .scalar("\u{0C}")
    case UInt8(ascii: "v"): return .scalar("\u{0B}")
    case UInt8(ascii: "\\"): return .scalar("\\")
    case UInt8(ascii: "\""): return .scalar("\"")
    case UInt8(ascii: "'"): return .scalar("'")
    case UInt8(ascii: "x"), UInt8(ascii: "X"):
      guard let v = readHex(count: 2) else { return .error("'\\x' needs two hexadecimal digits") }
      return .scalar(Unicode.Scalar(UInt8(v)))
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      return decodeUnicodeEscape()
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      var value = UInt32(c - 0x30)
      var digits = 1
      while digits < 3, let d = peek(), d >= 0x30 && d <= 0x37 {
        value = value * 8 + UInt32(d - 0x30)
        position += 1
        digits += 1
      }
      guard value <= 0xFF, let s = Unicode.Scalar(value) else {
        return .error("octal escape is larger than \\377")
      }
      return .scalar(s)
    default:
      // Keep unknown escapes verbatim (backslash plus the character).
      position -= 1
      let charStart = position
      if c >= 0x80, let (_, len) = scalar(at: position) {
        position += len
      } else {
        position += 1
      }
      return .verbatim("\\" + string(charStart, position))
    }
  }

  mutating func decodeUnicodeEscape() -> Escape {
    guard let high = readHex(count: 4) else {
      return .error("'\\u' needs four hexadecimal digits")
    }
    if (0xD800...0xDBFF).contains(high) {
      if peek() == UInt8(ascii: "\\"), let u = peek(1), u | 0x20 == UInt8(ascii: "u") {
        position += 2
        if let low = readHex(count: 4), (0xDC00...0xDFFF).contains(low) {
          let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
          if let s = Unicode.Scalar(value) { return .scalar(s) }
        }
      }
      return .error("unpaired UTF-16 surrogate in '\\u' escape")
    }
    guard let s = Unicode.Scalar(high) else {
      return .error("unpaired UTF-16 surrogate in '\\u' escape")
    }
    return .scalar(s)
  }

  mutating func readHex(count: Int) -> UInt32? {
    var value: UInt32 = 0
    for _ in 0..<count {
      guard let b = peek() else { return nil }
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 0x61 + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 0x41 + 10)
      default: return nil
      }
      value = value * 16 + d
      position += 1
    }
    return value
  }

  // MARK: - Format specifiers

  /// `%@`, `%K`, `%d`, `%lld`, … and `%%`. Validation of the conversion happens here, so an
  /// unknown specifier is reported at its position.
  mutating func lexFormatSpecifier() -> TokenKind {
    let start = position
    position += 1
    if peek() == UInt8(ascii: "%") {
      position += 1
      return .formatSpecifier("%%")
    }
    // The everyday specifiers without building and classifying text.
    if peek() == UInt8(ascii: "@") {
      position += 1
      return .formatSpecifier("%@")
    }
    if peek() == UInt8(ascii: "K") {
      position += 1
      return .formatSpecifier("%K")
    }
    while let b = peek(), Lexer.isLengthModifier(b) { position += 1 }
    if let b = peek(), b < 0x80, b > 0x20 { position += 1 }
    let text = string(start, position)
    if FormatSpecifier(text: text) != nil { return .formatSpecifier(text) }
    return .invalid(DiagnosticCatalog.unknownFormatSpecifier(text, at: SiftSourceRange(start: start, end: position)))
  }

  /// `h l q L z t j`: the length modifiers a printf-style specifier may carry.
  @inline(__always) static func isLengthModifier(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "L"), UInt8(ascii: "z"),
      UInt8(ascii: "t"), UInt8(ascii: "j"):
      return true
    default:
      return false
    }
  }
}
