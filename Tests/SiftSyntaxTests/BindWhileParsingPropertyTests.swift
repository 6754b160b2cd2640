import Foundation
import Testing

@testable import SiftSyntax

/// Randomized differential check of binding while parsing: for generated formats and argument
/// lists, `SiftPredicate(format:arguments:)` must agree with `SiftPredicate.parse(format)`
/// followed by `binding(arguments)`: the same tree and canonical text, or the same error
/// (stage, diagnostic id, range, message). A format that does not parse must fail with the
/// parse error whatever the arguments.
@Suite("Binding while parsing matches binding after parsing (randomized)")
struct BindWhileParsingPropertyTests {
  /// The fixed seed; every failure message names it with the batch and case number.
  static let seed: UInt64 = 0xB1D_5EED
  static let batches = 8
  static let casesPerBatch = 500

  @Test(arguments: 0..<batches)
  func randomFormatsAgree(_ batch: Int) throws {
    var gen = BindCaseGenerator(
      seed: Self.seed &+ UInt64(batch) &* 0x9E37_79B9, grammar: try GrammarGenerationTests.grammar())
    var tally = BindOutcomeTally()
    for i in 0..<Self.casesPerBatch {
      let c = gen.next()
      if let problem = BindDifferential.check(c, tally: &tally) {
        Issue.record("seed \(Self.seed) batch \(batch) case \(i): \(problem)")
      }
    }
    // Guards the generator: every outcome must be common, or the check proves little.
    let n = Self.casesPerBatch
    #expect(tally.bothBound > n / 5, "\(tally)")
    #expect(tally.parseFailures > n / 20, "\(tally)")
    #expect(tally.argumentFailures > n / 5, "\(tally)")
    for id in ["missing-argument", "too-many-arguments", "wrong-argument-kind", "invalid-key-path"] {
      #expect(tally.argumentIDs[id, default: 0] > 0, "no \(id) in batch \(batch): \(tally)")
    }
  }

  /// One depth rule (issue #35): `maxDepth` bounds the format as written. Binding while parsing
  /// builds the bound tree, which is shorter wherever a bound value merges or folds (`%K.x` is
  /// one key path, `a[%@]` with a string a key path, `{%@}` an array constant, `CAST(%@,
  /// "NSDate")` of a number a date); it used to accept formats `parse` refuses as nesting too
  /// deep. Both routes now give the same verdict, error id and position.
  @Test func depthLimitIsOneRule() throws {
    let deep = String(repeating: "- ", count: 126)
    let cases: [BindCase] = [
      BindCase(format: "%K.x == 1", arguments: ["a"], limits: ParserLimits(maxDepth: 2)),
      BindCase(format: "a[%@] == 1", arguments: ["k"], limits: ParserLimits(maxDepth: 2)),
      BindCase(format: "{%@} == 1", arguments: [1], limits: ParserLimits(maxDepth: 2)),
      BindCase(format: "CAST(%@, 'NSDate') == 1", arguments: [0], limits: ParserLimits(maxDepth: 2)),
      BindCase(format: deep + "%K.x == 1", arguments: ["a"], limits: ParserLimits()),
    ]
    for c in cases {
      var tally = BindOutcomeTally()
      if let problem = BindDifferential.check(c, tally: &tally) { Issue.record(Comment(rawValue: problem)) }
    }
    let error = #expect(throws: SiftError.self) {
      try SiftPredicate(format: "%K.x == 1", arguments: ["a"], limits: ParserLimits(maxDepth: 2))
    }
    #expect(error?.id == "nesting-too-deep")
    // Within the limit as written, both routes bind.
    let p = try SiftPredicate(format: "%K.x == 1", arguments: ["a"], limits: ParserLimits(maxDepth: 3))
    #expect(p.predicateFormat == "a.x == 1")
  }

  @Test func generatorIsDeterministic() throws {
    let grammar = try GrammarGenerationTests.grammar()
    var a = BindCaseGenerator(seed: Self.seed, grammar: grammar)
    var b = BindCaseGenerator(seed: Self.seed, grammar: grammar)
    for _ in 0..<50 {
      let x = a.next()
      let y = b.next()
      #expect(x.format == y.format && x.arguments == y.arguments && x.limits == y.limits)
    }
  }
}

