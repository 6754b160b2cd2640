import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// Apple's known functions of issue #31: `random:` (a random element of an array) and
/// `objectFrom:withIndex:` (Apple's spelling of `a[i]`), with the error ids they give.
@Suite struct AppleFunctionTests {
  /// `(format, expected)`: true/false on `sample`.
  static let answers: [Row] = [
    ("random:(nums) IN nums", true), ("random(nums) IN {1, 2, 3, 4}", true), ("random:({7}) == 7", true),
    ("random:(empty) == nil", true), ("random:(nothing) == nil", true), ("random:(tags) IN tags", true),
    ("objectFrom:withIndex:(nums, 0) == 1", true), ("objectFrom:withIndex:(nums, 3) == 4", true),
    ("objectFrom:withIndex:({'a', 'b'}, 1) == 'b'", true), ("objectFrom:withIndex:(tags, n - 4) == 'vegan'", true),
    ("objectFrom:withIndex:(nums, 0) == nums[0]", true), ("objectFrom:withIndex:(nothing, 0) == nil", true),
    // Out of range answers as `nums[4]` does: nil.
    ("objectFrom:withIndex:(nums, 4) == nil", true), ("nums[4] == nil", true),
  ]
  @Test(arguments: answers) func answersAsApple(_ row: Row) { OperatorTests.check(row) }

  /// `(format, error id)`.
  static let errors: [(String, String)] = [
    ("random:(5) < 5", "not-a-collection"), ("random:('abc') == 'a'", "not-a-collection"),
    ("objectFrom:withIndex:(nums, 'x') == 1", "invalid-index"),
  ]
  @Test(arguments: errors) func errorsNameTheProblem(_ row: (String, String)) {
    #expect(evaluationError(row.0)?.diagnostic.id == row.1, "\(row.0)")
  }

  /// `(format, parse error id)`.
  static let parseErrors: [(String, String)] = [
    ("objectFrom:withIndex:(nums) == 1", "wrong-argument-count"), ("random:(nums, 1) == 1", "wrong-argument-count"),
  ]
  @Test(arguments: parseErrors) func parseErrorsNameTheProblem(_ row: (String, String)) {
    #expect(evaluationError(row.0)?.diagnostic.id == row.1, "\(row.0)")
  }

  @Test func objectFromWithIndexIsTheIndexNode() throws {
    let a = try SiftPredicate(format: "objectFrom:withIndex:(nums, 2) == 3")
    let b = try SiftPredicate(format: "nums[2] == 3")
    #expect(a.description == b.description)
    #expect(BuiltinFunction.randomElement.isDeterministic == false)
    #expect(BuiltinFunction(spelling: "random", argumentCount: 1) == .randomElement)
  }
}
