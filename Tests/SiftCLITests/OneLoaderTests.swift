import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// Every command and the REPL read record files through one loader (`RecordFile`, SiftColumnar's
/// parser): files of objects arrive as columns, scans over them give the row evaluator's answer,
/// and everything else still goes the general way.
@Suite struct OneLoaderTests {
  static let json = Array(
    #"""
    [{"name": "Blue Cafe", "rating": 4.5, "tags": ["wifi"], "city": "Oslo"},
     {"name": "Red Bar", "rating": null, "tags": [], "city": "Tokyo"},
     {"name": "ñandú", "rating": 3, "tags": ["wifi", "quiet"]},
     {"name": "Green", "rating": 5, "tags": ["quiet"], "city": "Oslo"}]
    """#.utf8)

  @Test("--data files and the REPL's .load read objects as columns, with the same rows")
  func objectFilesAreColumns() throws {
    let set = try JSONDataLoader.dataSet(bytes: Self.json, path: "v.json", name: "v", origin: "v.json")
    #expect(set.columns != nil)
    let general = try SiftJSON.parse(bytes: Self.json)
    guard case .array(let values) = general else { Issue.record("not an array"); return }
    #expect(set.records == values)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("one-loader-\(getpid()).json")
    try Data(Self.json).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let data = try CommandInputs.data(path.path)
    #expect(data.columns != nil)
    #expect(data.values == values)
  }

  @Test(
    "REPL scans over columns, in ranges, agree with the row evaluator",
    arguments: [
      "rating >= 4", "ANY tags == 'wifi'", "name BEGINSWITH[c] 'ñ'", "city == 'Oslo' OR rating == nil",
      "name LIKE 'B*'", "tags.@count > 1",
    ])
  func kernelsAgreeWithRows(_ format: String) throws {
    let set = try JSONDataLoader.dataSet(bytes: Self.json, path: "v.json", name: "v", origin: "v.json")
    let matcher = try MemoryEngine.matcher(for: SiftPredicate(format: format))
    let rows = try matcher.matchingIndices(set.objects ?? [], in: 0..<set.count)
    for range in [0..<set.count, 1..<3, 2..<9] {
      let found = try MemoryEngine.matches(matcher, in: set, range: range, variables: [:], workers: 2)
      #expect(found == rows.filter { range.contains($0) }, "\(format) \(range)")
    }
  }

  @Test("plain values and invalid JSON still go the general way, with their errors")
  func otherFilesGoTheGeneralWay() throws {
    let plain = try JSONDataLoader.dataSet(bytes: Array(#"["Do", "Re"]"#.utf8), path: "p.json", name: "p", origin: "p")
    #expect(plain.columns == nil)
    #expect(plain.count == 2)
    #expect(throws: REPLDataError.self) {
      try JSONDataLoader.dataSet(
        bytes: Array("[{\"a\": 1},\n {\"a\": }]".utf8), path: "bad.json", name: "b", origin: "b")
    }
  }

  @Test("a JSON Lines file that does not parse names file:line:column, the line counted in the file")
  func jsonLinesErrorsNameTheFilesLine() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bad-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data("{\"a\": 1}\n{\"a\": 2\n".utf8).write(to: url)
    do {
      _ = try CommandInputs.data(url.path)
      Issue.record("a broken line was read")
    } catch {
      #expect(error.description == "\(url.path):2:8: unterminated object")
    }
  }

  /// Review regression: a JSON array broken on a later line was read as JSON Lines (its first line
  /// `[{…},` is no value) and reported as `file:1:11: unexpected end of JSON`; blank lines were
  /// not counted. One rule now (`SiftJSON.records`) for the CLI and `JSONRecords`.
  @Test(
    "a broken file names the line and column where it breaks, counted in the file",
    arguments: [
      ("[{\"a\": 1},\n{\"a\": 2},\n{\"a\": 3,}\n]", "3:9: expected a string key in object"),
      ("[\n{\"a\": 1},\n{\"a\": }\n]", "3:7: unexpected character in JSON"),
      ("[{\"a\": 1}, {\"a\": 3,}]", "1:20: expected a string key in object"),
      ("{\"a\": 1}\n\n\n{\"a\": 2\n", "4:8: unterminated object"),
      ("{\"a\": 1}\n\n{\"a\": x}\n", "3:7: unexpected character in JSON"),
    ])
  func brokenFilesNameTheirLine(text: String, expected: String) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bad-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(text.utf8).write(to: url)
    do {
      _ = try CommandInputs.data(url.path)
      Issue.record("a broken file was read: \(text)")
    } catch {
      #expect(error.description == "\(url.path):\(expected)")
    }
    let general: SiftError? = {
      do {
        _ = try JSONRecords.values(bytes: Array(text.utf8))
        return nil
      } catch { return error as? SiftError }
    }()
    #expect(general.map { $0.message.hasSuffix(String(expected.drop { $0 != " " }.dropFirst())) } == true, "\(text)")
  }

  /// One reader of a file's bytes (`SiftJSON.fileBytes`): a missing file and a directory give the
  /// same "cannot read PATH: why" in the library's two loaders, `--data` and `.load`.
  @Test(arguments: ["missing", "directory"])
  func unreadableFilesSayTheSame(_ kind: String) throws {
    let dir = FileManager.default.temporaryDirectory
    let url =
      kind == "missing"
      ? dir.appendingPathComponent("one-reader-missing-\(getpid()).json")
      : dir.appendingPathComponent("one-reader-dir-\(getpid())")
    if kind == "directory" { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    defer { try? FileManager.default.removeItem(at: url) }
    func message(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "no error"
      } catch let e as SiftError {
        return e.message
      } catch {
        return "\(error)"
      }
    }
    let messages = [
      message { _ = try JSONRecords.load(contentsOf: url) },
      message { _ = try SiftColumnarRecords(contentsOf: url) },
      message { _ = try CommandInputs.data(url.path) },
      message { _ = try JSONDataLoader.load(url: url, name: "x") },
    ]
    #expect(messages[0].hasPrefix("cannot read \(url.path): "), "\(messages[0])")
    #expect(Set(messages).count == 1, "\(messages)")
  }
}
