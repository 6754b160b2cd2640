import Testing

@testable import SiftSyntax

@Suite("Round-trip property: parse(print(ast)) == ast")
struct RoundTripPropertyTests {
  @Test(arguments: 0..<20)
  func randomTreesRoundTrip(_ batch: Int) throws {
    var gen = RandomAST(seed: UInt64(batch) &* 7919 &+ 17)
    for _ in 0..<250 {
      let tree = gen.predicate()
      let printed = CanonicalPrinter().print(tree)
      do {
        let reparsed = try SiftPredicate.parse(printed)
        #expect(
          reparsed.root == tree,
          "\(printed)\n→ \(ASTJSON.encode(reparsed.root) == ASTJSON.encode(tree) ? "" : "different tree")")
        #expect(reparsed.predicateFormat == printed)
      } catch {
        Issue.record("printed form does not parse:\n\(printed)\n\(error)")
      }
    }
  }
}
