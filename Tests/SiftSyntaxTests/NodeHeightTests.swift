import Testing

@testable import SiftSyntax

/// The parser supplies node heights from the children it built (to save recomputing them);
/// every node of every example must carry the height `init(_:range:)` computes from its kind,
/// since the depth limits of evaluation and SQL compilation rely on it.
@Suite("Node heights")
struct NodeHeightTests {
  @Test func parsedHeightsMatchComputedHeights() throws {
    let lines =
      try Repo.lines("Grammar/examples/valid.txt").filter { !$0.isEmpty }
      + ["a.b.c == 1", "a[\"k\"].b == 2", "SELF.x == 1", "(a + b) * -c ** 2 == d", "{1, a} CONTAINS 1"]
    var checked = 0
    for line in lines {
      guard let p = try? SiftPredicate.parse(line) else { continue }
      check(p.root, line, &checked)
    }
    #expect(checked > 400)
  }

  func check(_ p: PredicateNode, _ line: String, _ checked: inout Int) {
    checked += 1
    #expect(p.height == PredicateNode(p.kind, range: p.range).height, "\(line)")
    switch p.kind {
    case .constant: break
    case .and(let terms), .or(let terms): for t in terms { check(t, line, &checked) }
    case .not(let inner): check(inner, line, &checked)
    case .comparison(let c):
      check(c.lhs, line, &checked)
      check(c.rhs, line, &checked)
    }
  }

  func check(_ e: ExpressionNode, _ line: String, _ checked: inout Int) {
    checked += 1
    #expect(e.height == ExpressionNode(e.kind, range: e.range).height, "\(line): \(e.kind)")
    for child in ASTWalker.children(of: e) { check(child, line, &checked) }
    switch e.kind {
    case .subquery(_, _, let p), .ternary(let p, _, _): check(p, line, &checked)
    default: break
    }
  }
}
