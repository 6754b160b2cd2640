import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// `sift eval --count` reads a file a part at a time with work and memory linear in the file,
/// whatever its lines: issue 35 found JSON Lines that are mostly blank lines superlinear (25 →
/// 200 MB: 1.0 → 28.4 s) and holding twice the file, because a file opening with blank lines
/// was rescanned from its start for every part and kept whole until its first record. The
/// work is counted (`PartSplitter.examined`, the bytes kept between parts), not timed.
@Suite struct ColumnarStreamWorkTests {
  static func file(_ bytes: [UInt8]) throws -> String {
    let path = NSTemporaryDirectory() + "sift-stream-work-\(UUID().uuidString).jsonl"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// `size` bytes of JSON Lines: half of it blank lines before the first record, then a record
  /// every 2,000 blank lines (some of them spaces), and a last line of spaces.
  static func mostlyBlank(_ size: Int) -> (bytes: [UInt8], records: Int) {
    var out = [UInt8](repeating: 0x0A, count: size / 2)
    var records = 0
    while out.count < size {
      out += Array(#"{"a": \#(records), "b": "x"}"#.utf8) + [0x0A]
      records += 1
      out += [UInt8](repeating: 0x0A, count: 1_500) + Array("   \t \r\n".utf8) + [UInt8](repeating: 0x0A, count: 500)
    }
    out += [UInt8](repeating: 0x20, count: size / 8)
    return (out, records)
  }

  /// The streamed count's reading loop (`ColumnarInput.streamedCount`) over `path`: the bytes
  /// the splitter examined, the most bytes held between parts, and the records of the pieces.
  static func drive(_ path: String, part: Int) -> (examined: Int, largestPending: Int, records: Int) {
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    var splitter = PartSplitter()
    var pending: [UInt8] = []
    var largest = 0
    var records = 0
    var atEnd = false
    while !atEnd, let n = ColumnarInput.read(fd, after: &pending, upTo: part, into: []) {
      atEnd = n == 0
      if let piece = splitter.take(&pending, atEnd: atEnd) { records += ColumnarInput.lines(piece) }
      largest = max(largest, pending.count)
    }
    return (splitter.examined, largest, records)
  }

  @Test func mostlyBlankLinesAreReadInLinearWork() throws {
    let part = 16 << 10
    for size in [1 << 20, 4 << 20] {
      let (bytes, records) = Self.mostlyBlank(size)
      let path = try Self.file(bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let r = Self.drive(path, part: part)
      #expect(r.records == records)
      // Each byte examined at most three times; never more than a part and a line kept.
      #expect(r.examined <= 3 * bytes.count, "\(size): \(r.examined) bytes examined of \(bytes.count)")
      #expect(r.largestPending <= part + 64, "\(size): \(r.largestPending) bytes kept")
      let m = try SiftPredicate(format: "a >= 10").compile()
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == records - 10)
    }
  }

  @Test func aLineLongerThanManyPartsIsNotRescanned() throws {
    let part = 4 << 10
    for size in [256 << 10, 1 << 20] {
      let line =
        Array(#"{"a": 1, "b": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size) + Array("\"}\n".utf8)
      let bytes = line + Array("\n\n{\"a\": 2}\n".utf8) + line
      let path = try Self.file(bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let r = Self.drive(path, part: part)
      #expect(r.records == 3)
      #expect(r.examined <= 3 * bytes.count, "\(size): \(r.examined) bytes examined of \(bytes.count)")
      let m = try SiftPredicate(format: "a == 1").compile()
      #expect(ColumnarInput.streamedCount(path, dates: .none, matcher: m, variables: [:], part: part) == 2)
    }
  }

  /// What a long line keeps between parts grows in place (it was copied into a new part
  /// buffer for every part read: quadratic in the line's length).
  @Test func aLongLineIsReadOntoWhatIsKept() throws {
    let part = 1 << 10
    let path = try Self.file([UInt8](repeating: UInt8(ascii: "x"), count: 4 * part))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    var pending = [UInt8](repeating: UInt8(ascii: "{"), count: 2 * part)
    pending.reserveCapacity(8 * part)
    let before = pending.withUnsafeBufferPointer { $0.baseAddress }
    #expect(ColumnarInput.read(fd, after: &pending, upTo: part, into: [UInt8](repeating: 0, count: 4 * part)) == part)
    #expect(pending.withUnsafeBufferPointer { $0.baseAddress } == before)
    #expect(pending.count == 3 * part && pending.last == UInt8(ascii: "x"))
  }

  @Test func whiteSpaceBeforeTheFirstRecordKeepsTheBOM() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    for (start, kept) in [(bom + [0x0A, 0x20], bom), ([0x0A, 0x0A], []), ([0xEF, 0xBB], [0xEF, 0xBB])] {
      var pending = start
      var s = PartSplitter()
      #expect(s.take(&pending, atEnd: false) == nil)
      #expect(pending == kept && s.kind == nil)
    }
    var pending = bom + Array(" [{\"a\": 1}, {\"a\": 2}]".utf8)
    var s = PartSplitter()
    #expect(s.take(&pending, atEnd: true) != nil)
    #expect(s.kind == .arrayElements)
  }
}
