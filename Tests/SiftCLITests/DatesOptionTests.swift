import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// `--dates` on the commands that read JSON records, and `.load --dates` in the REPL: records
/// from a web API (ISO-8601 text, epoch numbers) compare with dates.
@Suite("--dates: JSON date strategies on the command line")
struct DatesOptionTests {
  static func file(_ json: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-dates-\(UUID().uuidString).json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  static let api =
    #"[{"id": 1, "at": "2024-02-01T00:00:00Z", "ms": 1706745600000}, {"id": 2, "at": "2024-03-05T10:30:00.5Z", "ms": 1709634600500}]"#
  static let after = #"{"$date": "2024-03-01T00:00:00Z"}"#

  @Test func evalWithoutAStrategyExplainsTheMismatch() throws {
    let path = try Self.file(Self.api)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let plain = try SiftProcess.run(["eval", "at > %@", "--arg", Self.after, "--data", path, "--count"], stdin: "")
    #expect(plain.status == 1 && plain.stderr.contains("date"), "\(plain.stderr)")
  }

  @Test(arguments: [
    (["--dates", "iso8601"], "at > %@"),
    (["--dates", "ms=milliseconds"], "ms > %@"),
    (["--dates", "at=iso8601", "--dates", "ms=milliseconds"], "at > %@ AND ms > %@"),
  ])
  func evalCountsWithAStrategy(_ options: [String], _ format: String) throws {
    let path = try Self.file(Self.api)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let args = format.components(separatedBy: "%@").count - 1
    let r = try SiftProcess.run(
      ["eval", format] + Array(repeating: ["--arg", Self.after], count: args).flatMap { $0 } + [
        "--data", path, "--count",
      ] + options,
      stdin: "")
    #expect(r.status == 0 && r.stdout == "1\n", "\(r.stderr)")
  }

  @Test func batchWatchExprAndAFileOfFormats() throws {
    let path = try Self.file(Self.api)
    let formats = try Self.file(#"{"at": "iso8601", "ms": "milliseconds"}"#)
    defer {
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: formats)
    }
    let batch = try SiftProcess.run(
      ["batch", "--data", path, "--dates", formats],
      stdin: #"{"id": 1, "format": "ms > %@", "args": [\#(Self.after)]}"# + "\n")
    #expect(batch.status == 0 && batch.stdout.contains(#""matches": [1]"#), "\(batch.stdout) \(batch.stderr)")
    let expr = try SiftProcess.run(["expr", "at", "--data", path, "--dates", "iso8601", "--limit", "1"], stdin: "")
    #expect(
      expr.status == 0 && expr.stdout == #"{"$date": "2024-02-01T00:00:00Z"}"# + "\n", "\(expr.stdout) \(expr.stderr)")
    let watch = try SiftProcess.run(
      ["watch", "at > CAST(730944000, 'NSDate')", "--data", path, "--dates", "iso8601"], stdin: "")
    #expect(watch.status == 0 && watch.stdout.contains(#""ids": [2]"#), "\(watch.stdout) \(watch.stderr)")
  }

  @Test func badSpecificationsAreUsageErrors() throws {
    let path = try Self.file(Self.api)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = try SiftProcess.run(["eval", "at > 1", "--data", path, "--dates", "weekly"], stdin: "")
    #expect(r.status == 2 && r.stderr.contains("'weekly' is not a date format"), "\(r.stderr)")
    let strict = try SiftProcess.run(["eval", "id > 0", "--data", path, "--dates", "id=iso8601"], stdin: "")
    #expect(
      strict.status == 1 && strict.stderr.contains(#"record 0, key "id": 1 is not an ISO-8601 date"#),
      "\(strict.stderr)")
  }

  @Test func replLoadTakesDates() throws {
    let path = try Self.file(Self.api)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = REPLSession()
    let loaded = session.execute(".load \(path) --as api --dates iso8601")
    #expect(loaded.text.contains("loaded 2 records"), "\(loaded.text)")
    let count = session.execute(".count at > CAST(730944000, 'NSDate')")
    #expect(count.text.contains("1"), "\(count.text)")
  }
}
