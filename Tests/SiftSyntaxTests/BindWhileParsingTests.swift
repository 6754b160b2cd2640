import Foundation
import Testing

@testable import SiftSyntax

/// `SiftPredicate(format:arguments:)` binds while parsing; `parse(_:)` then `binding(_:)` binds
/// a finished template. Both must give the same tree, or the same error.
@Suite("Binding while parsing matches binding after parsing")
struct BindWhileParsingTests {
  static let cases: [(String, [SiftValue])] =
    ArgumentTests.ok.map { ($0.0, $0.1) } + ArgumentTests.bad.map { ($0.0, $0.1) }
    + ArgumentTests.boundCases.map { ($0.0, $0.1) } + [
      ("%K == %@ AND createdAt >= %@", ["priceInfo.priceCategory", "$", SiftValue(Date(timeIntervalSince1970: 0))]),
      ("a == 1 OR (b == %@ AND c == 2)", [3]),
      ("%K.name.@count == %d", ["a.b", 2]),
      ("%K[FIRST] == %@", ["tags", "x"]),
      ("%K[%@] == 1", ["d", "k"]),
      ("%K[%@] == 1", ["SELF", "k"]),
      ("SELF[%@].x == 1", ["k"]),
      ("SUBQUERY(%K, $m, $m.price < %@).@count > %d", ["menu", 10, 0]),
      ("TERNARY(%K == %@, %@, %@) > 1", ["a", 1, 2, 3]),
      ("FUNCTION(%@, 'foo:', %K) == 1", ["r", "k"]),
      ("sum({%@, %d}) > -%@", [1, 2, 3]),
      ("{%@, %K} CONTAINS 1", [1, "a"]),
      ("CAST(%@, 'NSDate') < CAST(%@, 'NSNumber')", [5.5, "7"]),
      ("$x := %@ == 1", [2]),
      ("NOT %K == %@ || %K != %@", ["a", 1, "b", 2]),
      ("%K == %@ AND %K == %@", ["a", 1]),
      ("%K == %@ AND", ["a", 1]),
      ("%K == %@ AND b ==", [5]),
      ("a == %d AND b == (", ["x"]),
      ("%K == %@", ["a..b", 1, 2]),
      ("%K == %@", [1, 2, 3]),
      ("%d == %@", [1]),
      ("a == %%", []),
      ("a == %k", [1]),
      ("a == %@", []),
      // A parenthesised specifier that fails: `binding` reports the node's range, parentheses
      // included (found by BindWhileParsingPropertyTests).
      ("(%K) == (%@)", []),
      ("(%K) == 1", [5]),
      ("((%K)) == 1", ["a..b"]),
      ("a == (%@)", []),
      ("(%@) == 1 AND b == (%d)", [1, "x"]),
      ("CAST((~%e), 'NSArray') != FUNCTION(a, 'x:', -(%o))", [1.5, SiftValue(Date(timeIntervalSince1970: 0))]),
      ("((%K) == 1)", ["a.@bogus"]),
      ("(%K.x) == (%@)", [5, 1]),
      ("(%K) == (%@)", ["a"]),
    ]

  @Test(arguments: 0..<cases.count)
  func sameTreeOrSameError(_ i: Int) {
    let (format, args) = Self.cases[i]
    let inline = Result { () throws(SiftError) in try SiftPredicate(format: format, arguments: args) }
    let after = Result { () throws(SiftError) in try SiftPredicate.parse(format).binding(args) }
    switch (inline, after) {
    case (.success(let a), .success(let b)):
      #expect(a == b, "\(format): \(a.predicateFormat) vs \(b.predicateFormat)")
      // The reference: rebuild every node of the template with the per-node binding step.
      let reference = try? ASTWalker.rewrite(SiftPredicate.parse(format).root) {
        (e: ExpressionNode, _: Set<String>) throws(ArgumentFailure) -> ExpressionNode in
        try ArgumentBinder.bind(e, args)
      }
      #expect(reference == a.root, "\(format)")
      #expect(a.predicateFormat == b.predicateFormat)
      #expect(a.root.height == b.root.height)
      #expect(a.unboundArgumentCount == 0 && b.unboundArgumentCount == 0)
      #expect(a.warnings.map(\.id) == b.warnings.map(\.id))
    case (.failure(let a), .failure(let b)):
      #expect(a.stage == b.stage, "\(format)")
      #expect(a.diagnostic.id == b.diagnostic.id, "\(format): \(a) vs \(b)")
      #expect(a.diagnostic.range == b.diagnostic.range, "\(format)")
      #expect(a.diagnostic.message == b.diagnostic.message, "\(format)")
    default:
      Issue.record("\(format): \(inline) vs \(after)")
    }
  }
}
