import Foundation
import SiftSyntax
import Testing

@testable import SiftCLI

/// The REPL scans memory on every core (`scanWorkers`): the text it prints — tables, counts,
/// sorted pages, aggregates, errors — is the one-thread text, and memory agrees with SQLite.
@Suite("REPL scans on several threads")
struct REPLParallelScanTests {
  static let inputs = [
    ".count distance < 1",
    ".count ANY tags == \"wifi\"",
    "name BEGINSWITH[c] \"quiet\" AND city ==[c] \"tokyo\"",
    "rating > 4.5 AND favorite == YES",
    ".agg rating tipCount > 100",
    ".sort distance desc",
    "distance < 3",
    ".sort",
    ".limit 5",
    ".offset 3",
    "ANY tags IN {'vegan', 'late-night'}",
  ]

  @Test("one thread and several print the same text")
  func sameText() {
    var transcripts: [[String]] = []
    for workers in [1, 2, 3] {
      let session = REPLSession()
      session.scanWorkers = workers
      #expect(session.execute(".generate 120000").status == .ok)
      transcripts.append(Self.inputs.map { session.execute($0).text })
    }
    #expect(transcripts[0].allSatisfy { !$0.hasPrefix("error") }, "\(transcripts[0])")
    #expect(transcripts[1] == transcripts[0])
    #expect(transcripts[2] == transcripts[0])
  }

  @Test("memory and SQLite agree on a scan split across threads")
  func memoryAgreesWithSQLite() {
    let session = REPLSession()
    session.scanWorkers = 2
    #expect(session.execute(".generate 60000").status == .ok)
    for p in [
      "distance < 1", "ANY tags == \"wifi\"", "name BEGINSWITH[c] \"quiet\" AND city ==[c] \"tokyo\"",
      "rating >= 4 OR tipCount < 10",
    ] {
      let text = session.execute(".compare " + p).text
      #expect(text.contains("agree: "), "\(p): \(text)")
    }
  }

  /// A strict scan stops at the first record that cannot be evaluated, and names it by its
  /// position in the whole entity, however the scan was split.
  @Test("the first failing record is the one reported")
  func firstFailure() {
    var records: [SiftValue] = (0..<70_000).map { ["id": .int(Int64($0)), "x": .int(Int64($0))] }
    records[52_000] = ["id": 52_000, "x": "fifty-two thousand"]
    records[61_000] = ["id": 61_000, "x": "sixty-one thousand"]
    var texts: [String] = []
    for workers in [1, 2, 4] {
      let session = REPLSession()
      session.scanWorkers = workers
      session.add(REPLDataSet(name: "mixed", records: records))
      session.entity = "mixed"
      let r = session.execute(".count x > 10")
      #expect(r.status == .failed)
      texts.append(r.text)
      #expect(session.execute(".count id < 52000 AND x > 10").text == "51989\n")
    }
    #expect(texts[0].contains("note: while evaluating record 52000"), "\(texts[0])")
    #expect(texts[1] == texts[0] && texts[2] == texts[0])
  }
}