/// One generated case.
struct BindCase: CustomStringConvertible {
  var format: String
  var arguments: [SiftValue]
  var limits: ParserLimits

  var description: String {
    let depth = limits == ParserLimits() ? "" : " maxDepth \(limits.maxDepth)"
    return "format \(String(reflecting: format)) arguments \(arguments)\(depth)"
  }
}

/// How often each outcome occurred (to check the generator's spread).
struct BindOutcomeTally: CustomStringConvertible {
  var bothBound = 0
  var parseFailures = 0
  var argumentFailures = 0
  var argumentIDs: [String: Int] = [:]

  var description: String {
    "bound \(bothBound), parse errors \(parseFailures), argument errors \(argumentFailures) \(argumentIDs.sorted { $0.key < $1.key })"
  }
}

enum BindDifferential {
  /// Nil when both routes agree on `c`; otherwise what differed.
  static func check(_ c: BindCase, tally: inout BindOutcomeTally) -> String? {
    let template = Result { () throws(SiftError) in try SiftPredicate.parse(c.format, limits: c.limits) }
    let inline = Result { () throws(SiftError) in
      try SiftPredicate(format: c.format, arguments: c.arguments, limits: c.limits)
    }
    let after: Result<SiftPredicate, SiftError>
    switch template {
    case .failure(let e):
      tally.parseFailures += 1
      after = .failure(e)
    case .success(let t):
      after = Result { () throws(SiftError) in try t.binding(c.arguments) }
    }
    switch (inline, after) {
    case (.success(let a), .success(let b)):
      tally.bothBound += 1
      if a != b { return "\(c): trees differ: \(a.predicateFormat) vs \(b.predicateFormat)" }
      if a.predicateFormat != b.predicateFormat {
        return "\(c): printed forms differ: \(a.predicateFormat) vs \(b.predicateFormat)"
      }
      if a.unboundArgumentCount != 0 || b.unboundArgumentCount != 0 { return "\(c): specifiers left unbound" }
      if a.warnings.map(\.id) != b.warnings.map(\.id) {
        return "\(c): warnings differ: \(a.warnings.map(\.id)) vs \(b.warnings.map(\.id))"
      }
      return nil
    case (.failure(let a), .failure(let b)):
      if case .success = template {
        tally.argumentFailures += 1
        tally.argumentIDs[b.diagnostic.id, default: 0] += 1
      }
      if a.stage != b.stage || a.diagnostic.id != b.diagnostic.id || a.diagnostic.range != b.diagnostic.range
        || a.diagnostic.message != b.diagnostic.message
      {
        return "\(c): errors differ:\n  inline: \(describe(a))\n  after:  \(describe(b))"
      }
      return nil
    default:
      return "\(c): inline \(describe(inline)) vs after \(describe(after))"
    }
  }

  static func describe(_ e: SiftError) -> String {
    "\(e.stage) \(e.diagnostic.id) \(e.diagnostic.range.start)..<\(e.diagnostic.range.end) \"\(e.diagnostic.message)\""
  }

  static func describe(_ r: Result<SiftPredicate, SiftError>) -> String {
    switch r {
    case .success(let p): return "ok: \(p.predicateFormat)"
    case .failure(let e): return "error: \(describe(e))"
    }
  }
}

/// Generates formats full of specifiers (from templates, and from the grammar's sentence
/// generator), some broken on purpose, each with an argument list that is right, short, long,
/// or of the wrong kinds.
struct BindCaseGenerator {
  var rng: SeededRandom
  var sentences: SentenceGenerator
  var maxDepth = 4

