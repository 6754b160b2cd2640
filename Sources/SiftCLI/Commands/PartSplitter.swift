import Foundation

/// Where `ColumnarInput.streamedCount` cuts a file it reads a part at a time into pieces the
/// columnar parser reads on their own: after whole lines (JSON Lines), or between the elements
/// of a top-level JSON array.
///
/// ```swift
/// var s = PartSplitter(.arrayElements)
/// var pending = Array(#"[{"a": "],"}, {"a": 2}, {"#.utf8)
/// s.take(&pending, atEnd: false)   // #"[{"a": "],"}, {"a": 2}]"# — the open element waits
/// ```
///
/// A cut in the array is a comma at depth 1 outside strings, found by a scanner that keeps
/// its state (in a string or not, depth) from part to part, so each byte is scanned once. The
/// comma at a cut becomes the `[` in front of the next piece, and every piece before the last
/// gets a `]` behind, so each is an array the parser reads. Correctness does not rest on the
/// scanner: when every piece parses as an array of at least one object, the file is such an
/// array and its records are the pieces' records (the cuts are commas between them); anything
/// else makes a piece fail, and the caller then reads the whole file the general way, which
/// reports the error.
///
/// Every byte is examined a bounded number of times, however long the lines or the white space
/// before the first record (`examined` counts them): a file that opened with a long run of
/// blank lines was rescanned from its start for every part and held whole until its first
/// record, superlinear and twice the file in memory (issue 35).
struct PartSplitter {
  enum Kind { case lines, arrayElements }
  /// Nil until the first byte past a BOM and white space tells (`opensArray`).
  private(set) var kind: Kind?
  /// Bytes the scanners have looked at (each at most three times).
  private(set) var examined = 0
  /// Bytes of `pending` the scanners have seen (JSON Lines: with no newline among them).
  private var scanned = 0
  private var depth = 0
  private var inString = false
  /// The last comma at depth 1 outside strings in `pending`.
  private var lastComma: Int?

  /// A splitter for pieces of `kind`, or (nil) of the kind the file's first bytes tell.
  init(_ kind: Kind? = nil) { self.kind = kind }

  /// Whether `bytes`, the start of a file, opens a JSON array (after a BOM and white space as
  /// the columnar parser skips them); nil when `bytes` is too short to tell.
  static func opensArray(_ bytes: [UInt8]) -> Bool? {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    if bytes.count < 3 && bom.starts(with: bytes) { return nil }
    var i = bytes.starts(with: bom) ? 3 : 0
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    return i < bytes.count ? bytes[i] == UInt8(ascii: "[") : nil
  }

  /// The next piece for the parser, taken off the front of `pending`; nil when `pending`
  /// holds no whole line or element yet (read more). At the end the rest is the last piece.
  /// While the kind is not told yet, `pending` (white space so far) is emptied but for a
  /// BOM; nil until the kind is told.
  mutating func take(_ pending: inout [UInt8], atEnd: Bool) -> [UInt8]? {
    if kind == nil {
      examined += pending.count
      guard let array = Self.opensArray(pending) else {
        Self.dropSpace(&pending)
        return nil
      }
      kind = array ? .arrayElements : .lines
    }
    switch kind {
    case nil: return nil
    case .lines?:
      // Only the bytes not searched yet: the ones kept hold no newline.
      examined += pending.count - scanned
      let cut = atEnd ? pending.count : (pending[scanned...].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
      var piece: [UInt8]?
      if cut > 0 {
        piece = Self.split(&pending, at: cut)
        scanned = 0  // the rest is of the bytes just read
      }
      // The start of a line that is white space so far counts for nothing: not kept (white
      // space kept before is dropped, so `scanned` > 0 means something else is kept).
      if scanned == 0 {
        examined += pending.count
        if pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { pending.removeAll(keepingCapacity: true) }
      }
      scanned = pending.count
      return piece
    case .arrayElements?:
      scan(pending)
      if !atEnd && lastComma == nil { return nil }
      if atEnd && pending.isEmpty { return nil }
      guard !atEnd, let cut = lastComma else { return Self.split(&pending, at: pending.count) }
      // The comma between the elements becomes the `[` of the next piece.
      var piece = Self.split(&pending, at: cut)
      pending[0] = UInt8(ascii: "[")
      piece.append(UInt8(ascii: "]"))
      scanned -= cut
      lastComma = nil
      return piece
    }
  }

  /// Empties `pending`, white space after an optional BOM, but for the BOM (or the start of
  /// one): the parser reads a piece the same without the space, and nothing is kept of a long
  /// run of blank lines.
  static func dropSpace(_ pending: inout [UInt8]) {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    if pending.count < 3 && bom.starts(with: pending) { return }
    pending.removeSubrange((pending.starts(with: bom) ? 3 : 0)...)
  }

  /// The first `cut` bytes of `pending`, which keeps the rest. The piece keeps the storage
  /// (a part is megabytes, the rest at most one line or element), so only the rest is copied.
  private static func split(_ pending: inout [UInt8], at cut: Int) -> [UInt8] {
    var piece = pending
    pending = Array(piece[cut...])
    piece.removeSubrange(cut...)
    return piece
  }

  /// 1 for the bytes the array scanner stops at outside strings: `"`, `[`, `]`, `{`, `}`, `,`.
  static let structural: [UInt8] = (0...255).map { b in Array("\"[]{},".utf8).contains(UInt8(b)) ? 1 : 0 }

  /// Scans the bytes of `pending` not seen yet, noting the last comma between elements.
  /// Inside a string it jumps to the next quote, which closes the string unless an odd run
  /// of backslashes stands before it (a string never starts before `pending` does: pieces are
  /// cut at commas outside strings).
  ///
  /// (Unsafe for speed, measured with callgrind on 100,000 venues as a 26.7 MB array: with
  /// array subscripts and `firstIndex(of:)` for the jump the scan took 323 M instructions, 12 a
  /// byte, 27% of the whole count; over the buffer with `memchr` for the jump it takes
  /// 245 M, 9 a byte (a table for the bytes outside strings). Every index stays below `end`.)
  private mutating func scan(_ pending: [UInt8]) {
    var d = depth
    var s = inString
    var last = lastComma
    let start = scanned
    Self.structural.withUnsafeBufferPointer { t in
      pending.withUnsafeBufferPointer { p in
        guard let base = p.baseAddress else { return }
        let end = p.count
        var j = start
        while j < end {
          if s {
            guard let hit = memchr(base + j, 0x22, end - j) else { break }
            let q = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            var k = q
            while k > 0 && p[k - 1] == 0x5C { k -= 1 }
            if (q - k) % 2 == 0 { s = false }
            j = q + 1
            continue
          }
          // Numbers, space, `:` and letters first, one table load each.
          while j < end && t[Int(p[j])] == 0 { j += 1 }
          guard j < end else { break }
          switch p[j] {
          case 0x22: s = true
          case 0x5B, 0x7B: d += 1
          case 0x5D, 0x7D: d -= 1
          case 0x2C where d == 1: last = j
          default: break
          }
          j += 1
        }
      }
    }
    examined += pending.count - start
    scanned = pending.count
    depth = d
    inString = s
    lastComma = last
  }
}
