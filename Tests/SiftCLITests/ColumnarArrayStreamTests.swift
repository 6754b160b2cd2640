import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// `sift eval --count` over a top-level JSON array streams it a part at a time, cut between
/// elements (`PartSplitter`): the same counts as the whole file at every part size, and every
/// file it cannot stream (invalid JSON, plain values, an empty array) goes the general way,
/// which reports the error with its place in the whole file.
@Suite struct ColumnarArrayStreamTests {
  /// String contents (JSON-escaped) that look like element boundaries to a careless scanner.
  static let tricky = [
    "a]b", "}{", #"say \"hi\", ok"#, #"back\\slash"#, #"[1, {\"x\": 2}]"#, "a,b", #"\\"#, "Ñandú ]", "x]", #"\""#,
  ]

  /// A random array of objects with tricky strings, nested arrays and objects, and random
  /// white space (optionally a BOM) around everything.
  static func array(seed: UInt64, count: Int, bom: Bool = false) -> String {
    var rng = SeededRandom(seed: seed)
    func space() -> String { rng.pick(["", " ", "\n", "\t", "\r\n  "]) }
    let elements = (0..<count).map { i -> String in
      let tags = (0..<rng.int(in: 0...3)).map { _ in "\"\(rng.pick(tricky))\"" }.joined(separator: ",\(space())")
      let meta = #"{"k": ["\#(rng.pick(tricky))", "]", "}"], "w": {"q": "\#(rng.pick(tricky))", "r": {"s": [1, 2]}}}"#
      return
        "{\(space())\"id\": \(i), \"name\": \"\(rng.pick(tricky))\",\(space())\"n\": \(Double(rng.int(in: 0...40)) / 4),"
        + " \"tags\": [\(tags)], \"meta\": \(meta)\(space())}"
    }
    return (bom ? "\u{FEFF}" : "") + space() + "[" + space() + elements.joined(separator: space() + "," + space())
      + space() + "]" + space()
  }

  static let formats = ["n BETWEEN {2, 6}", "ANY tags == 'x]' OR name == 'a,b'", "meta.w.q BEGINSWITH 'a'"]

  @Test(arguments: [(1, 3, false), (2, 1, false), (3, 12, true), (4, 7, false)])
  func countsMatchTheWholeFileAtEveryPartSize(_ seed: UInt64, _ count: Int, _ bom: Bool) throws {
    let text = Self.array(seed: seed, count: count, bom: bom)
    let path = try ColumnarEvalTests.file(text, "json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let data = try CommandInputs.data(path)
    #expect(data.columns != nil, "the whole file is read into columns too")
    for format in Self.formats {
      let m = try SiftPredicate(format: format).compile()
      let whole = try data.matchingIndices(m, variables: [:]).count
      for part in 1...text.utf8.count + 1 {
        let streamed = ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part)
        #expect(streamed == whole, "\(format), part \(part):\n\(text)")
      }
    }
  }

  @Test func datesAreConvertedInEveryPiece() throws {
    let text =
      "["
      + (0..<40).map { i in #"{"opened": "2024-0\#(i % 9 + 1)-15T10:00:00Z", "createdAt": \#(i * 86_400)}"# }
      .joined(separator: ",\n") + "]"
    let path = try ColumnarEvalTests.file(text, "json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let dates = try CommandInputs.dates(["opened=iso8601", "createdAt=seconds"])
    let m = try SiftPredicate(
      format: "opened > CAST('2024-04-01T00:00:00Z', 'NSDate') AND createdAt < CAST('1970-01-20T00:00:00Z', 'NSDate')"
    ).compile()
    let whole = try CommandInputs.data(path, dates: dates).matchingIndices(m, variables: [:]).count
    #expect(whole > 0 && whole < 40)
    for part in [7, 64, 100, 1000, 1 << 20] {
      #expect(ColumnarInput.streamedCount(path, dates: dates, matcher: m, variables: [:], part: part) == whole)
    }
  }

  /// Files that open an array but are not one array of objects, or are not valid, are never
  /// streamed at any part size, so `sift eval --count` reads them the general way and says what
  /// the general way says. (One object streams, as JSON Lines do: `ColumnarEvalTests`.)
  @Test(arguments: [
    #"[{"a": 1},,{"a": 1}]"#, #"[{"a": 1},]"#, #"[{"a": 1}, {"a": 1}] x"#, #"[{"a": 1}, {"a": 1}"#,
    #"[{"a": 1}, 2, {"a": 1}]"#, "[]", " [ \n ] ", #"[{"a": 1}][{"a": 1}]"#,
    "[{\"a\": 1},\n{\"a\" 1}]", #"[{"a": "x]}, {"a": 1}]"#, #"[{"a": 1}, {"a": 1}]]"#, "[,{\"a\": 1}]",
    #"[{"a": 1} {"a": 1}]"#, "", "\u{FEFF}", "[{\"a\": 1}, {\"a\": 1}]\n{\"a\": 1}",
  ])
  func otherFilesGoTheGeneralWay(_ text: String) throws {
    let path = try ColumnarEvalTests.file(text, "json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let m = try SiftPredicate(format: "a == 1").compile()
    for part in 1...text.utf8.count + 1 {
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == nil, "\(part)")
    }
    // What the command prints is the general way's answer or error (with the whole file's place).
    let r = try SiftProcess.run(["eval", "a == 1", "--data", path, "--count"], stdin: "")
    do {
      let n = try CommandInputs.data(path).matchingIndices(m, variables: [:]).count
      #expect(r.status == 0 && r.stdout == "\(n)\n", "\(r.stderr)")
    } catch let failure as CommandInputs.Failure {
      #expect(r.status == 1 && r.stdout.isEmpty)
      #expect(r.stderr.contains(failure.description), "\(r.stderr)")
    } catch {
      #expect(r.status == 1 && r.stdout.isEmpty, "\(r.stderr)")
    }
  }

  /// An invalid element after many parts: never streamed, so the error is the whole file's.
  @Test func anInvalidElementIsReportedAsTheWholeFileReportsIt() throws {
    let good = (0..<30).map { i in #"{"a": \#(i)}"# }
    let text = "[\n" + good.joined(separator: ",\n") + ",\n{\"a\": tru}\n]\n"
    let path = try ColumnarEvalTests.file(text, "json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let m = try SiftPredicate(format: "a == 1").compile()
    for part in [1, 5, 9, 10, 11, 64, 300, 1 << 20] {
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == nil)
    }
    let failure = try #require(throws: CommandInputs.Failure.self) { try CommandInputs.data(path) }
    let r = try SiftProcess.run(["eval", "a == 1", "--data", path, "--count"], stdin: "")
    #expect(r.status == 1)
    #expect(r.stderr == "sift eval: \(failure.description)\n")
  }

  @Test func aSingleObjectAndAnEmptyArrayCountAsBefore() throws {
    for (text, expected) in [(#"{"a": 1}"#, "1\n"), ("[]", "0\n"), (" \n[ ]\n", "0\n")] {
      let path = try ColumnarEvalTests.file(text, "json")
      defer { try? FileManager.default.removeItem(atPath: path) }
      let r = try SiftProcess.run(["eval", "a == 1", "--data", path, "--count"], stdin: "")
      #expect(r.stdout == expected, "\(text): \(r.stderr)")
    }
  }
}
