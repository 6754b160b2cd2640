import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import SiftTestSupport
import Testing

/// The loader's byte-level shortcuts against the row loader: strings stored without a `String`
/// when their UTF-8 is valid (invalid UTF-8 repaired as `JSONReader` repairs it), keys matched
/// against the previous record's keys in the text itself, and files read straight into memory.
@Suite struct ColumnarLoaderBytesTests {
  /// Raw (unescaped) string bytes: valid sequences of every length, and the invalid forms
  /// (overlong, surrogate, past U+10FFFF, cut, stray continuation, bytes never in UTF-8).
  static let pieces: [[UInt8]] = [
    [0x61], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    [0xEF, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
    [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    [0xF8, 0x88, 0x80, 0x80, 0x80],
  ]

  /// The records as the columns read them back and as the row loader reads them (compared as
  /// values: a dictionary's printed order differs between equal dictionaries).
  static func sameAsRows(_ bytes: [UInt8]) -> ([SiftValue]?, [SiftValue]?) {
    let rows = try? JSONRecords.values(bytes: bytes)
    let columns = try? SiftColumnarRecords(bytes: bytes)
    return (columns.map { c in (0..<c.count).map { c.record(at: $0) } }, rows)
  }

  @Test(arguments: 0..<pieces.count)
  func eachByteFormReadsAsTheRowLoaderReadsIt(_ k: Int) {
    let text =
      Array(#"[{"s": "x"#.utf8) + Self.pieces[k] + Array(#"y"}, {"s": ""#.utf8) + Self.pieces[k]
      + Array(#""}]"#.utf8)
    let (columns, rows) = Self.sameAsRows(text)
    #expect(columns == rows, "\(Self.pieces[k])")
  }

  @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
  func randomTextReadsAsTheRowLoaderReadsIt(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    var text = Array("[".utf8)
    for r in 0..<200 {
      if r > 0 { text += Array(", ".utf8) }
      text += Array(#"{"s": ""#.utf8)
      for _ in 0..<Int(rng.next() % 6) { text += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
      text += Array(#"", "t": ["é", ""#.utf8)
      text += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
      text += Array(#""]}"#.utf8)
    }
    text += Array("]".utf8)
    let (columns, rows) = Self.sameAsRows(text)
    #expect(rows != nil)
    #expect(columns == rows)
    // Scans see the stored bytes: equality and [c] match as on rows.
    let loaded = try SiftColumnarRecords(bytes: text)
    let objects = try JSONRecords.load(bytes: text)
    for format in ["s == 'xé'", "s BEGINSWITH[c] 'É'", "ANY t == 'é'", "s ==[cd] 'e'", "ANY t CONTAINS '\u{FFFD}'"] {
      let m = try SiftPredicate(format: format).compile()
      #expect(try m.matchingIndices(loaded) == m.matchingIndices(objects), "\(format)")
    }
  }

  /// Keys change between records (order, length, a key cut short or longer, nested objects
  /// whose keys differ): each value lands in its own key's column.
  @Test func keysThatChangeBetweenRecords() {
    let text = """
      [{"a": 1, "bb": 2, "c": {"x": 1, "yy": 2}},
       {"bb": 3, "a": 4, "c": {"yy": 3, "x": 4}},
       {"a": 5, "b": 6, "bbb": 7, "c": {"x": 5}},
       {"a": 6, "bb": 8, "c": {"xy": 6, "x": 7, "yy": 8}},
       {"": 9, "a": 10, "bb": 11, "c": {}},
       {"a\\u0062": 12, "bb": 13},
       {"a": 14, "bb": 15, "c": {"x": 16, "yy": 17}}]
      """
    let (columns, rows) = Self.sameAsRows(Array(text.utf8))
    #expect(rows != nil)
    #expect(columns == rows)
  }

  /// A key is matched against the previous record's key a word at a time: keys of every
  /// length up to 20 that differ from it in one byte, at every position, get their own column.
  @Test func keysDifferingInOneByteAtEveryPosition() {
    var failures: [String] = []
    for n in 1...20 {
      let key = (0..<n).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) }
      for position in 0..<n {
        var other = key
        other[position] = "Z"
        let a = String(key), b = String(other)
        let text = #"[{"\#(a)": 1}, {"\#(b)": 2}, {"\#(a)": 3, "\#(b)": 4}, {"\#(b)": 5, "\#(a)": 6}]"#
        let (columns, rows) = Self.sameAsRows(Array(text.utf8))
        if rows == nil || columns != rows { failures.append("\(a) / \(b)") }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func readsFilesAsBytesReadThem() throws {
    let dir = FileManager.default.temporaryDirectory
    let url = dir.appendingPathComponent("sift-columnar-file-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    let text = #"[{"a": 1, "s": "é"}, {"a": 2, "s": "x"}]"#
    try Data(text.utf8).write(to: url)
    let fromFile = try SiftColumnarRecords(contentsOf: url)
    #expect(fromFile.count == 2)
    #expect(fromFile.record(at: 1) == .dictionary(["a": 2, "s": "x"]))
    // An empty file and a missing one: the errors of the general way.
    try Data().write(to: url)
    expectSiftError(id: "invalid-records", stage: .data) { _ = try SiftColumnarRecords(contentsOf: url) }
    let missing = dir.appendingPathComponent("sift-columnar-missing-\(getpid()).json")
    #expect {
      _ = try SiftColumnarRecords(contentsOf: missing)
    } throws: { ($0 as? SiftError)?.message.contains("cannot read") == true }
    // A directory is no regular file: the general way's error too.
    expectSiftError(id: "cannot-read", stage: .data) { _ = try SiftColumnarRecords(contentsOf: dir) }
  }
}
