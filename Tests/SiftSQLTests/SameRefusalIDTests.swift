import Foundation
import SiftSyntax
import Testing

/// One condition, one id (Grammar/notes/errors.md): where memory and SQL both refuse a
/// predicate over the venue sample, they report the same diagnostic id. Each row names the id
/// memory and SQL used to disagree on before they shared one list (`DiagnosticID`).
@Suite("Same refusal, same id in every engine")
struct SameRefusalIDTests {
  @Test(
    arguments: [
      // SQL said string-operator-needs-strings
      ("specialCount BEGINSWITH '1'", "not-a-string"),
      ("name CONTAINS 5", "not-a-string"),
      // SQL said string-function-needs-string
      ("uppercase(specialCount) == 'A'", "not-a-string"),
      // SQL said arithmetic-needs-numbers, memory type-mismatch
      ("name + 1 > 0", "not-a-number"),
      // SQL said aggregate-needs-numbers
      ("menu.@sum.item > 0", "not-a-number"),
      // SQL said type-mismatch
      ("name > 5", "incomparable-values"),
      // SQL said in-needs-collection
      ("5 IN specialCount", "not-a-collection"),
      // SQL said collection-operator-needs-collection
      ("name.@count > 1", "not-a-collection"),
      ("ANY name == 'x'", "quantifier-needs-collection"),
    ] as [(String, String)])
  func bothEnginesNameTheConditionAlike(_ format: String, _ id: String) throws {
    let engines = try ThreeWay(
      schema: try DifferentialSchemas.venue(), entity: "Venue", records: try DifferentialSchemas.venueRecords())
    let o = engines.outcomes(try SiftPredicate(format: format))
    let engineOutcomes = [("memory", o.memory), ("sqlite", o.sqlite)] + (o.postgres.map { [("postgresql", $0)] } ?? [])
    for (engine, outcome) in engineOutcomes {
      guard case .failed(let failure) = outcome else {
        Issue.record("\(format): \(engine) did not refuse (\(outcome))")
        continue
      }
      #expect(RefusalIDs.id(failure) == id, "\(format): \(engine) \(failure)")
    }
  }

  @Test func aRunTimeDatabaseFailureAgreesWithAnyRefusal() {
    #expect(RefusalIDs.agree("not-a-string: x", "not-a-string: y"))
    #expect(!RefusalIDs.agree("not-a-string: x", "type-mismatch: y"))
    #expect(RefusalIDs.agree("division-by-zero: x", "sqlite-error: integer division by zero"))
    #expect(RefusalIDs.agree("postgres-query: bigint out of range", "not-a-number: y"))
  }
}
