import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// `SimpleRegex` must answer exactly as `RegexPattern` (ICU) whenever it answers at all.
@Suite struct SimpleRegexTests {
  @Test(
    arguments: [
      ("(Blue|Red) .*", true), ("abc", true), ("a.c", true), ("(?:ab|cd)?e+", true), ("", true),
      ("caf(é|e)s?", true), ("\\.\\*", true), ("x*?", true),
      // Outside the subset: ICU decides.
      ("[a-z]+", false), ("\\d+", false), ("a*b*", false), ("(ab)*", false), ("a{2}", false), ("^a", false),
      ("a$", false), ("(?i)a", false), ("a++", false), ("(?=a)a", false), ("\\w", false), ("\\1", false),
      ("(a|b)(c|d)(e|f)(g|h)", false),
    ] as [(String, Bool)])
  func subset(pattern: String, supported: Bool) {
    #expect((SimpleRegex(pattern) != nil) == supported)
  }

  /// `.` matches exactly the scalars ICU's `.` matches, for every scalar up to U+FFFF.
  @Test func dotAgreesWithICUOnEveryBMPScalar() throws {
    let simple = try #require(SimpleRegex("a.b"))
    let icu = try RegexPattern("a.b")
    var failures: [UInt32] = []
    for v in UInt32(0)...0xFFFF {
      guard let s = Unicode.Scalar(v) else { continue }
      let text = "a" + String(Character(s)) + "b"
      if simple.matches(text) != icu.matches(text) { failures.append(v) }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  /// Random patterns from the subset grammar against random subjects.
  @Test(arguments: [UInt64(7), 11, 19, 23])
  func randomPatternsAgreeWithICU(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let alphabet = ["a", "b", "é", " ", "\n", "\r", "\u{2028}", "\u{85}", "ß", "👍", ".", "e\u{301}"]
    func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
    func atom(_ depth: Int) -> String {
      switch Int.random(in: 0..<7, using: &rng) {
      case 0: return "."
      case 1 where depth < 2:
        let n = Int.random(in: 1...3, using: &rng)
        return pick(["(", "(?:"]) + (0..<n).map { _ in sequence(depth + 1) }.joined(separator: "|") + ")"
      case 2: return "\\."
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
      guard let simple = SimpleRegex(pattern), let icu = try? RegexPattern(pattern) else { continue }
      for _ in 0..<25 {
        let subject = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pick(alphabet) }.joined()
        guard let answer = simple.matches(subject) else { continue }
        #expect(answer == icu.matches(subject), "\(pattern.debugDescription) on \(subject.debugDescription)")
        decided += 1
      }
    }
    #expect(decided > 1000)
  }

  @Test func longSubjectsAreLeftToICU() throws {
    let simple = try #require(SimpleRegex("a.*"))
    #expect(simple.matches("a" + String(repeating: "b", count: SimpleRegex.maxSubjectBytes)) == nil)
    #expect(simple.matches("a" + String(repeating: "b", count: 100)) == true)
    #expect(simple.matches("a" + String(repeating: "b", count: 100) + "\n") == false)
  }
}
