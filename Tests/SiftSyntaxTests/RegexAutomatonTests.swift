import Foundation
import Testing

@testable import SiftSemantics
@testable import SiftSyntax

/// The linear-time automaton against ICU's backtracking matcher: the same whole-string answer
/// on fixed ICU corner cases and on random patterns and subjects.
@Suite("Regex automaton")
struct RegexAutomatonTests {
  /// (pattern, case-insensitive, subjects)
  static let fixed: [(String, Bool, [String])] = [
    (
      "(a+)+b|a+[0-9]+", false,
      [String(repeating: "a", count: 40) + "123", String(repeating: "a", count: 40) + "b", "ab", "a1"]
    ),
    (#"\s"#, false, [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "x"]),
    (#"\w+"#, false, ["abc_9", "é", "e\u{301}", "٣", "a-b", "\u{200C}", "ǅ", "Ⅻ"]),
    (#"\d"#, false, ["7", "٣", "Ⅻ", "x", "²"]),
    (".", false, ["\n", "\r", "\u{85}", "\u{2028}", "é", "😀", "\u{0B}", "a"]),
    ("[a-]x", false, ["ax", "-x", "bx"]),
    ("[ab ]+", false, ["a b", "ab", "a\tb"]),
    ("[^a-c]", false, ["a", "d", "é", "\n"]),
    (#"[\d.]+"#, false, ["1.5", "a"]),
    (#"[\W]"#, false, ["a", "-"]),
    ("x{2,3}", false, ["x", "xx", "xxx", "xxxx"]),
    ("(ab){2}", false, ["abab", "ab"]),
    ("a{0}b", false, ["b", "ab"]),
    ("^a|b$", false, ["a", "b", "ab"]),
    ("a$", false, ["a", "a\n"]),
    (#"\Aab\z"#, false, ["ab"]),
    ("(?:a|b)*c", false, ["ababc", "abab"]),
    ("(?<n>a)b", false, ["ab"]),
    ("abc", true, ["ABC", "aBc", "abd"]),
    ("[a-c]+", true, ["ABC", "xyz"]),
    (#"\x41\u0042"#, false, ["AB"]),
    ("é+", false, ["éé", "e\u{301}"]),
    ("a*?b", false, ["aab", "b"]),
    ("", false, ["", "a"]),
    ("a|", false, ["", "a", "b"]),
    // Too large for the DFA: state sets all the way.
    (
      "(a|b){0,300}c", false,
      ["abc", "c", "ab", String(repeating: "ab", count: 150) + "c", String(repeating: "ab", count: 151) + "c", "éc"]
    ),
    ("[ab]{2,250}é?", false, ["ab", "aé", "abé", String(repeating: "a", count: 251)]),
  ]

  @Test(arguments: fixed.indices)
  func agreesWithICU(_ i: Int) throws {
    let (pattern, ci, subjects) = Self.fixed[i]
    let r = try RegexPattern(pattern, options: ci ? .caseInsensitive : [])
    #expect(r.automaton != nil, "\(pattern) is in the subset")
    for s in subjects {
      let icu = try? r.backtrackingMatch(s)
      guard let icu else { continue }  // ICU out of steps: the automaton answers alone
      #expect(r.automaton?.matches(s) == icu, "\(pattern) on \(s.debugDescription): ICU \(icu)")
    }
  }

  @Test(arguments: [
    #"(a)\1"#, "a(?=b)", "(?i)a", #"\bword"#, #"\p{L}"#, "a++", "(?>a)", "[[a]]", "[a&&b]", "a$b", #"\Qa\E"#,
  ])
  func outsideTheSubsetICUDecides(_ pattern: String) throws {
    let r = try RegexPattern(pattern)
    #expect(r.automaton == nil, "\(pattern)")
  }

  @Test func nestedQuantifiersAreLinear() throws {
    let r = try RegexPattern("(a+)+b|a+[0-9]+")
    let subject = String(repeating: "a", count: 100_000) + "123"
    let start = Date()
    #expect(try r.match(subject))
    #expect(try !r.match(String(repeating: "a", count: 100_000) + "c"))
    #expect(Date().timeIntervalSince(start) < 2)
  }

  @Test func backtrackingBudgetIsAnError() throws {
    let r = try RegexPattern(#"(a+)+\1b"#)
    #expect(r.automaton == nil)
    #expect(throws: RegexPattern.LimitExceeded.self) { try r.match(String(repeating: "a", count: 40) + "c") }
  }

  @Test func randomPatternsAgreeWithICU() throws {
    var rng = SeededRandom(seed: 23)
    let atoms = [
      "a", "b", "1", " ", ".", #"\d"#, #"\w"#, #"\s"#, "[ab]", "[^a]", "[a-c1]", #"[\d\s]"#, "é", #"\."#, "(a|b)",
      "(?:ab|a)", "^", "x",
    ]
    let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"]
    let alphabet: [Character] = ["a", "b", "c", "1", " ", "\n", "é", ".", "x", "A"]
    var compared = 0
    for _ in 0..<400 {
      var pattern = ""
      for _ in 0..<rng.int(in: 1...5) {
        var atom = rng.pick(atoms)
        if rng.chance(0.15) { atom = "(" + atom + rng.pick(quantifiers) + "|" + rng.pick(atoms) + ")" }
        pattern += atom + (atom == "^" ? "" : rng.pick(quantifiers))
      }
      if rng.chance(0.1) { pattern += "$" }
      let ci = rng.chance(0.2)
      guard let r = try? RegexPattern(pattern, options: ci ? .caseInsensitive : []), let a = r.automaton else {
        continue
      }
      for _ in 0..<8 {
        let s = String((0..<rng.int(in: 0...7)).map { _ in rng.pick(alphabet) })
        guard let icu = try? r.backtrackingMatch(s) else { continue }
        guard let mine = a.matches(s) else { continue }
        compared += 1
        #expect(mine == icu, "\(pattern)\(ci ? " [c]" : "") on \(s.debugDescription): ICU \(icu)")
      }
    }
    #expect(compared > 1000)
  }
}
