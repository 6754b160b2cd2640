import Foundation
import SiftSQLite
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `sift batch` gives each answer as soon as it is known and names bad cases; strings from a
/// database are printed with control characters escaped; an empty `--pg-schema` is Sift's error.
@Suite("sift batch robustness and escaped database text")
struct BatchRobustnessTests {
  static func file(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-batch-\(UUID().uuidString).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// The first answer arrives while standard input is still open (no buffering until exit).
  @Test(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
  func eachAnswerIsWrittenAtOnce() throws {
    let data = try Self.file(#"[{"a": 1}, {"a": 2}]"#)
    defer { try? FileManager.default.removeItem(atPath: data) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try #require(TmuxHarness.siftBinary))
    p.arguments = ["batch", "--data", data]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = FileHandle.nullDevice
    try p.run()
    defer {
      try? input.fileHandleForWriting.close()
      p.waitUntilExit()
    }
    input.fileHandleForWriting.write(Data(#"{"id": 1, "format": "a == 2"}"#.utf8 + [10]))
    let got = DispatchSemaphore(value: 0)
    let box = LineBox()
    let reader = output.fileHandleForReading
    DispatchQueue.global().async {
      box.set(reader.availableData)
      got.signal()
    }
    let answered = got.wait(timeout: .now() + 20) == .success
    if !answered { p.terminate() }
    #expect(answered, "no answer while the input stays open")
    #expect(String(decoding: box.get(), as: UTF8.self).contains(#""matches": [1]"#))
  }

  @Test func badCasesAreNamedWithTheirID() {
    var context = BatchContext(lenient: false)
    context.data = CommandInputs.DataSet(values: [["a": 1]])
    let cases: [(String, SiftValue, String)] = [
      (#"{"id": 7, "format": "a > %@", "args": [{"$date": "yesterday"}]}"#, 7, #"invalid $date "yesterday""#),
      (
        #"{"id": "x", "format": "a > %@", "args": {"$date": "2024-03-01T00:00:00Z"}}"#, "x", #""args" must be an array"#
      ),
      (#"{"id": 8, "format": "a > %@", "args": 3}"#, 8, #""args" must be an array"#),
      (#"{"id": 9, "format": "a > $x", "variables": [1]}"#, 9, #""variables" must be an object"#),
      (#"{"id": 10, "format": "#, .null, "unexpected end of JSON"),
    ]
    for (line, id, message) in cases {
      guard case .dictionary(let out) = context.process(line: line, lineNumber: 1),
        case .dictionary(let error)? = out["error"],
        case .string(let text)? = error["message"]
      else {
        Issue.record("no error for \(line)")
        continue
      }
      #expect(out["id"] == id, "\(line)")
      #expect(out["stage"] == "input")
      #expect(text.contains(message), "\(line): \(text)")
    }
  }

  @Test(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
  func emptyPostgresSchemaIsSiftsError() throws {
    let run = try SiftProcess.run(
      ["batch", "--postgres", "host=127.0.0.1 port=1 connect_timeout=2", "--pg-schema", "", "--entity", "t"], stdin: "")
    #expect(run.status != 0)
    #expect(run.stderr.contains("--pg-schema is empty"), "\(run.stderr)")
    #expect(!run.stderr.contains("syntax error"))
  }

  /// A table, a column and a value carrying escape sequences: `.tables`, `.schema` and rows
  /// show them escaped.
  @Test(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
  func databaseTextIsEscaped() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-esc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("esc.sqlite").path
    do {
      let db = try SQLiteDatabase(path: path)
      try db.executeScript(
        """
        CREATE TABLE "evil\u{1B}[31mred" (id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE plain (id INTEGER PRIMARY KEY, "col\u{1B}]0;title\u{07}x" TEXT, v TEXT);
        INSERT INTO plain VALUES (1, 'a', 'clear\u{1B}[2Jscreen\u{9B}31m');
        """)
    }
    let run = try SiftProcess.run(["--db", path, "-c", ".tables", "-c", ".schema plain", "-c", "id == 1"], stdin: "")
    let all = run.stdout + run.stderr
    #expect(
      !all.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" }, "\(all.debugDescription)")
    #expect(all.contains(#"evil\x1B[31mred"#))
    #expect(all.contains(#"clear\x1B[2Jscreen\u{9B}31m"#), "\(all)")
  }
}

/// Bytes read on another thread.
final class LineBox: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ d: Data) { lock.withLock { data = d } }
  func get() -> Data { lock.withLock { data } }
}
