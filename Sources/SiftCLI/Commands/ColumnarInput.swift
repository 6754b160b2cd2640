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
  /// Bytes read at a time when streaming (16 MB parts: 0.45 s and 85 MB for 267 MB of JSON
  /// Lines; 4 MB: 0.42 s, 43 MB — the last piece, counted on one core, is shorter).
  static let streamPart = 4 << 20

  /// The number of matching records of a JSON Lines file or a file holding a JSON array, read
  /// `part` bytes at a time and cut at whole lines or whole elements (`PartSplitter`); nil for
  /// the general way (which then reports any error with its place in the whole file).
  static func streamedCount(
    _ path: String, dates: SiftJSONDates, matcher: SiftMatcher, variables: [String: SiftValue], part: Int = streamPart
  ) -> Int? {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    // Cut into whole elements when the file opens an array, else into whole lines: told by the
    // contents, never the file's name, as `SiftJSON.records` and the columnar parser tell them
    // (white space before the first record is dropped as it is read).
    var splitter = PartSplitter()
    var pending: [UInt8] = []
    var atEnd = false
    // Pieces are parsed and counted on every core while the next part is read and cut (one
    // core parsed at 0.87 s for 268 MB of JSON Lines); at most `workers` pieces are in flight,
    // so memory stays bounded. A piece that needs the general way stops the rest.
    // Only the keys the predicate reads are stored; the rest are checked and stepped over.
    let keys = matcher.columnarKeys(variables: variables)
    let tally = PieceTally()
    let buffers = PartBuffers()
    let inFlight = DispatchSemaphore(value: max(1, workers))
    let group = DispatchGroup()
    while !atEnd, !tally.failed {
      // A read error: the general way reads the file again and reports it.
      guard let n = read(file.fileDescriptor, after: &pending, upTo: part, into: buffers.take()) else {
        group.wait()
        return nil
      }
      atEnd = n == 0
      guard let piece = splitter.take(&pending, atEnd: atEnd) else { continue }
      let jsonLines = splitter.kind == .lines
      inFlight.wait()  // a piece in flight always ends: parsing and counting are bounded work
      group.enter()
      let handed = PartBuffers.Handed(piece)
      DispatchQueue.global().async {
        defer {
          inFlight.signal()
          group.leave()
        }
        let bytes = handed.take()
        tally.add(count(bytes, lines: jsonLines, keys: keys, dates: dates, matcher: matcher, variables: variables))
        buffers.give(consume bytes)
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
    _ piece: [UInt8], lines: Bool, keys: Set<String>?, dates: SiftJSONDates, matcher: SiftMatcher,
    variables: [String: SiftValue]
  ) -> (records: Int, matches: Int)? {
    if lines && piece.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return (0, 0) }
    guard let columns = SiftColumnarRecords.direct(piece, dates: dates, keeping: keys) else { return nil }
    // JSON Lines: one record a line, as the general way reads them (a record spanning lines
    // is an error there; the parser checks that itself when a piece holds more than one).
    // An array: every piece holds at least one element (`[1,,2]` and `[1,]` are errors).
    guard lines ? (columns.count > 1 || Self.lines(piece) == 1) : columns.count > 0,
      matcher.columnarFallback(for: columns, variables: variables) == nil,
      let n = try? matcher.count(columns, variables: variables, workers: workers)
    else { return nil }
    return (columns.count, n)
  }

  /// Reads up to `part` more bytes of `fd` onto the end of `pending`, straight into `buffer`
  /// (a part read into `Data` and then appended was written twice), which becomes `pending`;
  /// the number read, 0 at the end of the file, nil on an error.
  static func read(_ fd: Int32, after pending: inout [UInt8], upTo part: Int, into buffer: consuming [UInt8]) -> Int? {
    var next = consume buffer
    let kept = pending.count
    var got: Int? = 0
    if kept >= part {
      // A line or element longer than a part: read onto `pending` itself, which grows
      // geometrically (what is kept copied into a part buffer for every read was quadratic in
      // the line's length).
      pending.append(contentsOf: repeatElement(0, count: part))
      pending.withUnsafeMutableBufferPointer { b in
        got = b.baseAddress.flatMap { SiftJSON.readOnce(fd, $0 + kept, part) }
      }
      pending.removeLast(part - (got ?? 0))
      return got
    }
    func fill(_ base: UnsafeMutablePointer<UInt8>) {
      pending.withUnsafeBufferPointer { old in
        if let from = old.baseAddress { base.update(from: from, count: kept) }
      }
      got = SiftJSON.readOnce(fd, base + kept, part)
    }
    if next.capacity >= kept + part {
      // A buffer given back: its old bytes are written over; only what its count lacks is added.
      if next.count < kept + part { next.append(contentsOf: [UInt8](repeating: 0, count: kept + part - next.count)) }
      next.withUnsafeMutableBufferPointer { b in b.baseAddress.map(fill) }
      next.removeLast(next.count - kept - (got ?? 0))
    } else {
      next = [UInt8](unsafeUninitializedCapacity: kept + part) { b, initialized in
        b.baseAddress.map(fill)
        initialized = kept + (got ?? 0)
      }
    }
    pending = next
    return got
  }

  /// Part buffers, given back once their piece is counted and used again for the next part: a
  /// new array for every part was fresh memory each time (reusing them took a count of 267 MB of
  /// JSON Lines from 149 to 85 MB at its peak, and 0.172 to 0.148 s of system time).
  final class PartBuffers: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [[UInt8]] = []

    /// A buffer given back, or an empty array.
    func take() -> [UInt8] {
      lock.lock()
      defer { lock.unlock() }
      return free.popLast() ?? []
    }

    func give(_ buffer: consuming [UInt8]) {
      lock.lock()
      defer { lock.unlock() }
      free.append(buffer)
    }

    /// A piece on its way to the thread that counts it, which takes it out (so that, given
    /// back, the buffer has no other owner and is reused, not copied). Taken once, on that
    /// thread; the dispatch orders it after the piece was handed over.
    final class Handed: @unchecked Sendable {
      private var bytes: [UInt8]
      init(_ bytes: [UInt8]) { self.bytes = bytes }
      func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
      }
    }
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
