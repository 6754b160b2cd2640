import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// Issue 16 at scale: a scan split into many parts across threads gives the answers SQL gives
/// (SQLite, and PostgreSQL when `SIFT_POSTGRES` is set) — the same records in the same order —
/// and records that fail to evaluate keep their strict/lenient behaviour in `sift eval`'s scan.
@Suite("Scans at scale agree with SQL")
struct ScaleAgreementTests {
  static let predicates = [
    "distance < 1",
    "ANY tags == \"wifi\"",
    "name BEGINSWITH[c] \"quiet\" AND city ==[c] \"tokyo\"",
    "rating >= 4.5 OR (tipCount < 10 AND favorite == YES)",
    "NOT (ANY tags IN {'vegan', 'late-night'}) AND distance BETWEEN {10, 12}",
  ]

  @Test("200,000 records on two threads: memory, SQLite and PostgreSQL return the same rows in the same order")
  func memoryAgreesWithSQL() throws {
    let session = REPLSession()
    session.scanWorkers = 2
    #expect(session.execute(".generate 200000").status == .ok)
    var engines = ["memory", "sqlite"]
    if let conninfo = REPLPostgres.conninfo {
      let connected = session.execute(".connect " + conninfo)
      #expect(connected.status == .ok, "\(connected.text)")
      engines.append("postgres")
    }
    #expect(session.execute(".columns id, name, city, distance").status == .ok)
    #expect(session.execute(".sort id desc").status == .ok)
    #expect(session.execute(".limit 50").status == .ok)
    for p in Self.predicates {
      let compared = session.execute(".compare " + p).text
      #expect(compared.contains("agree: "), "\(p): \(compared)")
      #expect(compared.contains("postgres") == engines.contains("postgres"), "\(compared)")
      // Enough matches that a page of 50 can show a different order.
      let count = compared.split(separator: "agree: ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
      #expect(count > 50, "\(p): \(compared)")
      var texts: [String] = []
      for engine in engines {
        #expect(session.execute(".engine " + engine).status == .ok)
        texts.append(session.execute(p).text)
      }
      #expect(session.execute(".engine memory").status == .ok)
      #expect(texts.allSatisfy { $0 == texts[0] }, "\(p): \(texts.map { $0.prefix(300) })")
      #expect(texts[0].contains(" | "), "\(p): \(texts[0].prefix(300))")
    }
  }

  /// `sift eval` scans on every core: strict stops at the first record that fails (named by
  /// its position), lenient skips failing records — as one thread, record by record, does.
  @Test("sift eval's scan: strict names the first failing record, lenient skips failures", arguments: [1, 2, 3])
  func strictAndLenient(workers: Int) throws {
    var values: [SiftValue] = (0..<30_000).map { ["id": .int(Int64($0)), "x": .int(Int64($0 % 100))] }
    for bad in [29_000, 17_000, 17_001] { values[bad] = ["id": .int(Int64(bad)), "x": "text"] }
    let data = CommandInputs.DataSet(values: values)
    let predicate = try SiftPredicate(format: "x > 97")
    let want = (0..<30_000).filter { $0 % 100 > 97 && ![29_000, 17_000, 17_001].contains($0) }

    let lenient = try predicate.compile(EvaluationOptions(policy: .treatAsNoMatch))
    #expect(try data.matchingIndices(lenient, variables: [:], workers: workers) == want)

    let strict = try predicate.compile()
    do {
      _ = try data.matchingIndices(strict, variables: [:], workers: workers)
      Issue.record("a strict scan over failing records succeeded")
    } catch {
      #expect(error.diagnostic.notes.last?.message == "while evaluating record 17000")
    }
  }
}
