import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// `sift eval --count` over JSON Lines or a JSON array (told by the contents, whatever the file's
/// name): the file is read a part at a time into columns (`SiftColumnar`) and counted with
/// kernels, so memory stays bounded whatever the file's size. Anything else — plain values,
/// invalid JSON, a predicate that needs the row evaluator — returns nil, and the command reads
/// the whole file (`CommandInputs.data`, into columns too when it can), which gives the same
/// answers and every error.
enum ColumnarInput {
  /// Bytes read at a time when streaming.
  static let streamPart = 16 << 20

  /// The number of matching records of a JSON Lines file or a file holding a JSON array, read
  /// `part` bytes at a time and cut at whole lines or whole elements (`PartSplitter`); nil for
  /// the general way (which then reports any error with its place in the whole file).
  static func streamedCount(
    _ path: String, dates: SiftJSONDates, matcher: SiftMatcher, variables: [String: SiftValue], part: Int = streamPart
  ) -> Int? {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    // Cut into whole elements when the file opens an array, else into whole lines: told by the
    // contents, never the file's name, as `SiftJSON.records` and the columnar parser tell them.
    var splitter: PartSplitter?
    var pending: [UInt8] = []
    var atEnd = false
    // Pieces are parsed and counted on every core while the next part is read and cut (one
    // core parsed at 0.87 s for 268 MB of JSON Lines); at most `workers` pieces are in flight,
    // so memory stays bounded. A piece that needs the general way stops the rest.
    let tally = PieceTally()
    let inFlight = DispatchSemaphore(value: max(1, workers))
    let group = DispatchGroup()
    while !atEnd, !tally.failed {
      let chunk = (try? file.read(upToCount: part)) ?? nil
      if let chunk, !chunk.isEmpty { pending += chunk } else { atEnd = true }
      if splitter == nil {
        switch PartSplitter.opensArray(pending) {
        case true?: splitter = PartSplitter(.arrayElements)
        case false?: splitter = PartSplitter(.lines)
        case nil where !atEnd: continue
        default: return nil
        }
      }
      guard let piece = splitter?.take(&pending, atEnd: atEnd) else { continue }
      let jsonLines = splitter?.kind == .lines
      inFlight.wait()  // a piece in flight always ends: parsing and counting are bounded work
      group.enter()
      DispatchQueue.global().async {
        defer {
          inFlight.signal()
          group.leave()
        }
        tally.add(count(piece, lines: jsonLines, dates: dates, matcher: matcher, variables: variables))
      }
    }
    group.wait()
    return tally.answer
  }

  /// The pieces' records and matches, added up from the threads counting them.
  private final class PieceTally: @unchecked Sendable {
    private let lock = NSLock()
    private var matches = 0
    private var records = 0
    private var isFailed = false

    func add(_ n: (records: Int, matches: Int)?) {
      lock.lock()
      defer { lock.unlock() }
      guard let n else {
        isFailed = true
        return
      }
      matches += n.matches
      records += n.records
    }

    var failed: Bool {
      lock.lock()
      defer { lock.unlock() }
      return isFailed
    }

    /// The count, or nil for the general way (a piece needed it, or there was no record).
    var answer: Int? {
      lock.lock()
      defer { lock.unlock() }
      return isFailed || records == 0 ? nil : matches
    }
  }

  /// The records and matches of one piece; nil when the piece needs the general way.
  private static func count(
    _ piece: [UInt8], lines: Bool, dates: SiftJSONDates, matcher: SiftMatcher, variables: [String: SiftValue]
  ) -> (records: Int, matches: Int)? {
    if lines && piece.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return (0, 0) }
    guard let columns = SiftColumnarRecords.direct(piece, dates: dates) else { return nil }
    // JSON Lines: one record a line, as the general way reads them (a record spanning lines
    // is an error there; the parser checks that itself when a piece holds more than one).
    // An array: every piece holds at least one element (`[1,,2]` and `[1,]` are errors).
    guard lines ? (columns.count > 1 || Self.lines(piece) == 1) : columns.count > 0,
      matcher.columnarFallback(for: columns, variables: variables) == nil,
      let n = try? matcher.count(columns, variables: variables, workers: workers)
    else { return nil }
    return (columns.count, n)
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
