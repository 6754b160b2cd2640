import Foundation
import Testing

@testable import SiftSyntax

/// A MATCHES pattern's size once its counted repetitions are expanded, and the query policy
/// that counts it against `limits.nodes` before anything runs (issue 35, item 2).
@Suite("Expanded pattern size")
struct RegexPatternSizeTests {
  @Test(arguments: [
    ("", 0), ("abc", 3), ("a|bc", 3), ("a*", 2), ("(ab)+", 3), ("[a-z]+@x\\.com", 8),
    ("(.*a){1000}b", 3001), ("((.*a){1000}){1000}", 3_000_000), ("a{2,5}", 5), ("a{3,}", 4),
    ("(?:ab){3}", 6), ("(?<n>ab){2}", 4), ("\\x{41}{3}", 3), ("[{]{2}", 2), ("a{", 2), ("a{x}", 4),
    ("\\p{L}{10}", 10), ("\\Qa{9}\\E", 1), ("a{2}?", 2),
  ])
  func expandedSize(_ pattern: String, _ size: Int) {
    #expect(RegexPattern.expandedSize(pattern) == size, "\(pattern)")
  }

  @Test func hugeCountsSaturate() {
    let p = String(repeating: "(", count: 10) + "a" + String(repeating: "){999999}", count: 10)
    #expect(RegexPattern.expandedSize(p) == RegexPattern.maxExpandedSize)
    // Odd text never traps.
    for text in [")", "((", "{}", "{1}", "*{2}", "\\", "[", "[]]{3}", "a{99999999999999999999}", "(?", "(?<"] {
      #expect(RegexPattern.expandedSize(text) >= 0)
    }
  }

  static func policy(nodes: Int) throws -> SiftQueryPolicy {
    try SiftQueryPolicy(keys: ["body"], limits: .init(nodes: nodes))
  }

  @Test func thePolicyCountsTheExpandedPattern() throws {
    let policy = try Self.policy(nodes: 200)
    let p = try SiftPredicate(format: "body MATCHES '(.*a){1000}b'")
    do {
      try policy.check(p)
      Issue.record("allowed")
    } catch {
      #expect(error.stage == .policy)
      #expect(error.diagnostic.id == "too-many-nodes")
      #expect(error.diagnostic.message.contains("\"(.*a){1000}b\" stands for 3001 terms"), "\(error)")
      #expect(error.diagnostic.range == SiftSourceRange(start: 13, end: 27))
    }
    // A bound pattern counts the same.
    let bound = try SiftPredicate(format: "body MATCHES %@", arguments: ["(.*a){1000}b"])
    #expect(throws: SiftError.self) { try policy.check(bound) }
    // Ordinary patterns fit; without a node limit nothing is counted.
    try policy.check(try SiftPredicate(format: "body MATCHES '[A-Z][a-z]+ [0-9]{3}'"))
    try SiftQueryPolicy(keys: ["body"]).check(p)
  }
}
