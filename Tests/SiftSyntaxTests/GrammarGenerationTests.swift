import Testing

@testable import SiftSyntax

@Suite("Grammar/Predicate.ebnf and the parser agree")
struct GrammarGenerationTests {
  static func grammar() throws -> EBNFGrammar {
    try EBNFGrammar(Repo.text("Grammar/Predicate.ebnf"))
  }

  @Test func ruleNamesMatchParserFunctions() throws {
    let g = try Self.grammar()
    let parserSource = try ["Parser+Predicates", "Parser+Expressions", "Parser+Primary", "Parser+Functions"]
      .map { try Repo.text("Sources/SiftSyntax/Parser/\($0).swift") }.joined()
    let syntaxRules = g.rules.keys.filter { $0.first?.isLowercase ?? false }
    // Rules that describe shapes without a function of their own.
    let descriptive: Set<String> = [
      "quantifier", "literal", "functionName",
      "nullaryFunction", "unaryFunction", "binaryFunction", "index", "keyComponent",
    ]
    for rule in syntaxRules where !descriptive.contains(rule) {
      let function = "func parse" + rule.prefix(1).uppercased() + rule.dropFirst() + "("
      #expect(parserSource.contains(function), "no \(function) for rule \(rule)")
    }
    #expect(g.rules.count > 40)
  }

  @Test(arguments: 0..<10)
  func generatedSentencesParse(_ seed: Int) throws {
    var gen = SentenceGenerator(grammar: try Self.grammar(), rng: SeededRandom(seed: UInt64(seed) &+ 1000))
    gen.accept = { rule, text in
      switch rule {
      case "Identifier": return text.hasPrefix("#") || Keyword.lookup(text) == nil
      default: return true
      }
    }
    for _ in 0..<200 {
      let sentence = gen.generate("format")
      do {
        let p = try SiftPredicate.parse(sentence)
        assertRoundTrips(p)
      } catch {
        Issue.record("generated sentence rejected:\n\(sentence)\n\(error)")
      }
    }
  }
}

extension GrammarGenerationTests {
  /// Guards the generator itself: sentences must cover the language, not just `a == 1`.
  @Test func generatorCoversTheLanguage() throws {
    var gen = SentenceGenerator(grammar: try Self.grammar(), rng: SeededRandom(seed: 7))
    gen.accept = { rule, text in rule != "Identifier" || text.hasPrefix("#") || Keyword.lookup(text) == nil }
    let sentences = (0..<600).map { _ in gen.generate("format") }
    for feature in [
      "SUBQUERY", "BETWEEN", "TERNARY", "CAST", "FUNCTION", "ANY", "NOT", " OR ", " AND ", "**", "%@", "$", "@", "[",
      "{", "\"", "'", "\\", "0X", ":=",
    ] {
      #expect(sentences.contains { $0.uppercased().contains(feature) }, "no sentence uses \(feature)")
    }
    let average = sentences.map(\.count).reduce(0, +) / sentences.count
    #expect(average > 25)
    print("sample sentences:\n" + sentences.prefix(5).joined(separator: "\n"))
  }
}
