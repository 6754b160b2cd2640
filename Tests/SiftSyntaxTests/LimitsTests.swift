import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

@Suite("Hostile input never crashes or hangs")
struct LimitsTests {
  @Test(arguments: ["(", "-", "NOT ", "{", "a[", "sqrt(", "SUBQUERY(a, $x, ", "~", "2 ** "])
  func deepNestingIsADiagnostic(_ opener: String) {
    let text = String(repeating: opener, count: 100_000) + "a == 1"
    let e = parseError(text)
    #expect(e?.diagnostic.id == "nesting-too-deep", "\(opener): \(e?.diagnostic.id ?? "parsed")")
  }

  @Test func longLeftAssociativeChainsHitTheDepthLimit() {
    let text = Array(repeating: "a", count: 5_000).joined(separator: " + ") + " == 1"
    #expect(parseError(text)?.diagnostic.id == "nesting-too-deep")
    let ok = Array(repeating: "a", count: 50).joined(separator: " + ") + " == 1"
    #expect(parseError(ok) == nil)
  }

  @Test func limitsAreAPI() {
    let strict = ParserLimits(maxDepth: 3, maxInputBytes: 20)
    expectSiftError(id: "nesting-too-deep", stage: .parse, at: 1) {
      try SiftPredicate.parse("((a == 1))", limits: ParserLimits(maxDepth: 1))
    }
    #expect((try? SiftPredicate.parse("a == 1", limits: strict)) != nil)
    do {
      _ = try SiftPredicate.parse(String(repeating: "a", count: 21), limits: strict)
      Issue.record("expected input-too-large")
    } catch {
      #expect(error.diagnostic.id == "input-too-large")
    }
  }

  @Test func megabyteInputs() throws {
    let big = "name == \"" + String(repeating: "x", count: 1_000_000) + "\""
    #expect(try SiftPredicate.parse(big).predicateFormat.utf8.count == big.utf8.count)
    let unterminated = "name == \"" + String(repeating: "x", count: 1_000_000)
    #expect(parseError(unterminated)?.diagnostic.id == "unterminated-string")
    var chain = "a == 1"
    while chain.utf8.count < 1_000_000 { chain += " OR a == 1" }
    let p = try SiftPredicate.parse(chain)
    if case .or(let terms) = p.root.kind { #expect(terms.count > 90_000) } else { Issue.record("not an OR") }
  }

  @Test func nulBytesAndInvalidUTF8() {
    let withNul = "a == 1\u{0} AND b == 2"
    #expect(parseError(withNul)?.diagnostic.id == "invalid-character")
    let bytes: [UInt8] = [0x61, 0x20, 0x3D, 0x3D, 0x20, 0xFF, 0xFE, 0x22, 0xC3]
    let decoded = String(decoding: bytes, as: UTF8.self)
    #expect(parseError(decoded) != nil)
    #expect(parseError("a == \"\u{0}\"") == nil)
  }

  @Test func everyPrefixOfValidInputsIsHandled() throws {
    // Cutting a valid predicate anywhere must give a diagnostic or a parse, never a trap.
    for line in try Repo.lines("Grammar/examples/valid.txt") where !line.isEmpty {
      var prefix = ""
      for ch in line {
        prefix.append(ch)
        _ = parseError(prefix)
      }
    }
  }
}
