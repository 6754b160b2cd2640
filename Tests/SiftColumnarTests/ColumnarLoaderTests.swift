import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import SiftTestSupport
import Testing

/// The columnar loader reads what the row loader reads (`JSONRecords.values`), value for
/// value, and fails where it fails with the same error (line and column).
@Suite struct ColumnarLoaderTests {
  static let documents: [String] = [
    #"[{"a": 1, "b": 2.5, "c": "x", "d": true, "e": null, "f": [1, 2], "g": {"h": "i"}}]"#,
    #"[{"a": 1}, {"a": 2.25}, {"a": 9007199254740993}]"#,
    #"[{"a": 1}, {"a": "one"}, {"b": []}, {"a": [1, "x", null]}]"#,
    #"[{"s": "caf\u00e9 \"q\" \\ \/ \n\t", "t": "\ud83d\ude00", "u": "\ud800x"}]"#,
    #"[{"n": -0, "m": -0.0, "x": 1e3, "y": 1.5E-7, "z": 123456789012345678901234567890, "w": 0.1}]"#,
    #"[{"n": 12345678901234567.5, "m": 0.30000000000000004, "k": 5e-324, "j": 1.7976931348623157e308}]"#,
    "{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": 3}\n",
    "\u{FEFF}[{\"a\": \"é\"}]",
    #"{"only": "one"}"#,
    #"[]"#,
    #"[{"d": {"$date": "2024-03-01T10:00:00Z"}, "b": {"$data": "AAE="}}]"#,
    #"[{"a": 1, "a": 2}]"#,
    #"[{"o": {"p": {"q": [{"r": 1}, {"r": "s"}]}}}]"#,
    #"[{"a": "\u0000"}, {"a": "ñandú"}, {"a": "NANDÚ"}]"#,
    "[{\"a\": 01}]",
    "[{\"a\": \"\u{7F}x\u{80}\"}]",
  ]

  static let broken: [String] = [
    #"[{"a": 1},]"#,
    #"[{"a": tru}]"#,
    #"[{"a": "unterminated}]"#,
    "{\"a\": 1}\n{\"a\": }\n",
    #"[{"a": 1}] x"#,
    #"[{"a": 1.}]"#,
    #"[1, 2]"#,
    #""text""#,
  ]

  /// The values read, or the error's text. Values compare as values: their printed form
  /// follows each dictionary's hash order, which differs from run to run (a flaky comparison
  /// of descriptions, seen in CI).
  enum Outcome: Equatable {
    case values([SiftValue])
    case error(String)

    var isError: Bool { if case .error = self { true } else { false } }
  }

  static func outcome(_ body: () throws -> [SiftValue]) -> Outcome {
    do { return .values(try body()) } catch { return .error("\(error)") }
  }

  @Test(arguments: documents + broken)
  func readsWhatTheRowLoaderReads(_ text: String) {
    let bytes = Array(text.utf8)
    let rows = Self.outcome { try JSONRecords.values(bytes: bytes) }
    let columns = Self.outcome {
      let c = try SiftColumnarRecords(bytes: bytes)
      return (0..<c.count).map { c.record(at: $0) }
    }
    if rows.isError || Self.broken.contains(text) {
      // Errors (and plain values, which are no records here) come from the same reader.
      #expect(columns.isError, "\(text)")
      if columns.isError, rows.isError { #expect(columns == rows) }
    } else {
      #expect(columns == rows, "\(text)")
    }
  }

  @Test func invalidJSONSaysLineAndColumn() {
    expectSiftError(id: "invalid-records", stage: .data) {
      try SiftColumnarRecords(bytes: Array("[{\"a\": 1},\n {\"a\": ]".utf8))
    }
    do {
      _ = try SiftColumnarRecords(bytes: Array("[{\"a\": 1},\n {\"a\": ]".utf8))
    } catch {
      #expect("\(error)".contains("2:8"), "\(error)")
    }
  }

  @Test func datesByKey() throws {
    let text =
      #"[{"at": "2024-03-01T10:00:00Z", "ms": 1700000000000, "s": 1.5, "o": {"at": "2024-03-01"}}, {"at": null}]"#
    let dates = SiftJSONDates(keys: ["at": .iso8601, "ms": .milliseconds, "s": .seconds, "o.at": .iso8601])
    let c = try SiftColumnarRecords(bytes: Array(text.utf8), dates: dates)
    let rows = try JSONRecords.values(bytes: Array(text.utf8), dates: dates)
    #expect(c.record(at: 0) == rows[0])
    #expect(c.record(at: 1) == rows[1])
    // A value a named key cannot read fails as the row loader fails.
    let bad = Array(#"[{"at": "yesterday"}]"#.utf8)
    let rowError = Self.outcome { try JSONRecords.values(bytes: bad, dates: dates) }
    let columnError = Self.outcome { [try SiftColumnarRecords(bytes: bad, dates: dates).record(at: 0)] }
    #expect(rowError.isError)
    #expect(columnError == rowError)
    // Every ISO string (the default format) goes the general way, with the same answer.
    let all = SiftJSONDates(defaultFormat: .iso8601)
    let mixed = Array(#"[{"a": "2024-03-01T10:00:00Z", "b": "2024"}]"#.utf8)
    #expect(
      try SiftColumnarRecords(bytes: mixed, dates: all).record(at: 0) == JSONRecords.values(bytes: mixed, dates: all)[0]
    )
  }

  @Test func bytesPerRecordBelowJSON() throws {
    var text = "["
    for i in 0..<2000 {
      if i > 0 { text += "," }
      text += #"{"id": \#(i), "name": "Blue Cafe \#(i)", "distance": \#(Double(i) / 7), "tags": ["wifi", "vegan"]}"#
    }
    text += "]"
    let c = try SiftColumnarRecords(bytes: Array(text.utf8))
    #expect(c.heldBytes < text.utf8.count)
  }
}