  init(seed: UInt64, grammar: EBNFGrammar) {
    rng = SeededRandom(seed: seed)
    sentences = SentenceGenerator(grammar: grammar, rng: SeededRandom(seed: seed ^ 0x5E47_E4CE))
    sentences.maxDepth = 14
    sentences.accept = { rule, text in rule != "Identifier" || text.hasPrefix("#") || Keyword.lookup(text) == nil }
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

  mutating func next() -> BindCase {
    var format = chance(20) ? sentences.generate("format") : predicate(0)
    if chance(15) { format = breakSyntax(format) }
    // Small limits now and then: near `maxDepth` both routes must give the same verdict
    // (`depthLimitIsOneRule`).
    let limits = chance(10) ? ParserLimits(maxDepth: int(2...6)) : ParserLimits()
    return BindCase(format: format, arguments: arguments(for: format, limits: limits), limits: limits)
  }

  // MARK: Formats

  static let specifiers = [
    "%@", "%@", "%@", "%@", "%K", "%K", "%K", "%d", "%i", "%u", "%ld", "%lld", "%lu", "%hd", "%qd", "%x",
    "%X", "%o", "%D", "%f", "%lf", "%e", "%g", "%G", "%s", "%S", "%c", "%C",
  ]
  static let keyForms = [
    "%K", "%K.x", "%K[0]", "%K.@count", "%K[FIRST]", "%K[LAST]", "%K[SIZE]", "%K[%@]", "%K[%d]", "%K.name.@sum",
    "%K.@avg.price", "%@.x", "%@[%@]", "SELF[%@]", "SELF[%K]", "a[%@]", "a[%d]", "a.b[%@].c", "$v[%@]", "$v.%K",
    "%K.%K", "%K.SELF", "%K.@bogus", "%K[%@][%@]",
  ]
  static let literals = [
    "1", "-2", "2.5", "-0.5", "0x1F", "'s'", "\"t\"", "'%@'", "\"%K\"", "'%d %%'", "nil", "NULL", "YES", "FALSE",
    "$x", "a", "a.b", "SELF", "self", "tags.@count", "ANYKEY", "9223372036854775808",
  ]
  static let operators = [
    "==", "=", "!=", "<>", "<", "<=", ">", ">=", "IN", "CONTAINS", "CONTAINS[cd]", "BEGINSWITH[c]", "ENDSWITH",
    "LIKE", "MATCHES", "BETWEEN",
  ]

  mutating func leaf() -> String {
    switch int(0...19) {
    case 0...8: return pick(Self.specifiers)
    case 9...12: return pick(Self.keyForms)
    case 13: return pick(["%%", "%k", "%q", "%5d", "%hhd", "%Lf", "%zu", "%llx", "%jd"])
    default: return pick(Self.literals)
    }
  }

  mutating func expression(_ depth: Int) -> String {
    if depth >= maxDepth || chance(35) { return leaf() }
    let d = depth + 1
    switch int(0...13) {
    case 0: return "{\(expression(d)), \(expression(d))}"
    case 1: return pick(["{}", "{\(expression(d))}", "{%@, 1}", "{%@, %K}", "{{%@}, %d}", "{%@, {%@, 2}}"])
    case 2: return pick(["-", "~", "- "]) + expression(d)
    case 3: return "\(expression(d)) \(pick(["+", "-", "*", "/", "**", "&", "|", "^", "<<", ">>"])) \(expression(d))"
    case 4: return pick(["%d + %f * 2", "%@ ** %@ ** 2", "(%d - %i) / %u", "%K + %K.x * %@"])
    case 5: return "(\(expression(d)))"
    case 6:
      return pick([
        "sum({\(expression(d)), \(expression(d))})", "count(\(expression(d)))", "now()", "random()",
        "modulus:by:(\(expression(d)), \(expression(d)))", "uppercase:(\(expression(d)))", "abs(\(expression(d)))",
        "sum(%@)", "max(%K)", "add:to:(%d, %f)", "bogus(%@)", "sqrt(%@, %@)",
      ])
    case 7:
      return pick([
        "FUNCTION(\(expression(d)), 'x:', \(expression(d)))", "FUNCTION(%@, 'x:', %d)", "FUNCTION(%K, 'y')",
        "FUNCTION(%@, %@)", "FUNCTION(SELF, 'f:g:', %@, %K)",
      ])
    case 8:
      return
        "CAST(\(expression(d)), \(pick(["\"NSDate\"", "'NSDate'", "'NSNumber'", "\"NSString\"", "'NSArray'", "'NSBogus'", "%@"])))"
    case 9: return "TERNARY(\(predicate(d)), \(expression(d)), \(expression(d)))"
    case 10:
      return
        "SUBQUERY(\(pick(["%K", "%@", "a.b", expression(d)])), $x, \(pick(["$x.a == \(expression(d))", predicate(d), "$x[%@] == 1", "$x.%K == 2"]))).@count"
    case 11: return "$v := \(expression(d))"
    case 12: return "\(expression(d))\(pick([".x", ".@count", "[0]", "[%@]", "[FIRST]", ".@sum.y", "['k']"]))"
    default:
      return pick(["CAST(%@, \"NSDate\")", "CAST(%d, 'NSDate')", "CAST(%f, \"NSDate\")", "TERNARY(%@ == 1, %K, %@)"])
    }
  }

  mutating func predicate(_ depth: Int) -> String {
    if depth >= maxDepth { return comparison(depth) }
    let d = depth + 1
    switch int(0...15) {
    case 0: return "NOT \(predicate(d))"
    case 1: return "!\(predicate(d))"
    case 2: return "(\(predicate(d)))"
    case 3, 4: return "\(predicate(d)) \(pick(["AND", "&&", "and"])) \(predicate(d))"
    case 5: return "\(predicate(d)) \(pick(["OR", "||", "or"])) \(predicate(d))"
    case 6: return "\(predicate(d)) AND \(predicate(d)) OR \(predicate(d))"
    case 7: return pick(["TRUEPREDICATE", "FALSEPREDICATE"])
    case 8:
      return pick([
        "%K BETWEEN %@", "%K BETWEEN {%@, %@}", "%@ IN %@", "ANY %K == %@", "ALL %K.x > %d", "NONE %K IN %@",
        "SOME %K[0] BEGINSWITH[c] %s", "SUBQUERY(%K, $x, $x.a == %@).@count > 0", "%K == %c", "%K.@count == %i",
        "%@ == %@ == %@", "%K LIKE[cd] %@ AND %K MATCHES %@", "(%K) == (%@)", "((%K == %@) OR %K != %@)",
      ])
    default: return comparison(depth)
    }
  }

  mutating func comparison(_ depth: Int) -> String {
    let quantifier = chance(15) ? pick(["ANY ", "ALL ", "NONE ", "SOME "]) : ""
    return "\(quantifier)\(expression(depth + 1)) \(pick(Self.operators)) \(expression(depth + 1))"
  }

  static let strayTokens = [
    ")", "(", ",", "AND", "==", "%@", "%K", "}", "{", "'", "\"", "[", "]", ".", "%%", "%k", "@", "#", "$", ":=",
    "NOT", "%d", "\\", "FIRST", "5", "$x",
  ]

  /// A format with a syntax error made likely: cut short, a stray token, or a piece cut out.
  mutating func breakSyntax(_ format: String) -> String {
    var chars = Array(format)
    guard !chars.isEmpty else { return pick(Self.strayTokens) }
    switch int(0...3) {
    case 0:
      chars.removeLast(int(1...chars.count))
    case 1, 2:
      let token = pick(Self.strayTokens)
      chars.insert(contentsOf: pick([token, " \(token)", "\(token) "]), at: int(0...chars.count))
    default:
      let start = int(0...(chars.count - 1))
      chars.removeSubrange(start..<min(chars.count, start + int(1...4)))
    }
    return String(chars)
  }

  // MARK: Arguments

  static let keyPaths: [SiftValue] = [
    "a", "name", "a.b", "SELF", "self", "menu.@count", "first name", "x.@sum.y", "tags", "a.@avg", "d", "location.city",
  ]
  static let badKeyPaths: [SiftValue] = ["a..b", "", "@count", ".a", "a.", "a.@bogus", "menu.@count.@sum.x.."]
  static let strings: [SiftValue] = ["", "x", "it's", "say \"hi\"", "%@", "$x", "名前", "😀", "e\u{301}", "a.b", "SELF"]

  /// An argument list for `format`: usually right for its specifiers, sometimes short, long, or
  /// with values of the wrong kind.
  mutating func arguments(for format: String, limits: ParserLimits) -> [SiftValue] {
    var specs: [FormatSpecifier] = []
    if let template = try? SiftPredicate.parse(format, limits: limits) {
      var found: [(Int, FormatSpecifier)] = []
      ASTWalker.forEachExpression(in: template.root) { e in
        if case .argument(let spec, let position) = e.kind { found.append((position, spec)) }
      }
      specs = found.sorted { $0.0 < $1.0 }.map(\.1)
    } else {
      // Does not parse: the arguments must not matter; guess a count from the text.
      let count = format.components(separatedBy: "%").count - 1
      specs = Array(repeating: FormatSpecifier(text: "%@")!, count: count)
    }
    var args = specs.map { value(for: $0.expects) }
    switch int(0...19) {
    case 0...7: break  // right
    case 8, 9, 10:  // too short
      if !args.isEmpty { args.removeLast(int(1...args.count)) }
    case 11, 12:  // too long
      for _ in 0..<int(1...2) { args.append(anyValue(0)) }
    case 13...17:  // wrong kinds in one or two places
      if !args.isEmpty {
        for _ in 0..<int(1...2) { args[int(0...(args.count - 1))] = hostileValue() }
      }
    default:  // anything
      args = (0..<int(0...(specs.count + 2))).map { _ in chance(50) ? hostileValue() : anyValue(0) }
    }
    return args
  }

  /// A value `expects` accepts.
  mutating func value(for expects: FormatSpecifier.Expectation) -> SiftValue {
    switch expects {
    case .object: return anyValue(0)
    case .keyPath: return pick(Self.keyPaths)
    case .integer: return pick([0, 1, -1, 42, .int(.max), .int(.min), true, false, .int(Int64(int(-99...99)))])
    case .unsignedInteger: return pick([0, 7, .int(.max), true, .int(Int64(int(0...999)))])
    case .floatingPoint:
      return pick([0.5, -2.25, 1e300, .double(.infinity), -0.0, 3, .int(.min), .double(.leastNonzeroMagnitude)])
    case .string: return pick(Self.strings)
    case .character: return pick(["x", "é", "😀", "e\u{301}", 65, 0x1F600, 0])
    }
  }

  /// Any value (`%@` takes all of them). No NaN: it is unequal to itself, so equal trees
  /// holding it would compare unequal.
  mutating func anyValue(_ depth: Int) -> SiftValue {
    switch int(0...11) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return pick([0, 1, -1, .int(.max), .int(.min), 726_148_800])
    case 3: return pick([0.5, -2.25, 1e20, -0.0, .double(.infinity), .double(-.infinity), 3.0])
    case 4, 5: return chance(30) ? pick(Self.keyPaths + Self.badKeyPaths) : pick(Self.strings)
    case 6: return .date(Date(timeIntervalSinceReferenceDate: pick([0, -1.5, 726_148_800, 1e9])))
    case 7: return .data(Data([0, 1, 0xFF]))
    case 8: return depth > 1 ? .array([]) : .array((0..<int(0...3)).map { _ in anyValue(depth + 1) })
    case 9: return depth > 1 ? .dictionary([:]) : .dictionary(["k": anyValue(depth + 1), "a.b": 1])
    default: return pick([1, 2, "x", "a"])
    }
  }

  /// A value of a kind some specifier rejects, or a key path `%K` rejects.
  mutating func hostileValue() -> SiftValue {
    switch int(0...5) {
    case 0, 1: return pick(Self.badKeyPaths)
    case 2: return pick([5, 2.5, .null, true, "7", "xy", .int(.max), .int(.min), -1, 0xD800, 0x110000, -0.0])
    case 3:
      return pick([
        .array([1, 2]), .array([]), .dictionary(["k": 1]), .data(Data()),
        .date(Date(timeIntervalSinceReferenceDate: 0)),
      ])
    default: return anyValue(0)
    }
  }
}
