import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

@Suite("SiftExpression: standalone NSExpression format strings")
struct ExpressionFormatTests {
  /// Source and canonical form.
  static let canonical: [(String, String)] = [
    ("price", "price"),
    ("SELF", "SELF"),
    ("sum:(scores)", "sum(scores)"),
    ("count:(tags)", "count(tags)"),
    ("min:({3, 1, 2})", "min({3, 1, 2})"),
    ("max:(menu.price)", "max(menu.price)"),
    ("average:( {1,2} )", "average({1, 2})"),
    ("median:(scores)", "median(scores)"),
    ("mode:(scores)", "mode(scores)"),
    ("stddev:(scores)", "stddev(scores)"),
    ("modulus:by:(7, 2)", "modulus:by:(7, 2)"),
    ("now()", "now()"),
    ("price * 1.2 + tip", "price * 1.2 + tip"),
    ("(a + b) * c", "(a + b) * c"),
    ("2 ** 3 ** 2", "2 ** 3 ** 2"),
    ("-x", "-x"),
    ("$RATE * price", "$RATE * price"),
    ("$total := sum:(scores)", "$total := sum(scores)"),
    ("FUNCTION(name, 'uppercaseString')", #"FUNCTION(name, "uppercaseString")"#),
    ("tags[FIRST]", "tags[FIRST]"),
    ("{1, 'two', nil}", #"{1, "two", nil}"#),
    ("TERNARY(a > 1, 'big', 'small')", #"TERNARY(a > 1, "big", "small")"#),
    ("SUBQUERY(menu, $m, $m.vegan == YES).@count", "SUBQUERY(menu, $m, $m.vegan == YES).@count"),
    ("CAST('12', 'NSNumber')", #"CAST("12", "NSNumber")"#),
    ("%K", "%K"),
    ("%@ + 1", "%@ + 1"),
  ]

  @Test(arguments: canonical.indices)
  func printsCanonicallyAndRoundTrips(_ i: Int) throws {
    let (source, text) = Self.canonical[i]
    let e = try SiftExpression.parse(source)
    #expect(e.expressionFormat == text)
    let again = try SiftExpression.parse(e.expressionFormat)
    #expect(again == e)
    #expect(again.expressionFormat == text)
  }

  /// The same rule serves predicates: an expression means the same as an operand.
  @Test(arguments: canonical.indices)
  func sameTreeAsAComparisonOperand(_ i: Int) throws {
    let source = Self.canonical[i].0
    let e = try SiftExpression.parse(source)
    let p = try SiftPredicate.parse("(\(source)) == 1")
    guard case .comparison(let c) = p.root.kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(c.lhs == e.root)
  }

  @Test func argumentsBindAsForPredicates() throws {
    #expect(try SiftExpression(format: "%K * %@", "price", 2).expressionFormat == "price * 2")
    #expect(try SiftExpression(format: "sum:(%K)", "menu.price").expressionFormat == "sum(menu.price)")
    let template = try SiftExpression.parse("%K + %@")
    #expect(template.unboundArgumentCount == 2)
    #expect(try template.binding(["a", 1]) == (try SiftExpression(format: "a + 1")))
    expectSiftError(id: "too-many-arguments", stage: .arguments, at: 0) { try template.binding(["a", 1, 2]) }
    // %K needs a string
    expectSiftError(id: "wrong-argument-kind", stage: .arguments, at: 0) { try SiftExpression(format: "%K", 5) }
    expectSiftError(id: "missing-argument", stage: .arguments, at: 5) { try SiftExpression(format: "%@ + %@", 1) }
  }

  @Test func variables() throws {
    let e = try SiftExpression(format: "$A + $B * SUBQUERY(xs, $x, $x > $C).@count")
    #expect(e.variables == ["A", "B", "C"])
    let s = e.substituting(["A": 1, "C": 2])
    #expect(s.variables == ["B"])
    #expect(s.expressionFormat == "1 + $B * SUBQUERY(xs, $x, $x > 2).@count")
  }

  /// Input, diagnostic id, and a fragment of the message or a note.
  static let errors: [(String, String, String)] = [
    ("", "empty-expression", "input is empty"),
    ("a == 1", "unexpected-token", "SiftPredicate(format:)"),
    ("a AND b", "unexpected-token", "SiftPredicate(format:)"),
    ("a b", "unexpected-token", "after a complete expression"),
    ("sum:(", "expected-expression", ""),
    ("summ:(x)", "unknown-function", "sum"),
    ("count:(a, b)", "wrong-argument-count", ""),
    ("(a + 1", "expected-closing-paren", ""),
    ("'open", "unterminated-string", ""),
  ]

  @Test(arguments: errors.indices)
  func badInputIsADiagnosticWithAPosition(_ i: Int) {
    let (source, id, fragment) = Self.errors[i]
    do {
      _ = try SiftExpression.parse(source)
      Issue.record("\(source) parsed")
    } catch {
      #expect(error.stage == .parse)
      #expect(error.diagnostic.id == id, "\(source): \(error.diagnostic.id) \(error.diagnostic.message)")
      let text = SiftDiagnosticRenderer().render(error.diagnostic, in: source)
      #expect(fragment.isEmpty || text.contains(fragment), "\(text)")
    }
  }

  @Test(arguments: 0..<10)
  func randomExpressionsRoundTrip(_ batch: Int) throws {
    var gen = RandomAST(seed: UInt64(batch) &* 31 &+ 5)
    for _ in 0..<200 {
      let tree = gen.expression(0)
      let printed = CanonicalPrinter().print(tree)
      do {
        let e = try SiftExpression.parse(printed)
        #expect(e.root == tree, "\(printed)")
        #expect(e.expressionFormat == printed)
      } catch {
        Issue.record("printed expression does not parse:\n\(printed)\n\(error)")
      }
    }
  }
}
