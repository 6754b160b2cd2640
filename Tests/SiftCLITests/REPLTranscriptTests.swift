import Foundation
import Testing

@testable import SiftCLI

/// Transcript tests: each `Transcripts/*.txt` file is a recorded session. Lines that start
/// with a prompt (`venues> `, `notes> `, continuation `   ...> `) are inputs; everything else
/// is the expected output. The test replays the inputs through `REPLLoop` (no terminal) and
/// compares the whole text. Re-record with `SIFT_RECORD_TRANSCRIPTS=1 swift test …`.
enum Transcript {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Transcripts")

  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".txt") }.sorted()
  }

  /// The input part of a line, when it starts with a prompt.
  static func input(in line: String) -> String? {
    guard let range = line.range(of: "> ") else { return nil }
    let prompt = line[..<range.lowerBound]
    let isPrompt =
      !prompt.isEmpty
      && (prompt.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        || prompt.trimmingCharacters(in: .whitespaces) == "...")
    return isPrompt ? String(line[range.upperBound...]) : nil
  }

  /// Replays the inputs of `text` and returns the produced transcript.
  static func replay(_ text: String) throws -> String {
    let inputs = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { input(in: String($0)) }
    let session = try REPLSession.withSampleData()
    var out = ""
    let loop = REPLLoop(session: session, source: ScriptedLineSource(inputs), options: .init(echo: true)) { text, _ in
      out += text
    }
    _ = loop.run()
    return out
  }
}

@Suite("REPL transcripts")
struct REPLTranscriptTests {
  @Test("there are transcripts to replay")
  func transcriptsExist() {
    #expect(Transcript.names.count >= 3)
  }

  @Test("transcript replays as recorded", arguments: Transcript.names)
  func replay(_ name: String) throws {
    let url = Transcript.directory.appendingPathComponent(name)
    let expected = try String(contentsOf: url, encoding: .utf8)
    let actual = try Transcript.replay(expected)
    if ProcessInfo.processInfo.environment["SIFT_RECORD_TRANSCRIPTS"] != nil {
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(actual == expected, "transcript \(name) differs; re-record with SIFT_RECORD_TRANSCRIPTS=1")
  }

  @Test(
    "prompt detection",
    arguments: [
      ("venues> a == 1", "a == 1"), ("notes> .help", ".help"), ("     ...> 'x')", "'x')"),
      (" id | name", nil), ("error: x > 1", nil), ("(3 rows)", nil),
    ] as [(String, String?)])
  func promptDetection(_ line: String, _ input: String?) {
    #expect(Transcript.input(in: line) == input)
  }
}
