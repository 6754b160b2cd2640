import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// `sift eval --count` over JSON Lines: the file is read a part at a time into columns
/// (`SiftColumnar`) and counted with kernels, so memory stays bounded whatever the file's size.
/// Anything else — plain values, invalid JSON, a predicate that needs the row evaluator —
/// returns nil, and the command reads the whole file (`CommandInputs.data`, into columns too
/// when it can), which gives the same answers and every error.
enum ColumnarInput {
  /// Bytes of JSON Lines read at a time when streaming.
  static let streamPart = 16 << 20

  /// The number of matching records of a JSON Lines file, read `streamPart` bytes at a time
  /// (whole lines); nil for the general way.
  static func streamedCount(
    _ path: String, dates: SiftJSONDates, matcher: SiftMatcher, variables: [String: SiftValue], part: Int = streamPart
  ) -> Int? {
    guard path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson"), let file = FileHandle(forReadingAtPath: path) else {
      return nil
    }
    defer { try? file.close() }
    var pending: [UInt8] = []
    var total = 0
    var records = 0
    var atEnd = false
    while !atEnd {
      let chunk = (try? file.read(upToCount: part)) ?? nil
      if let chunk, !chunk.isEmpty { pending += chunk } else { atEnd = true }
      // Whole lines only; the rest waits for the next part.
      let cut = atEnd ? pending.count : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
      guard cut > 0 else { continue }
      let part = Array(pending[..<cut])
      pending.removeFirst(cut)
      if part.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { continue }
      // One record a line, as the general way reads JSON Lines (a record spanning lines is
      // an error there).
      // (The parser checks that itself when a part holds more than one record.)
      guard let columns = SiftColumnarRecords.direct(part, dates: dates), columns.count > 1 || lines(part) == 1,
        matcher.columnarFallback(for: columns, variables: variables) == nil,
        let n = try? matcher.count(columns, variables: variables, workers: workers)
      else { return nil }
      total += n
      records += columns.count
    }
    return records > 0 ? total : nil
  }

  /// The lines of `bytes` holding more than white space.
  static func lines(_ bytes: [UInt8]) -> Int {
    var n = 0
    var blank = true
    for b in bytes {
      if b == 0x0A {
        if !blank { n += 1 }
        blank = true
      } else if b != 0x20 && b != 0x09 && b != 0x0D {
        blank = false
      }
    }
    return blank ? n : n + 1
  }

  static var workers: Int { ProcessInfo.processInfo.activeProcessorCount }
}
