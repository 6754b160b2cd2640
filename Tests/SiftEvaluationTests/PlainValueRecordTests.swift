import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// Records that are plain values (`["Do", "Re", "Mi"]`), evaluated as `SELF`: the first
/// example of every NSPredicate tutorial.
@Suite struct PlainValueRecordTests {
  /// JSON text, predicate, and the indices of the records that match.
  static let cases: [(String, String, [Int])] = [
    (#"["Do", "Re", "Mi"]"#, "SELF BEGINSWITH[c] 'd'", [0]),
    (#"["Do", "Re", "Mi", "do", "dó"]"#, "SELF BEGINSWITH[cd] 'do'", [0, 3, 4]),
    (#"["Do", "Re", "Mi"]"#, "SELF IN {'Re', 'Mi'}", [1, 2]),
    (#"["Do", "Re", "Mi"]"#, "SELF LIKE '?e'", [1]),
    ("[3, 10, 2.5, -1]", "SELF > 2", [0, 1, 2]),
    ("[3, 10, 2.5, -1]", "SELF BETWEEN {0, 3}", [0, 2]),
    ("[true, false, true]", "SELF == YES", [0, 2]),
    (#"[null, "x", null]"#, "SELF == nil", [0, 2]),
    (
      #"[{"$date": "2024-01-01T00:00:00Z"}, {"$date": "2020-01-01T00:00:00Z"}]"#,
      "SELF > CAST('2022-01-01T00:00:00Z', 'NSDate')", [0]
    ),
    (#"[[1, 2], [], [3]]"#, "SELF.@count > 0", [0, 2]),
    (#"[[1, 2], [], [3]]"#, "ANY SELF == 3", [2]),
    // Mixed: objects and plain values side by side.
    (#"[{"name": "Do"}, "Do", 7]"#, "SELF == 'Do'", [1]),
    (#"[{"name": "Do"}, "Do", 7]"#, "name == 'Do'", [0]),
    // One value per line (JSON Lines), and a single top-level value.
    ("\"Do\"\n\"Re\"\n\n\"Mi\"\n", "SELF ENDSWITH 'i'", [2]),
    (#""Do""#, "SELF == 'Do'", [0]),
  ]

  @Test(arguments: cases.indices)
  func plainValuesAreEvaluatedAsSelf(_ i: Int) throws {
    let (json, format, expected) = Self.cases[i]
    let records = try JSONRecords.values(bytes: Array(json.utf8))
    let m = try SiftPredicate(format: format).compile(EvaluationOptions(policy: .treatAsNoMatch))
    #expect(try m.matchingIndices(records) == expected, "\(format) over \(json)")
  }

  @Test func filterReturnsTheValues() throws {
    let notes = try JSONRecords.values(bytes: Array(#"["Do", "Re", "Mi"]"#.utf8))
    let m = try SiftPredicate(format: "SELF BEGINSWITH[c] %@", "d").compile()
    #expect(try m.filter(notes) == ["Do"])
  }

  @Test func objectsLoadAsBeforeAndPlainValuesAreNamed() throws {
    let objects = try JSONRecords.values(bytes: Array(#"[{"a": 1}, {"a": 2}]"#.utf8))
    #expect(try JSONRecords.records(from: .array(objects)).count == 2)
    #expect(try JSONRecords.load(bytes: Array(#"{"a": 1}"#.utf8)).count == 1)
    do {
      _ = try JSONRecords.load(bytes: Array(#"["Do"]"#.utf8))
      Issue.record("plain values are not SiftObjects")
    } catch {
      #expect("\(error)".hasPrefix("record 0 is string, not an object"))
    }
  }

  @Test func invalidJSONIsAnErrorNotACrash() {
    for text in ["[\"Do\", ", "\"Do\"\n{", "", "nul"] {
      expectSiftError(id: "invalid-records", stage: .data, "\(text)") {
        try JSONRecords.values(bytes: Array(text.utf8))
      }
    }
  }

  @Test func loadValuesReadsAFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-notes-\(UUID().uuidString).json")
    try Data(#"["Do", "Re", "Mi"]"#.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try JSONRecords.loadValues(contentsOf: url) == ["Do", "Re", "Mi"])
  }
}
