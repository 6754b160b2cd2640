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
    ("objectFrom:withIndex:(nums, name) == 1", "invalid-index"),
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
    // A string index is a key, as `a["x"]` parses, so the printed form parses back to the same
    // tree (fuzz: parse, Regressions/parse/object-from-with-string-index).
    for (format, literal) in [
      ("objectFrom:withIndex:(loc, 'city') == 'Zürich'", "loc['city'] == 'Zürich'"),
      ("objectFrom:withIndex:(nums, '1') == 2", "nums['1'] == 2"),
    ] {
      let p = try SiftPredicate(format: format)
      #expect(p.root == (try SiftPredicate(format: literal).root), "\(format)")
      #expect(try SiftPredicate(format: p.predicateFormat).root == p.root, "\(format)")
    }
    #expect(BuiltinFunction.randomElement.isDeterministic == false)
    #expect(BuiltinFunction(spelling: "random", argumentCount: 1) == .randomElement)
  }
}

/// `castObject:toType:` is Apple's selector for CAST: the same node, so every engine agrees.
@Suite struct CastObjectTests {
  static let answers: [Row] = [
    ("castObject:toType:('42', 'NSNumber') == 42", true), ("castObject:toType:(n, 'NSString') == '5'", true),
    ("castObject:toType:(0, 'NSDate') == CAST('2001-01-01T00:00:00Z', 'NSDate')", true),
    ("castObject:toType:(when, 'NSNumber') == 1000", true), ("castObject:toType:(tags, 'NSArray') == tags", true),
    ("castObject:toType:('x', 'NSNumber') == nil", true),
  ]
  @Test(arguments: answers) func answersAsCast(_ row: Row) { OperatorTests.check(row) }

  /// `(format, error id)`: parse and evaluation errors as CAST gives them.
  static let errors: [(String, String)] = [
    ("castObject:toType:(n, 'NSThing') == 1", "unknown-cast-type"),
    ("castObject:toType:(n, 5) == 1", "expected-string"),
    ("castObject:toType:(n) == 1", "expected-comma"),
    ("castObject:toType:(n, 'NSArray') == n", "invalid-cast"),
  ]
  @Test(arguments: errors) func errorsAsCast(_ row: (String, String)) {
    #expect(evaluationError(row.0)?.diagnostic.id == row.1, "\(row.0)")
  }

  @Test func sameNodeAsCast() throws {
    let a = try SiftPredicate(format: "castObject:toType:(name, 'NSNumber') > 1")
    let b = try SiftPredicate(format: "CAST(name, 'NSNumber') > 1")
    #expect(a.description == b.description)
    let d = try SiftPredicate(format: "castObject:toType:(10, 'NSDate') < now()")
    #expect(d.description == (try SiftPredicate(format: "CAST(10, 'NSDate') < now()")).description)
  }
}
