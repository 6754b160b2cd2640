import Testing

@testable import SiftSyntax

/// A bad input with a marker where the diagnostic must start, and its expected id.
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
  var marked: String
  var id: String
  var message: String?
  var testDescription: String { marked }
  init(_ marked: String, _ id: String, _ message: String? = nil) {
    self.marked = marked
    self.id = id
    self.message = message
  }
}

@Suite("Diagnostics at marked positions")
struct DiagnosticTests {
  static let cases: [DiagnosticCase] = [
    .init("1️⃣", "empty-predicate"),
    .init("name ==1️⃣", "expected-expression", "expected an expression, found end of input"),
    .init("name == 1️⃣\"unterminated", "unterminated-string"),
    .init("(name == \"x\"1️⃣", "expected-closing-paren"),
    .init("name BEGINSWITH1️⃣", "expected-expression"),
    .init("1️⃣AND", "expected-expression"),
    .init("name == 'x' 1️⃣garbage", "unexpected-token"),
    .init("SUBQUERY(menu, 1️⃣m, m.vegan == YES).@count > 0", "expected-subquery-variable"),
    .init("tags.1️⃣@bogus > 1", "unknown-collection-operator"),
    .init("name 1️⃣BEGINSWIT 'x'", "expected-comparison-operator"),
    .init("specialCount 1️⃣=== 3", "unknown-operator"),
    .init("1 < a 1️⃣< 3", "chained-comparison"),
    .init("11️⃣", "expected-comparison-operator"),
    .init("TRUE1️⃣", "expected-comparison-operator"),
    .init("1️⃣size == 1", "reserved-word"),
    .init("a.1️⃣first == 1", "reserved-word"),
    .init("name == 1️⃣?", "invalid-character"),
    .init("name == 'x' 1️⃣// comment", "comments-unsupported"),
    .init("a == 1 1️⃣\\ b == 2", "invalid-character"),
    .init("1️⃣12abc == 1", "invalid-number"),
    .init("a == 1️⃣0x", "expected-digits"),
    .init("a == 1️⃣0xFFFFFFFFFFFFFFFFF", "integer-overflow"),
    .init("name ==[1️⃣q] \"x\"", "unknown-comparison-option"),
    .init("a == \"1️⃣\\u12\"", "invalid-escape"),
    .init("a == \"1️⃣\\ud800\"", "invalid-escape"),
    .init("a == \"1️⃣\\400\"", "invalid-escape"),
    .init("a == 1️⃣%k", "unknown-format-specifier"),
    .init("a == 1️⃣%%", "literal-percent"),
    .init("a == 1️⃣foo(1)", "unknown-function"),
    .init("a == 1️⃣sqrt(1, 2)", "wrong-argument-count"),
    .init("a == CAST(1, 1️⃣\"NSWidget\")", "unknown-cast-type"),
    .init("a UNION 1️⃣== 1", "expected-expression"),
    .init("a == 1️⃣FETCH(x)", "unsupported-feature"),
    .init("a == 1 AND1️⃣", "expected-expression"),
    .init("a == 1 OR 1️⃣OR b == 2", "expected-expression"),
    .init("(a == 1)1️⃣)", "unexpected-token"),
    .init("a[1 1️⃣== 2", "expected-closing-bracket"),
    .init("a. 1️⃣== 1", "expected-key"),
    .init("a == 1️⃣$", "expected-name"),
    .init("a == 1️⃣#", "expected-key"),
    .init("a == \"x\" 1️⃣b == \"y\"", "unexpected-token"),
    .init("TERNARY(a1️⃣, 1, 2) == 1", "expected-comparison-operator"),
    .init("FUNCTION(a1️⃣) == 1", "expected-comma"),
    .init("a == é\u{301}1️⃣?", "invalid-character"),
  ]

  @Test(arguments: cases)
  func reportsAtMarker(_ c: DiagnosticCase) throws {
    let (source, markers) = extractMarkers(c.marked)
    guard let error = parseError(source) else {
      Issue.record("expected a diagnostic for \(source)")
      return
    }
    #expect(error.diagnostic.id == c.id, "\(error)")
    #expect(error.diagnostic.range.start == markers["1️⃣"], "\(error)")
    #expect(error.stage == .parse)
    if let message = c.message { #expect(error.diagnostic.message == message) }
    // The rendered form always shows the source and a caret.
    #expect(error.description.contains("^"))
  }

  @Test func fixItsSuggestTheRightWord() throws {
    let e = try #require(parseError("name BEGINSWIT 'x'"))
    #expect(e.diagnostic.fixIts.first?.replacement == "BEGINSWITH")
    let f = try #require(parseError("tags.@cout > 1"))
    #expect(f.diagnostic.fixIts.first?.replacement == "@count")
    let g = try #require(parseError("a == sqr(4)"))
    #expect(g.diagnostic.fixIts.first?.replacement == "sqrt")
    let h = try #require(parseError("size == 1"))
    #expect(h.diagnostic.fixIts.first?.replacement == "#size")
    let n = try #require(parseError("(a == 1"))
    #expect(n.diagnostic.notes.first?.message == "to match this '('")
    #expect(n.diagnostic.notes.first?.range == SiftSourceRange(start: 0, end: 1))
  }

  @Test func mixedAndOrWarns() throws {
    let p = try SiftPredicate.parse("a == 1 OR b == 2 AND c == 3")
    #expect(p.warnings.map(\.id) == ["mixed-and-or"])
    #expect(p.warnings.first?.severity == .warning)
    #expect(p.warnings.first?.fixIts.first?.replacement == "(b == 2 AND c == 3)")
    #expect(try SiftPredicate.parse("a == 1 OR (b == 2 AND c == 3)").warnings.isEmpty)
    #expect(try SiftPredicate.parse("a == 1 AND b == 2").warnings.isEmpty)
  }

  @Test func rendersSwiftSyntaxStyle() throws {
    let e = try #require(parseError("name BEGINSWIT 'x'"))
    #expect(
      e.description == """
        error: expected a comparison operator (==, <, BEGINSWITH, IN, …), found 'BEGINSWIT'
         --> 1:6
        1 | name BEGINSWIT 'x'
          |      ^^^^^^^^^
          = help: did you mean 'BEGINSWITH'?
        """)
  }

  @Test func rendersMultiLineAndWideCharacters() throws {
    let e = try #require(parseError("a == 1 AND\n  名前 == 'x' ?"))
    #expect(e.location.line == 2)
    #expect(e.location.column == 13)
    #expect(
      e.description == """
        error: '?' is not a valid token
         --> 2:13
        2 |   名前 == 'x' ?
          |               ^
          = note: pass values with %@ and a format argument, or $VARIABLE
        """)
    let crlf = try #require(parseError("a == 1 AND\r\nb =="))
    #expect(crlf.location.line == 2)
    #expect(crlf.location.column == 5)
  }

  @Test func columnsCountCharacters() {
    let pos = SiftSourcePosition(offset: "👨‍👩‍👧‍👦 é".utf8.count, in: "👨‍👩‍👧‍👦 é x")
    #expect(pos.column == 4)
    #expect(pos.line == 1)
  }
}
