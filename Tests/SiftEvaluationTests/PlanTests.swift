import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// The plan lowered by `Specializer` against the same plan lowered generically (the pass not
/// run), on shapes where the pass works from what planning resolved: folded constants, OR runs
/// rebuilt from their planned terms, patterns and lists prepared for the fast paths.
@Suite struct PlanTests {
  static let shapes: [String] = {
    let run = (0..<9).map { "$x.p == \($0 % 3)" }.joined(separator: " OR ")
    let keys = (0..<18).map { $0 % 2 == 0 ? "a == \($0 / 2)" : "s == 'x\($0)'" }.joined(separator: " OR ")
    let contiguous = (0..<9).map { "a == \($0)" }.joined(separator: " OR ")
    return [
      "a >= 0 + 1 AND a <= 2 * 1", "a > -1 AND a < 2 AND a != 0.5", "a >= 0 AND a <= 1 AND s BEGINSWITH 'B'",
      "SUBQUERY(m, $x, \(run)).@count > 0", "SUBQUERY(m, $x, $x.p >= 1 - 1 AND $x.v == YES).@count > 0",
      "SUBQUERY(m, $x, $x.p > 0).@count + 1 > 1", "SUBQUERY(m, $x, ANY $x.p == 1).@count > 0",
      "s MATCHES lowercase('(BLUE|RED) .*')", "s MATCHES '[a-z]+'", "ANY loc.city MATCHES 'Z.*h'",
      "ANY t MATCHES 'wi.i'", "a IN {\((0..<20).map(String.init).joined(separator: ", "))}",
      "a IN[c] {'x', 'wifi', \((0..<16).map { "'w\($0)'" }.joined(separator: ", "))}", keys,
      "s == 'x' OR \(contiguous) OR s BEGINSWITH 'B'", "NOT (\(contiguous))",
      "(a + 1) * 2 > 2 AND loc.city ==[c] 'zürich'",
      "t.@count + 0 == 1", "loc.zip.code.@count == 0", "TRUEPREDICATE AND a == 1", "TERNARY(a == 1, s, 'x') == 'x'",
    ]
  }()

  @Test(arguments: shapes)
  func specializedPlanAgreesWithGenericPlan(format: String) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: 7))
    let records = (0..<80).map { _ in g.record() }
    let p = try SiftPredicate(format: format)
    for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
      let options = EvaluationOptions(policy: policy)
      let fast = try p.compile(options, fastPaths: true), slow = try p.compile(options, fastPaths: false)
      for (i, r) in records.enumerated() {
        let want = FastPathTests.outcome(slow, r)
        #expect(FastPathTests.outcome(fast, r) == want, "\(format) on dictionary \(i)")
        #expect(FastPathTests.outcome(fast, SiftObject(r)) == want, "\(format) on object \(i)")
        #expect(
          FastPathTests.outcome(fast, OpaqueRow(fields: r)) == FastPathTests.outcome(slow, OpaqueRow(fields: r)),
          "\(format) on row \(i)")
      }
      #expect(
        SpecializedTests.batch(fast, records.map { SiftObject($0) }) == SpecializedTests.batch(slow, records),
        "\(format) in a batch")
    }
  }

  /// Lowering walks the plan recursively (as planning does): the deepest trees the parser
  /// accepts, and very long connectives, lower both ways and agree.
  @Test func deepAndWidePlansLower() throws {
    let deepNot = String(repeating: "NOT (", count: 60) + "a == 1" + String(repeating: ")", count: 60)
    let deepArithmetic = String(repeating: "(", count: 60) + "a" + String(repeating: " + 1)", count: 60) + " > 3"
    let wideOr = (0..<3000).map { "a == \($0 % 50) OR s == 'x\($0)'" }.joined(separator: " OR ")
    let wideAnd = (0..<3000).map { "a != \($0 + 3)" }.joined(separator: " AND ")
    var g = FastPathGenerator(rng: SeededRandom(seed: 11))
    let records = (0..<30).map { _ in g.record() }
    for format in [deepNot, deepArithmetic, wideOr, wideAnd] {
      let p = try SiftPredicate(format: format)
      let fast = try p.compile(EvaluationOptions(), fastPaths: true)
      let slow = try p.compile(EvaluationOptions(), fastPaths: false)
      for (i, r) in records.enumerated() {
        #expect(FastPathTests.outcome(fast, r) == FastPathTests.outcome(slow, r), "\(format.prefix(40)) on \(i)")
      }
    }
  }

  /// `SiftOrMerging.parts` says which terms each merged IN stands for: every term is covered
  /// once (kept, or one of a merged IN's values), and a merged IN has its first term's operand.
  @Test func orMergingPartsPointAtTheirTerms() throws {
    let formats = [
      (0..<20).map { "a == \($0)" }.joined(separator: " OR "),
      "s == 'q' OR " + (0..<10).map { "a == \($0)" }.joined(separator: " OR ") + " OR t == 1",
      (0..<24).map { $0 % 3 == 0 ? "a == \($0)" : "s ==[c] 'x\($0)'" }.joined(separator: " OR "),
      (0..<9).map { "a.b == \($0)" }.joined(separator: " OR ") + " OR a == 1",
      "a == 1 OR a == 2",
    ]
    for format in formats {
      guard case .or(let terms) = try SiftPredicate(format: format).root.kind else {
        Issue.record("\(format) is not an OR")
        continue
      }
      var covered = 0
      var kept: Set<Int> = []
      for part in SiftOrMerging.parts(terms) {
        switch part {
        case .term(let i):
          #expect(kept.insert(i).inserted, "\(format): term \(i) twice")
          covered += 1
        case .merged(let node, let first):
          guard case .comparison(let c) = node.kind, case .comparison(let f) = terms[first].kind,
            case .constant(.array(let values)) = c.rhs.kind
          else {
            Issue.record("\(format): merged part is not an IN of constants")
            continue
          }
          #expect(c.op == .in && c.lhs == f.lhs && c.options == f.options, "\(format)")
          covered += values.count
        }
      }
      #expect(covered == terms.count, "\(format)")
      #expect(
        SiftOrMerging.parts(terms).map { part -> PredicateNode in
          switch part {
          case .term(let i): return terms[i]
          case .merged(let node, _): return node
          }
        } == SiftOrMerging.merged(terms), "\(format)")
    }
  }
}
