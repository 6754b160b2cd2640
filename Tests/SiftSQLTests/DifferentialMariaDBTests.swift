import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import Testing

/// The differential tests' fourth engine: memory == MariaDB on the same seeded random data and
/// predicates as `DifferentialRandomTests` and on every conformance case, through `SiftMySQL`
/// and `MySQLDialect`. Skipped, with a printed note, without `SIFT_MYSQL`. A refusal documented
/// in Grammar/notes/mysql.md (what MariaDB cannot say) is counted apart, never as an answer.
@Suite("Differential: MariaDB")
struct DifferentialMariaDBTests {
  /// Tallies of one run.
  struct Tally {
    var compared = 0
    var documented: [String] = []
    var reports: [String] = []
  }

  /// Memory's outcome and MariaDB's for `p`, tallied; `label` names it in a report.
  static func compare(_ p: SiftPredicate, _ memory: [SiftObject], _ leg: MariaDBLeg, label: String, _ t: inout Tally) {
    t.compared += 1
    let mem: EngineOutcome
    do {
      mem = .matches(try p.compile().matchingIndices(memory))
    } catch {
      mem = .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
    let maria = leg.run(p)
    switch (mem, maria) {
    case (.matches(let a), .matches(let b)) where a == b: return
    case (.failed, .failed): return
    default: break
    }
    if MariaDBLeg.isDocumentedRefusal(maria) {
      t.documented.append("\(label): \(p.source) → \(maria)")
      return
    }
    var diff = ""
    if case .matches(let a) = mem, case .matches(let b) = maria {
      diff =
        " (memory only: \(Set(a).subtracting(b).sorted().prefix(8)); mariadb only: "
        + "\(Set(b).subtracting(a).sorted().prefix(8)))"
    }
    t.reports.append(
      "DISAGREEMENT \(label)\n  predicate: \(p.source)\n  memory: \(mem)\n  mariadb: \(maria)\(diff)\n  SQL: "
        + leg.sql(p))
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func randomPredicatesAgreeWithMemory(seed: UInt64) throws {
    let records = RandomData.records(seed: seed, count: DifferentialRandomTests.recordsPerSeed)
    guard
      let leg = try MariaDBLeg(schema: try DifferentialSchemas.thing(), entity: "Thing", records: records)
    else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    let memory = try JSONRecords.records(from: .array(records))
    var generator = RandomPredicates(seed: seed &* 7919)
    var t = Tally()
    for i in 0..<DifferentialRandomTests.predicatesPerSeed {
      let g = generator.next()
      guard let p = try? SiftPredicate(format: g.format, arguments: g.args) else { continue }
      Self.compare(p, memory, leg, label: "seed \(seed) #\(i)", &t)
    }
    for r in t.reports { print(r) }
    #expect(t.reports.isEmpty, "seed \(seed): \(t.reports.count) of \(t.compared) predicates disagree")
    print(
      "differential mariadb seed \(seed): \(t.compared) predicates × \(records.count) records, "
        + "\(t.reports.count) disagreements, \(t.documented.count) documented refusals"
        + (t.documented.first.map { "; first: \($0)" } ?? ""))
  }

  @Test func conformanceCasesAgreeWithMemory() throws {
    let cases = try DifferentialSchemas.conformanceCases()
    let records = try DifferentialSchemas.venueRecords()
    guard let leg = try MariaDBLeg(schema: try DifferentialSchemas.venue(), entity: "Venue", records: records)
    else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    let memory = try JSONRecords.records(from: .array(records))
    var t = Tally()
    for c in cases {
      guard let p = try? SiftPredicate(format: c.format, arguments: c.args) else { continue }
      Self.compare(p, memory, leg, label: c.id, &t)
    }
    for r in t.reports { print(r) }
    for d in t.documented { print("documented refusal: \(d)") }
    #expect(t.reports.isEmpty, "\(t.reports.count) of \(t.compared) conformance cases disagree")
    print(
      "differential mariadb conformance: \(t.compared) cases × \(records.count) records, "
        + "\(t.reports.count) disagreements, \(t.documented.count) documented refusals")
  }

  /// Batch writes report the rows memory matches: an update (of a column to itself, so the data
  /// stay as generated) for the first 120 predicates of a seed, and a delete, on fresh data each
  /// time, for the first 12, after which the rows left are those memory does not match.
  @Test(arguments: [1, 2] as [UInt64])
  func batchCountsAgreeWithMemory(seed: UInt64) throws {
    let records = RandomData.records(seed: seed, count: DifferentialRandomTests.recordsPerSeed)
    let schema = try DifferentialSchemas.thing()
    guard let leg = try MariaDBLeg(schema: schema, entity: "Thing", records: records) else {
      print("note: \(MariaDBLeg.skipMessage)")
      return
    }
    let memory = try JSONRecords.records(from: .array(records))
    var generator = RandomPredicates(seed: seed &* 7919)
    var reports: [String] = []
    var updates = 0
    var deletes = 0
    for i in 0..<120 {
      let g = generator.next()
      guard let p = try? SiftPredicate(format: g.format, arguments: g.args),
        let matched = try? p.compile().matchingIndices(memory)
      else { continue }
      let update = BatchUpdateRequest(entity: "Thing", predicate: p, assignments: [("small", try .expression("small"))])
      do {
        let count = try leg.db.run(update, compiler: leg.compiler).count
        updates += 1
        if count != matched.count { reports.append("update #\(i) \(p.source): \(count) rows, memory \(matched.count)") }
      } catch {
        let outcome = EngineOutcome.failed("\(error.diagnostic.id): \(error.diagnostic.message)")
        if !MariaDBLeg.isDocumentedRefusal(outcome) { reports.append("update #\(i) \(p.source): \(outcome)") }
      }
      guard i < 12, let fresh = try MariaDBLeg(schema: schema, entity: "Thing", records: records) else { continue }
      do {
        let count = try fresh.db.run(BatchDeleteRequest(entity: "Thing", predicate: p), compiler: fresh.compiler).count
        deletes += 1
        let left = fresh.run(try SiftPredicate(format: "TRUEPREDICATE"))
        let expected = EngineOutcome.matches((0..<records.count).filter { !matched.contains($0) })
        if count != matched.count || left != expected {
          reports.append("delete #\(i) \(p.source): \(count) rows (memory \(matched.count)); left \(left)")
        }
      } catch {
        let outcome = EngineOutcome.failed("\(error.diagnostic.id): \(error.diagnostic.message)")
        if !MariaDBLeg.isDocumentedRefusal(outcome) { reports.append("delete #\(i) \(p.source): \(outcome)") }
      }
    }
    for r in reports { print(r) }
    #expect(reports.isEmpty, "seed \(seed): \(reports.count) batch writes disagree")
    #expect(updates > 60)
    print(
      "differential mariadb batch seed \(seed): \(updates) updates, \(deletes) deletes, \(reports.count) disagreements")
  }
}
