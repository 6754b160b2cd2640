import Foundation
import SiftSyntax
import Testing

/// `RegexPattern.quickMatch` — the evaluator's constant MATCHES without a clock (the job of
/// `SimpleRegex` before it) — answers exactly as ICU whenever it answers at all.
@Suite struct QuickMatchTests {
  @Test(
    arguments: [
      ("(Blue|Red) .*", true), ("abc", true), ("a.c", true), ("(?:ab|cd)?e+", true), ("", true),
      ("caf(é|e)s?", true), ("\\.\\*", true), ("x*?", true), ("[a-z]+", true), ("\\d+", true), ("a*b*", true),
      ("(ab)*", true), ("a{2}", true), ("^a", true), ("a$", true), ("(a|b)(c|d)(e|f)(g|h)", true),
      // Outside the automaton's subset, or too large to run without a clock: the generic path.
      ("(?i)a", false), ("a++", false), ("(?=a)a", false), ("(a)\\1", false), ("(a|b){0,300}c", false),
    ] as [(String, Bool)])
  func decides(pattern: String, quick: Bool) throws {
    #expect(try RegexPattern(pattern).hasQuickMatch == quick)
  }

  /// `[c]` and `[d]` fold the subject first: the generic path decides them.
  @Test func foldingOptionsAreLeftToTheGenericPath() throws {
    #expect(try !RegexPattern("abc", options: .caseInsensitive).hasQuickMatch)
    #expect(try !RegexPattern("abc", options: .diacriticInsensitive).hasQuickMatch)
    #expect(try RegexPattern("abc", options: .caseInsensitive).quickMatch("abc") == nil)
  }

  /// Every scalar up to U+FFFF against ICU, through the DFA's non-ASCII columns: `.` matches
  /// exactly what ICU's `.` matches, ranges and literals above ASCII exactly their members.
  @Test(arguments: ["a.b", "a[^é]b", "a[à-ÿ\u{2028}]b|a\u{85}b|aé+b", "[^\u{100}-\u{2027}]"])
  func agreesWithICUOnEveryBMPScalar(pattern: String) throws {
    let r = try RegexPattern(pattern)
    #expect(r.hasQuickMatch)
    var failures: [UInt32] = []
    for v in UInt32(0)...0xFFFF {
      guard let s = Unicode.Scalar(v) else { continue }
      let subject = pattern.hasPrefix("a") ? "a" + String(Character(s)) + "b" : String(Character(s))
      if r.quickMatch(subject) != (try? r.backtrackingMatchForBench(subject)) { failures.append(v) }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  /// Random patterns (the subset `SimpleRegex` took, and classes) against random subjects.
  @Test(arguments: [UInt64(7), 11, 19, 23])
  func randomPatternsAgreeWithICU(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let alphabet = ["a", "b", "é", " ", "\n", "\r", "\u{2028}", "\u{85}", "ß", "👍", ".", "e\u{301}"]
    func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
    func atom(_ depth: Int) -> String {
      switch Int.random(in: 0..<8, using: &rng) {
      case 0: return "."
      case 1 where depth < 2:
        let n = Int.random(in: 1...3, using: &rng)
        return pick(["(", "(?:"]) + (0..<n).map { _ in sequence(depth + 1) }.joined(separator: "|") + ")"
      case 2: return "\\."
      case 3: return pick(["[a-é]", "[^a ]", "[ß-👍]", "[\u{80}-\u{2028}]"])
      default: return pick(["a", "b", "é", " ", "ß", "👍"])
      }
    }
    func sequence(_ depth: Int) -> String {
      var out = ""
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        out += atom(depth) + pick(["", "", "", "?", "*", "+", "*?"])
      }
      return out
    }
    var decided = 0
    for _ in 0..<300 {
      let pattern = sequence(0)
      guard let r = try? RegexPattern(pattern) else { continue }
      for _ in 0..<25 {
        let subject = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pick(alphabet) }.joined()
        guard let answer = r.quickMatch(subject), let icu = try? r.backtrackingMatchForBench(subject) else { continue }
        #expect(answer == icu, "\(pattern.debugDescription) on \(subject.debugDescription)")
        decided += 1
      }
    }
    #expect(decided > 1000)
  }

  @Test func longSubjectsAreLeftToTheGenericPath() throws {
    let r = try RegexPattern("a.*")
    let limit = 1024  // RegexAutomaton.quickSubjectBytes
    #expect(r.quickMatch("a" + String(repeating: "b", count: limit)) == nil)
    #expect(r.quickMatch("a" + String(repeating: "b", count: 100)) == true)
    #expect(r.quickMatch("a" + String(repeating: "b", count: 100) + "\n") == false)
  }
}
