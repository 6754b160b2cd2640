import Foundation
import SiftSyntax
import Testing

/// Every conformance case, three ways: memory == SQLite == PostgreSQL (PostgreSQL only when
/// `SIFT_POSTGRES` reaches a server), and memory == the expected answer.
@Suite("Differential: conformance cases")
struct DifferentialConformanceTests {
  @Test func everyConformanceCaseAgreesAcrossEngines() throws {
    let cases = try DifferentialSchemas.conformanceCases()
    #expect(cases.count >= 125)
    let engines = try ThreeWay(
      schema: try DifferentialSchemas.venue(), entity: "Venue",
      records: try DifferentialSchemas.venueRecords())
    if engines.postgres == nil { print("note: PostgreSQL leg skipped. \(PostgresTestServer.skipMessage)") }
    var reports: [String] = []
    var compared = 0
    for c in cases {
      let p: SiftPredicate
      do {
        p = try SiftPredicate(format: c.format, arguments: c.args)
      } catch {
        #expect(c.expected == nil, "\(c.id) failed to parse: \(error)")
        continue
      }
      compared += 1
      let outcomes = engines.outcomes(p)
      if let found = engines.check(p, label: c.id, given: outcomes) { reports.append(found.report) }
      let memory = outcomes.memory
      switch (memory, c.expected) {
      case (.matches(let m), let expected?): #expect(m == expected, "\(c.id): memory differs from expected")
      case (.failed, nil): break
      default:
        Issue.record("\(c.id): memory \(memory), expected \(c.expected.map { "\($0.count) matches" } ?? "error")")
      }
    }
    for r in reports { print(r) }
    #expect(reports.count == 0, "\(reports.count) of \(compared) conformance cases disagree (details printed above)")
    print(
      "differential conformance: \(compared) cases compared, \(reports.count) disagreements, postgres \(engines.postgres == nil ? "skipped" : "included")"
    )
  }
}
