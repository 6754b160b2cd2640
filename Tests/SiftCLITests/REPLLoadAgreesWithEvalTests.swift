import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// The REPL's `.load` reads a record file as `sift eval --data` does (`RecordFile`, whose general
/// way is `SiftJSON.records`): the same records, and for a broken file the same message, word for
/// word (`file:line:column: message`, the line counted in the file). Regression (#24): `.load`
/// had a copy of the rule of its own, which chose JSON Lines by the file's name and by its first
/// line (blank or not), and reported `file: 2:8: …` or `file:2: …` without a column.
@Suite struct REPLLoadAgreesWithEvalTests {
  /// A file's text, its extension, and what both read: the records, or the error's
  /// `line:column: message`.
  enum Expected {
    case records([SiftValue])
    case error(String)
  }

  static let cases: [(String, String, Expected)] = [
    // A blank first line, then an object: one value, or JSON Lines after the blank line.
    ("\n{\"a\": 1}\n", "json", .records([["a": 1]])),
    ("\n{\"a\": 1}\n{\"a\": 2}\n", "json", .records([["a": 1], ["a": 2]])),
    ("\n{\"a\": 1}\n{\"a\": }\n", "json", .error("3:7: unexpected character in JSON")),
    // A bad second line.
    ("{\"a\": 1}\n{\"a\": x}\n", "json", .error("2:7: unexpected character in JSON")),
    ("{\"a\": 1}\n{\"a\": 2\n", "jsonl", .error("2:8: unterminated object")),
    // A .jsonl with a trailing blank line; plain values; one object over several lines.
    ("{\"a\": 1}\n{\"a\": 2}\n\n", "jsonl", .records([["a": 1], ["a": 2]])),
    ("{\"a\": 1}\n\n7\n\n", "jsonl", .records([["a": 1], 7])),
    ("{\n  \"a\": 1\n}\n", "jsonl", .records([["a": 1]])),
    ("[{\"a\": 1}, {\"a\": 2}]\n", "ndjson", .records([["a": 1], ["a": 2]])),
    // An array with a bad element: the whole text's error, where it breaks.
    ("[{\"a\": 1},\n {\"a\": }]", "json", .error("2:8: unexpected character in JSON")),
    ("[{\"a\": 1},\n{\"a\": 2},\n{\"a\": 3,}\n]", "json", .error("3:9: expected a string key in object")),
    ("[{\"a\": 1}\n  {\"a\": 2}]", "jsonl", .error("2:3: expected ',' or ']' in array")),
    (
      "[{\"a\": {\"$date\": \"soon\"}}]", "json",
      .error("1:25: invalid $date \"soon\"; expected ISO 8601 such as 2024-03-01T00:00:00Z")
    ),
  ]

  @Test("`.load` and `sift eval --data` read the same records and report the same errors", arguments: cases)
  func loadReadsAsEvalDoes(text: String, ext: String, expected: Expected) throws {
    let path = NSTemporaryDirectory() + "sift-load-\(UUID().uuidString).\(ext)"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = REPLSession()
    let loaded = session.execute(".load '\(path)' --as t")
    let eval = try SiftProcess.run(["eval", "TRUEPREDICATE", "--data", path], stdin: "")
    switch expected {
    case .records(let records):
      #expect(loaded.status == .ok, "\(loaded.text)")
      #expect(session.current?.records == records)
      #expect(try CommandInputs.data(path).values == records)
      #expect(eval.status == 0, "\(eval.stderr)")
      #expect(eval.stdout == records.map { SiftJSON.serialize($0) + "\n" }.joined())
    case .error(let message):
      #expect(loaded.status == .failed)
      #expect(loaded.text == "error: \(path):\(message)\n")
      let failure = #expect(throws: CommandInputs.Failure.self) { try CommandInputs.data(path) }
      #expect(failure?.description == "\(path):\(message)" && failure?.kind == .failure)
      #expect(eval.status == 1)
      #expect(eval.stderr == "sift eval: \(path):\(message)\n")
    }
  }
}
