import Testing

@testable import SiftSyntax

@Suite("Lexer")
struct LexerTests {
  static func kinds(_ s: String) -> [TokenKind] { Lexer.tokenize(s).map(\.kind).dropLast().map { $0 } }

  static let table: [(String, [TokenKind])] = [
    ("a AND b", [.identifier("a"), .keyword(.and), .identifier("b")]),
    ("aNd oR nOt", [.keyword(.and), .keyword(.or), .keyword(.not)]),
    ("ANDx", [.identifier("ANDx")]),
    ("#size", [.identifier("size")]),
    ("$VAR $#in", [.variable("VAR"), .variable("in")]),
    ("@count", [.atKey("count")]),
    ("uti-conforms-to UTI-EQUALS uti", [.keyword(.utiConformsTo), .keyword(.utiEquals), .identifier("uti")]),
    (
      "= == != <> < <= =< > >= =>",
      [
        .punct(.equal), .punct(.equal), .punct(.notEqual), .punct(.notEqual), .punct(.less), .punct(.lessEqual),
        .punct(.lessEqual), .punct(.greater), .punct(.greaterEqual), .punct(.greaterEqual),
      ]
    ),
    (
      "+ - * / ** & | ^ ~ << >> && || ! := :",
      [
        .punct(.plus), .punct(.minus), .punct(.star), .punct(.slash), .punct(.power), .punct(.ampersand),
        .punct(.pipe), .punct(.caret), .punct(.tilde), .punct(.shiftLeft), .punct(.shiftRight),
        .punct(.andAnd), .punct(.orOr), .punct(.bang), .punct(.assign), .punct(.colon),
      ]
    ),
    ("42 0x2A 0o52 0b101010 0XFF", [.integer(42), .integer(42), .integer(42), .integer(42), .integer(255)]),
    ("1.5 9.2e-5 1E3 2e+2", [.double(1.5), .double(9.2e-5), .double(1000), .double(200)]),
    ("1.foo", [.integer(1), .punct(.dot), .identifier("foo")]),
    ("99999999999999999999", [.double(1e20)]),
    ("9223372036854775808", [.integer(9_223_372_036_854_775_808)]),
    (#""a\nb\tc\rd\\e\"f\'g""#, [.string("a\nb\tc\rd\\e\"f'g")]),
    (#"'it\'s' "say 'hi'""#, [.string("it's"), .string("say 'hi'")]),
    (#""\u00e9\U00E9\x41\101\0""#, [.string("ééAA\u{0}")]),
    (#""\uD83D\uDE00""#, [.string("😀")]),
    (#""\d\*\?\.""#, [.string(#"\d\*\?\."#)]),
    ("\"multi\nline\"", [.string("multi\nline")]),
    (
      "%@ %K %d %lld %hu %f %lf %s %c %x %%",
      [
        .formatSpecifier("%@"), .formatSpecifier("%K"), .formatSpecifier("%d"), .formatSpecifier("%lld"),
        .formatSpecifier("%hu"), .formatSpecifier("%f"), .formatSpecifier("%lf"), .formatSpecifier("%s"),
        .formatSpecifier("%c"), .formatSpecifier("%x"), .formatSpecifier("%%"),
      ]
    ),
    ("café naïve 名前", [.identifier("café"), .identifier("naïve"), .identifier("名前")]),
    ("\u{00A0}a\u{2003}", [.identifier("a")]),
  ]

  @Test(arguments: 0..<table.count)
  func tokenKinds(_ i: Int) {
    let (input, expected) = Self.table[i]
    #expect(Self.kinds(input) == expected, "\(input)")
  }

  /// Every keyword, in three casings, is that keyword; one letter more, less or changed is an
  /// identifier (the packed-constant lookup in Lexer+Keywords.swift has no stale or near entry).
  @Test(arguments: Keyword.allCases)
  func everyKeyword(_ k: Keyword) {
    let word = k.spelling
    for spelling in [word, word.lowercased(), word.prefix(1) + word.dropFirst().lowercased()] {
      #expect(Self.kinds(spelling) == [.keyword(k)], "\(spelling)")
      #expect(Keyword.lookup(spelling) == k, "\(spelling)")
    }
    guard !word.contains("-") else { return }
    let misses = [word + "X", String(word.dropLast()), String(word.dropLast()) + "Q", "Q" + word.dropFirst()]
    for miss in misses where Keyword(rawValue: miss) == nil && miss.count >= 1 {
      #expect(Self.kinds(miss) == [.identifier(miss)], "\(miss)")
      #expect(Keyword.lookup(miss) == nil, "\(miss)")
    }
  }

  /// A word operator (`BEGINSWITH`, `UTI-EQUALS`, …) is a `Keyword` of the same spelling whose
  /// `comparisonOperator` is that operator, and no other keyword names an operator: a new
  /// operator missing its keyword, or its line in `comparisonOperator`, fails here by name.
  @Test(arguments: ComparisonOperator.allCases)
  func everyWordOperatorIsAKeyword(_ op: ComparisonOperator) {
    guard op.keyword.contains(where: \.isLetter) else { return }
    #expect(Keyword(rawValue: op.keyword)?.comparisonOperator == op, "\(op.keyword)")
    #expect(Self.kinds(op.keyword.lowercased()) == [.keyword(Keyword(rawValue: op.keyword) ?? .and)])
  }

  @Test(arguments: Keyword.allCases)
  func keywordsNameOnlyTheirOwnOperator(_ k: Keyword) {
    #expect(k.comparisonOperator == ComparisonOperator(rawValue: k.spelling), "\(k.spelling)")
  }

  @Test func rangesCoverTheSourceBytes() {
    let source = "name BEGINSWITH[c] 'é' AND $x == %@"
    let bytes = Array(source.utf8)
    for t in Lexer.tokenize(source) where t.kind != .end {
      let text = String(decoding: bytes[t.range.start..<t.range.end], as: UTF8.self)
      #expect(!text.isEmpty && !text.hasPrefix(" ") && !text.hasSuffix(" "), "\(t)")
    }
  }

  @Test(arguments: [
    "?", "\\", "`", "\u{0}", "\"open", "0x", "0b2", "1e", "12ab", "%q", "%", "$", "@", "#", "===", "//", "/*",
  ])
  func invalidInputBecomesInvalidTokenOrSplits(_ s: String) {
    let tokens = Lexer.tokenize(s)
    #expect(tokens.last?.kind == .end)
    // Never an empty, non-final token: the lexer always makes progress.
    for t in tokens.dropLast() { #expect(t.range.length > 0) }
  }
}
