import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// `sift eval --data` over columns answers as the general way: the same records printed, the
/// same counts, JSON Lines counted a part at a time, and everything it cannot read the
/// general way (with the general way's errors).
@Suite struct ColumnarEvalTests {
  static func file(_ text: String, _ ext: String) throws -> String {
    let path = NSTemporaryDirectory() + "sift-columnar-\(UUID().uuidString).\(ext)"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static let lines: String =
    (0..<500).map { i in
      #"{"id": \#(i), "name": "\#(i % 3 == 0 ? "Blue" : "Ñandú") \#(i)", "n": \#(Double(i) / 4), "tags": [\#(i % 2 == 0 ? #""wifi""# : "")]}"#
    }.joined(separator: "\n") + "\n"

  @Test func streamedCountsMatchTheWholeFile() throws {
    let path = try Self.file(Self.lines, "jsonl")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let m = try SiftPredicate(format: "name BEGINSWITH[cd] 'nandu' AND ANY tags == 'wifi'").compile()
    let whole = try CommandInputs.data(path).matchingIndices(m, variables: [:]).count
    #expect(whole > 0)
    for part in [64, 1000, 1 << 20] {
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == whole)
    }
    // A predicate the kernels cannot run goes the general way.
    let like = try SiftPredicate(format: "name LIKE 'B*'").compile()
    #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: like, variables: [:], part: 1000) == nil)
  }

  /// Regression (#24): JSON Lines were streamed only from a `.jsonl`/`.ndjson` file and an array
  /// only from another; now the contents tell them apart, as `SiftJSON.records` does.
  @Test func theContentsNotTheNameTellJSONLinesFromAnArray() throws {
    let m = try SiftPredicate(format: "name BEGINSWITH[cd] 'nandu' AND ANY tags == 'wifi'").compile()
    let array = "[" + Self.lines.split(separator: "\n").joined(separator: ",\n") + "]\n"
    for (text, ext) in [(Self.lines, "json"), (Self.lines, "txt"), (array, "jsonl"), (array, "ndjson")] {
      let path = try Self.file(text, ext)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let whole = try CommandInputs.data(path).matchingIndices(m, variables: [:]).count
      #expect(whole > 0)
      for part in [64, 1000, 1 << 20] {
        #expect(
          ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == whole,
          "\(ext) \(part)")
      }
    }
    let one = try Self.file(#"{"id": 1, "name": "Ñandú", "tags": ["wifi"]}"#, "json")
    defer { try? FileManager.default.removeItem(atPath: one) }
    #expect(ColumnarInput.streamedCount(one, dates: .none, matcher: m, variables: [:], part: 8) == 1)
  }

  @Test func recordsSpanningLinesAndBlankFilesGoTheGeneralWay() throws {
    let m = try SiftPredicate(format: "a == 1").compile()
    for text in ["{\"a\":\n1}\n{\"a\": 1}\n", "\n\n", "{\"a\": 1}\n{\"a\": }\n", "[1, 2]\n"] {
      let path = try Self.file(text, "jsonl")
      defer { try? FileManager.default.removeItem(atPath: path) }
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: 8) == nil, "\(text)")
    }
  }

  @Test(arguments: [
    "name BEGINSWITH[c] 'blue'", "n BETWEEN {10, 20}", "ANY tags == 'wifi' AND id > 400", "name LIKE '*9'",
    "id == $X",
  ])
  func evalPrintsWhatTheGeneralWayPrints(_ format: String) throws {
    let path = try Self.file(Self.lines, "json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let m = try SiftPredicate(format: format).compile()
    let data = try CommandInputs.data(path)  // read into columns
    let columns = try #require(data.columns)
    let general = CommandInputs.DataSet(values: data.values)  // the same records as rows
    let expected = try general.matchingIndices(m, variables: ["X": 7])
    #expect(try data.matchingIndices(m, variables: ["X": 7]) == expected)
    #expect(
      (m.columnarFallback(for: columns, variables: ["X": 7]) == nil) == !format.contains("LIKE"),
      "\(format) should run as kernels unless it needs the row evaluator")
    #expect(
      expected.map { SiftJSON.serialize(data.value(at: $0)) } == expected.map { SiftJSON.serialize(general.values[$0]) }
    )
    let r = try SiftProcess.run(["eval", format, "--data", path, "--var", "X=7"], stdin: "")
    #expect(r.status == 0)
    #expect(r.stdout == expected.map { SiftJSON.serialize(general.values[$0]) + "\n" }.joined(), "\(r.stderr)")
  }
}
