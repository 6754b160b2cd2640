import Foundation
import Testing

/// `sift watch`, run as a process: the snapshot line, one answer per edit line with the exact
/// JSON contract of issue 15, errors that change nothing, usage errors.
@Suite(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
struct WatchCommandTests {
  static let venues = """
    [{"id": 1, "name": "Alpha", "city": "Oslo", "rating": 5},
     {"id": 2, "name": "Bravo", "city": "Oslo", "rating": 3},
     {"id": 3, "name": "Cafe", "city": "Paris", "rating": 4},
     {"id": 4, "name": "Deli", "city": "Paris", "rating": 1}]
    """

  static func dataFile(_ text: String = venues) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-watch-\(UUID().uuidString).json")
      .path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func watch(_ args: [String], _ lines: [String], data: String = venues) throws -> SiftProcess.Result {
    let path = try Self.dataFile(data)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try SiftProcess.run(["watch"] + args + ["--data", path], stdin: lines.map { $0 + "\n" }.joined())
  }

  @Test func answersEachEditWithTheChangeSetAndSnapshot() throws {
    let r = try watch(
      ["rating > 0", "--sort", "rating desc", "--section", "city"],
      [
        #"{"update": {"id": 2, "set": {"rating": 6}}}"#,
        "",
        #"{"update": {"id": 4, "set": {"city": "Oslo"}}}"#,
        #"{"delete": 3}"#,
        #"{"insert": {"id": 5, "name": "Eel", "city": "Rome", "rating": 2}}"#,
        #"{"delete": 9}"#,
        "nope",
        #"{"batch": [{"delete": 1}, {"update": {"id": 5, "set": {"rating": 9}}}]}"#,
        #"{"batch": [{"delete": 1}, {"delete": 1}]}"#,
        #"{"update": {"id": 5, "set": {"rating": 0}}}"#,
      ])
    #expect(r.status == 0)
    let empty = #"{"sections": {"deleted": [], "inserted": []}, "#
    let expected = [
      #"{"snapshot": {"sections": [{"name": "Oslo", "ids": [1, 2]}, {"name": "Paris", "ids": [3, 4]}]}}"#,
      empty
        + #""deleted": [], "inserted": [], "moved": [[[0, 1], [0, 0]]], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1]}, {"name": "Paris", "ids": [3, 4]}]}}"#,
      empty
        + #""deleted": [], "inserted": [], "moved": [[[1, 1], [0, 2]]], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1, 4]}, {"name": "Paris", "ids": [3]}]}}"#,
      #"{"sections": {"deleted": [1], "inserted": []}, "deleted": [[1, 0]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1, 4]}]}}"#,
      #"{"sections": {"deleted": [], "inserted": [1]}, "deleted": [], "inserted": [[1, 0]], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 1, 4]}, {"name": "Rome", "ids": [5]}]}}"#,
      #"{"error": {"message": "no object with id 9", "line": 6}}"#,
      #"{"error": {"message": "invalid JSON: 1:1: invalid literal, expected null", "line": 7}}"#,
      empty
        + #""deleted": [[0, 1]], "inserted": [], "moved": [], "updated": [[1, 0]], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 4]}, {"name": "Rome", "ids": [5]}]}}"#,
      #"{"error": {"message": "no object with id 1", "line": 9}}"#,
      #"{"sections": {"deleted": [1], "inserted": []}, "deleted": [[1, 0]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "Oslo", "ids": [2, 4]}]}}"#,
    ]
    #expect(r.stdout.split(separator: "\n").map(String.init) == expected)
  }

  @Test func badEditsAreAnsweredAndChangeNothing() throws {
    let r = try watch(
      ["TRUEPREDICATE"],
      [
        #"{"insert": {"id": 1}}"#, #"{"insert": {"name": "no id"}}"#, #"{"update": {"id": 1}}"#,
        #"{"update": {"id": 1, "set": {"id": 7}}}"#, #"{"frobnicate": 1}"#, #"{"delete": 1, "insert": {}}"#,
        #"{"batch": [{"batch": []}]}"#, #"[1]"#, #"{"batch": [{"delete": 2}, {"delete": 42}]}"#,
        #"{"delete": 3}"#,
      ])
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 11)
    // Nothing the refused edits did stuck: 1 and 2 are still there.
    #expect(
      lines.last?.hasSuffix(
        #""deleted": [[0, 2]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "", "ids": [1, 2, 4]}]}}"#
      ) == true)
    let messages = [
      "an object with id 1 already exists", "the inserted record has no 'id'", #"update takes {"id": V, "set": {…}}"#,
      "update cannot change 'id'", "unknown edit 'frobnicate'; use insert, update, delete or batch",
      "an edit is one object with one key: insert, update, delete or batch", "a batch cannot hold a batch",
      "an edit is one object with one key: insert, update, delete or batch", "no object with id 42",
    ]
    for (i, m) in messages.enumerated() {
      let escaped = m.replacingOccurrences(of: "\"", with: "\\\"")
      #expect(lines.dropFirst().dropFirst(i).first == #"{"error": {"message": "\#(escaped)", "line": \#(i + 1)}}"#)
    }
    #expect(lines.first == #"{"snapshot": {"sections": [{"name": "", "ids": [1, 2, 3, 4]}]}}"#)
  }

  @Test func idKeyAndStartupErrors() throws {
    let other = #"[{"key": "b", "n": 2}, {"key": "a", "n": 1}]"#
    // --id names the key column; the update edit still says "id" (the contract's field name).
    let ok = try watch(
      ["n > 0", "--id", "key", "--sort", "n asc"],
      [
        #"{"update": {"id": "b", "set": {"n": 5}}}"#, #"{"delete": "a"}"#,
        #"{"update": {"id": "b", "set": {"key": "c"}}}"#,
      ], data: other)
    let empty = #"{"sections": {"deleted": [], "inserted": []}, "#
    #expect(
      ok.stdout.split(separator: "\n").map(String.init) == [
        #"{"snapshot": {"sections": [{"name": "", "ids": ["a", "b"]}]}}"#,
        empty
          + #""deleted": [], "inserted": [], "moved": [], "updated": [[0, 1]], "snapshot": {"sections": [{"name": "", "ids": ["a", "b"]}]}}"#,
        empty
          + #""deleted": [[0, 0]], "inserted": [], "moved": [], "updated": [], "snapshot": {"sections": [{"name": "", "ids": ["b"]}]}}"#,
        #"{"error": {"message": "update cannot change 'key'", "line": 3}}"#,
      ])
    let noID = try watch(["n > 0"], [], data: other)
    #expect(noID.status == 1 && noID.stderr.contains("record 0 has no 'id'"))
    let dup = try watch(["TRUEPREDICATE", "--id", "n"], [], data: #"[{"n": 1}, {"n": 1}]"#)
    #expect(dup.status == 1 && dup.stderr.contains("duplicate id 1"))
    let badPredicate = try watch(["n >"], [])
    #expect(badPredicate.status == 1)
    let badSort = try watch(["TRUEPREDICATE", "--sort", "n sideways"], [])
    #expect(badSort.status == 1 && badSort.stderr.contains("sideways"))
    let noData = try SiftProcess.run(["watch", "TRUEPREDICATE"], stdin: "")
    #expect(noData.status == 2 && noData.stderr.contains("--data"))
    let help = try SiftProcess.run(["help", "watch"], stdin: "")
    #expect(help.status == 0 && help.stdout.contains("--section KEYPATH"))
  }

  /// The `sift watch` transcript of the Live results article is what the binary prints.
  @Test func articleTranscriptIsTrue() throws {
    let root = ReadmeSnippetTests.root
    let readme = try ReadmeSnippetTests.text(of: "Sources/SiftLive/SiftLive.docc/LiveResults.md")
    let edits = [
      #"{"update": {"id": 950, "set": {"name": "Aardvark Diner"}}}"#,
      #"{"update": {"id": 829, "set": {"priceCategory": "$"}}}"#,
      #"{"batch": [{"update": {"id": 410, "set": {"rating": 4}}}, {"delete": 263}]}"#, #"{"delete": 263}"#,
    ]
    for e in edits { #expect(readme.contains("'\(e)'")) }
    let format = #"rating == 5 AND priceCategory != "$$$""#
    #expect(readme.contains("sift watch '\(format)' --data Tests/Fixtures/conformance/venues.json"))
    #expect(readme.contains("--sort 'name asc [c]' --section priceCategory\n"))
    guard let start = readme.range(of: "--section priceCategory\n"),
      let end = readme[start.upperBound...].range(of: "```")
    else {
      Issue.record("transcript not found in LiveResults.md")
      return
    }
    let expected = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    let r = try SiftProcess.run(
      [
        "watch", format, "--data", root.appendingPathComponent("Tests/Fixtures/conformance/venues.json").path,
        "--sort", "name asc [c]", "--section", "priceCategory",
      ],
      stdin: edits.joined(separator: "\n") + "\n")
    #expect(r.stdout.split(separator: "\n").map(String.init) == expected)
  }
}
