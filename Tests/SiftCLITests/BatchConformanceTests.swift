import Foundation
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// The batch contract end to end: every conformance case through `BatchContext`, compared with
/// the expected answers.
@Suite("sift batch conformance")
struct BatchConformanceTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

  static func lines(_ name: String) throws -> [String] {
    try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  @Test func everyConformanceCaseMatchesExpected() throws {
    var context = BatchContext(lenient: false)
    context.data = try CommandInputs.data(Self.fixtures.appendingPathComponent("venues.json").path)
    var expected: [String: SiftValue] = [:]
    for line in try Self.lines("venues-expected.jsonl") {
      if case .dictionary(let d) = try SiftJSON.parse(line), case .string(let id)? = d["id"] {
        expected[id] = .dictionary(d)
      }
    }
    var checked = 0
    for (n, line) in try Self.lines("venues-cases.jsonl").enumerated() {
      guard case .dictionary(let out) = context.process(line: line, lineNumber: n + 1),
        case .string(let id)? = out["id"], case .dictionary(let want)? = expected[id]
      else {
        Issue.record("no result or expectation for line \(n + 1)")
        continue
      }
      #expect(out["ok"] == want["ok"], "\(id): \(SiftJSON.serialize(.dictionary(out)))")
      if want["ok"] == .bool(true) {
        #expect(out["matches"] == want["matches"], "\(id)")
      } else {
        #expect(out["error"] != nil && out["stage"] != nil, "\(id)")
      }
      checked += 1
    }
    #expect(checked == 134)
  }

  @Test func errorObjectsFollowTheContract() {
    var context = BatchContext(lenient: false)
    let out = context.process(line: #"{"id": 7, "format": "name ==\n  BEGINSWITH 'x'"}"#, lineNumber: 1)
    #expect(
      out == [
        "id": 7, "ok": false, "stage": "parse",
        "error": [
          "id": "expected-expression", "message": "expected an expression, found 'BEGINSWITH'", "line": 2, "column": 3,
          "offset": 10,
        ],
      ])
    let args = context.process(line: #"{"id": "a", "format": "%K == 1", "args": [5]}"#, lineNumber: 2)
    if case .dictionary(let d) = args { #expect(d["stage"] == "arguments") } else { Issue.record("not an object") }
    let bad = context.process(line: "not json", lineNumber: 3)
    if case .dictionary(let d) = bad { #expect(d["stage"] == "input") } else { Issue.record("not an object") }
  }

  @Test func sqliteAgreesWithMemoryOnEveryCase() throws {
    var context = BatchContext(lenient: false)
    context.data = try CommandInputs.data(Self.fixtures.appendingPathComponent("venues.json").path)
    let schema = Self.fixtures.deletingLastPathComponent().appendingPathComponent("sql/venues.schema.json").path
    try context.configureSQL(schema: schema, entity: "Venue", postgres: nil)
    var agreed = 0
    for (n, line) in try Self.lines("venues-cases.jsonl").enumerated() {
      guard case .dictionary(let out) = context.process(line: line, lineNumber: n + 1) else { continue }
      guard out["ok"] == .bool(true) else { continue }
      #expect(out["sqlMatches"] == out["matches"], "\(out["id"] ?? .null): \(out["sql"] ?? .null)")
      if case .string(let sql)? = out["sql"] { #expect(!sql.contains("'"), "a value leaked into SQL: \(sql)") }
      agreed += 1
    }
    #expect(agreed > 100)
  }
}
