// A user file that imports Foundation and Sift together must compile: none of Sift's public
// names may collide with Foundation's (Predicate, Expression, PredicateError, NSPredicate).
import Foundation
import SiftSyntax
import Testing

@Suite("Foundation interop")
struct FoundationInteropTests {
  struct Item { var n: Int }

  @Test func bothPredicateKindsCoexist() throws {
    let foundation = #Predicate<Item> { $0.n > 1 }
    let sift = try SiftPredicate(format: "n > %@", 1)
    #expect(try foundation.evaluate(Item(n: 2)))
    #expect(sift.predicateFormat == "n > 1")
    let _: PredicateError? = nil
    let _: SiftError? = nil
  }
}
