import Foundation
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// Data files whose records are plain values (`["Do", "Re", "Mi"]`) in `sift eval`,
/// `sift batch` and the REPL: evaluated as `SELF`; SQL, which needs rows, says why it is skipped.
@Suite("Plain-value records in the CLI")
struct PlainValueDataTests {
  static func file(_ json: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-plain-\(UUID().uuidString).json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/sql/venues.schema.json").path

  @Test func dataSetEvaluatesPlainValues() throws {
    let path = try Self.file(#"["Do", "Re", "Mi", "do"]"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let data = try CommandInputs.data(path)
    #expect(data.records == nil)
    #expect(data.notRowsReason == "record 0 is string, not an object")
    let m = try SiftPredicate(format: "SELF BEGINSWITH[c] 'd'").compile()
    #expect(try data.matchingIndices(m, variables: [:]) == [0, 3])
  }

  @Test func objectDataKeepsTheFastRecords() throws {
    let path = try Self.file(#"[{"a": 1}, {"a": 2}]"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let data = try CommandInputs.data(path)
    #expect(data.records?.count == 2)
    #expect(data.notRowsReason == nil)
  }

  @Test func batchMatchesInMemoryAndSaysWhySQLIsSkipped() throws {
    let path = try Self.file(#"["Do", "Re", "Mi"]"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var context = BatchContext(lenient: false)
    context.data = try CommandInputs.data(path)
    let memory = context.process(line: #"{"id": 1, "format": "SELF BEGINSWITH[c] %@", "args": ["d"]}"#, lineNumber: 1)
    #expect(memory == ["id": 1, "ok": true, "canonical": #"SELF BEGINSWITH[c] "d""#, "matches": [0]])

    try context.configureSQL(schema: Self.schema, entity: "Venue", postgres: nil)
    guard case .dictionary(let out) = context.process(line: #"{"id": 2, "format": "name == 'Do'"}"#, lineNumber: 2)
    else {
      Issue.record("no result")
      return
    }
    #expect(out["ok"] == true)
    #expect(out["matches"] == [])
    #expect(out["sql"] != nil)
    #expect(out["sqlMatches"] == nil)
    #expect(out["sqlSkipped"] == "the records are not SQL rows: record 0 is string, not an object")
  }

  @Test func replDescribesAndShowsPlainValuesAsSelf() throws {
    let path = try Self.file(#"["Do", "Re", "Mi"]"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = REPLSession(style: REPLStyle(colors: false))
    let loaded = session.execute(".load \(path) --as notes").text
    #expect(loaded.hasPrefix("loaded 3 records as 'notes' (1 attributes)"))
    #expect(loaded.contains("not loaded into SQL: record 0 is string, not an object"))
    #expect(session.execute("SELF BEGINSWITH[c] 'd'").text == " SELF\n------\n Do\n(1 row)\n")
    #expect(session.execute(".count SELF != 'Re'").text == "2\n")
    #expect(session.execute(".describe").text.contains(" SELF      | string | Do"))
  }

  @Test(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
  func siftEvalPrintsTheMatches() throws {
    let path = try Self.file(#"["Do", "Re", "Mi"]"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try SiftProcess.run(["eval", #"SELF BEGINSWITH[c] "d""#, "--data", path], stdin: "")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "\"Do\"\n")
    let count = try SiftProcess.run(["eval", "SELF != 'Re'", "--data", path, "--count"], stdin: "")
    #expect(count.stdout == "2\n")
  }
}
