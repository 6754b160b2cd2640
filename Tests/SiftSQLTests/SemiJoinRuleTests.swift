import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftSQL

/// `SQLCompilation.rejectsNil`, which decides when a to-one comparison becomes a semi-join,
/// reads the operator's shape (`ComparisonOperator.rightOperand`) rather than a list of
/// operators. For every operator and constant kind: when it says "false for nil", memory
/// agrees (a nil or missing left side never matches); and every operator but `!=` and the
/// UTI pair takes the semi-join for some constant, so a new operator gets the indexable form
/// without an edit there.
@Suite("Semi-join rule from the operator's shape")
struct SemiJoinRuleTests {
  static let constants: [SiftValue] = [
    .string("a"), .string(""), .int(1), .double(2.5), .bool(true), .null, .array([.string("a"), .int(1)]),
    .array([.string("a"), .string("b")]), .array([]), .array([.null]), .array([.int(1), .int(3)]),
  ]

  @Test(arguments: ComparisonOperator.allCases)
  func falseForNilAsInMemory(_ op: ComparisonOperator) throws {
    let nilRecords: [SiftValue] = [[:], ["x": .null]]
    var taken = 0
    for v in Self.constants where SQLCompilation.rejectsNil(op, v) {
      taken += 1
      let p = try SiftPredicate(format: "x \(op.keyword) %@", arguments: [v])
      // An error (a bad pattern, a wrong number of bounds) is an error in the joined form too.
      let matched = (try? p.compile().matchingIndices(nilRecords)) ?? []
      #expect(matched.isEmpty, "\(p.predicateFormat) matches a nil x, so its semi-join would drop rows")
    }
    let neverJoined: Set<ComparisonOperator> = [.notEqual, .utiConformsTo, .utiEquals]
    #expect((taken > 0) == !neverJoined.contains(op), "\(op.keyword): semi-joined for \(taken) constants")
  }
}
