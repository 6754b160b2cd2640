/// Per-scalar folds of the Basic Multilingual Plane under one option set (`[c]`, `[d]` or
/// `[cd]`), read at first use from `TextFoldingData` (generated ahead of time from Foundation
/// by `Tests/SiftSyntaxTests/TextFoldingGenerator.swift`, which a test re-runs to catch drift),
/// so the table agrees with `TextFolding.referenceFold` without computing anything at start-up.
///
/// A scalar gets an entry only when it is a *stable base character*: folding a string made
/// of such scalars is the concatenation of their single-scalar folds. Foundation folds a base
/// character together with the combining marks that follow it, and NFC composes across
/// neighbours, so a stable scalar must (by Swift's Unicode data) be assigned, have combining
/// class 0, not be a mark, not be a conjoining jamo vowel or trailing consonant, and fold to
/// a non-empty text whose first scalar is again such a character; and (by probing Foundation)
/// fold the same between two neighbours that change under folding. Every other scalar has no
/// entry, and text containing one goes to Foundation whole.
///
/// ```swift
/// FoldTable.table(for: [.caseInsensitive])?.fold("Straße")   // "strasse"
/// ```
final class FoldTable: Sendable {
  /// Indexed by scalar value (0…0xFFFF): 0 when the scalar has no entry, else
  /// `(offset << 8) | length` of its fold's UTF-8 bytes in `bytes`.
  let entries: [UInt32]
  let bytes: [UInt8]
  /// `[c]` is among the options (ASCII letters lower-case).
  let caseless: Bool

  static let caseFold = FoldTable(caseless: true, data: TextFoldingData.caseFold)
  static let diacriticFold = FoldTable(caseless: false, data: TextFoldingData.diacriticFold)
  static let bothFold = FoldTable(caseless: true, data: TextFoldingData.bothFold)

  /// The table for the folding part of `options`; nil when they do not fold.
  @inline(__always)
  static func table(for options: ComparisonOptions) -> FoldTable? {
    let c = options.contains(.caseInsensitive), d = options.contains(.diacriticInsensitive)
    if c { return d ? bothFold : caseFold }
    return d ? diacriticFold : nil
  }

  /// A table read from `TextFoldingData` text. Should the text not decode, the table has no
  /// entries and every non-ASCII text goes to Foundation: slower, never wrong.
  init(caseless: Bool, data: String) {
    self.caseless = caseless
    if let table = FoldTable.decodeData(data) {
      entries = table.entries
      bytes = table.bytes
    } else {
      entries = [UInt32](repeating: 0, count: 0x10000)
      bytes = []
    }
  }

  /// Decodes the `TextFoldingData` format (hex numbers, tokens separated by spaces or line
  /// breaks, covering U+0080…U+FFFF in order): `-N` N scalars without an entry, `=N` N scalars
  /// that fold to themselves, `a,b,…` one scalar that folds to the scalars a, b, …. Folds are
  /// laid out in `bytes` in scalar order. Nil when the text is malformed or does not cover
  /// exactly U+0080…U+FFFF.
  ///
  /// ```swift
  /// FoldTable.decodeData("=2 61 -ff7d")?.bytes   // [0xC2, 0x80, 0xC2, 0x81, 0x61]
  /// ```
  static func decodeData(_ data: String) -> (entries: [UInt32], bytes: [UInt8])? {
    var decoder = FoldDataDecoder()
    var data = data
    guard data.withUTF8({ decoder.decode($0) }) else { return nil }
    return (decoder.entries, decoder.bytes)
  }

  // MARK: Folding with the table

  /// The fold of `text`, or nil when a scalar has no entry.
  func fold(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { t -> String? in
      guard let total = foldedCount(t) else { return nil }
      return String(unsafeUninitializedCapacity: total) { out in write(t, into: out) }
    }
  }

  /// Appends the fold of the UTF-8 text `t` to `out`, as `fold(_:)` folds it; false, with
  /// `out` as it was, when a scalar has no entry. Measured, then written in place by the
  /// same loop as `fold(_:)`.
  func fold(bytes t: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
    guard let total = foldedCount(t) else { return false }
    let mark = out.count
    out.append(contentsOf: repeatElement(0, count: total))
    out.withUnsafeMutableBufferPointer { o in
      _ = write(t, into: UnsafeMutableBufferPointer(rebasing: o[mark...]))
    }
    return true
  }

  /// The length of the fold of the UTF-8 text `t`; nil when a scalar has no entry.
  private func foldedCount(_ t: UnsafeBufferPointer<UInt8>) -> Int? {
    entries.withUnsafeBufferPointer { e -> Int? in
      var total = 0
      var i = 0
      while i < t.count {
        if t[i] < 0x80 {
          total &+= 1
          i &+= 1
          continue
        }
        guard let (v, w) = FoldTable.decode(t, i) else { return nil }
        let entry = e[v]
        if entry == 0 { return nil }
        total &+= Int(entry & 0xFF)
        i &+= w
      }
      return total
    }
  }

  /// Writes the fold of `t` (whose `foldedCount` fits `out`) into `out`; the bytes written.
  private func write(_ t: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
    entries.withUnsafeBufferPointer { e in
      bytes.withUnsafeBufferPointer { b in
        var i = 0, o = 0
        while i < t.count {
          let x = t[i]
          if x < 0x80 {
            out[o] = caseless && x &- 0x41 < 26 ? x | 0x20 : x
            o &+= 1
            i &+= 1
            continue
          }
          guard let (v, w) = FoldTable.decode(t, i) else { return o }
          let entry = e[v]
          let start = Int(entry >> 8), len = Int(entry & 0xFF)
          for k in 0..<len { out[o &+ k] = b[start &+ k] }
          o &+= len
          i &+= w
        }
        return o
      }
    }
  }

  /// Compares the fold of the UTF-8 text `t` with the folded needle `n` (see
  /// `TextFolding.streamCompare`). Nil when the table cannot decide.
  func compare(_ t: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>, wholeText: Bool) -> Bool? {
    entries.withUnsafeBufferPointer { e in
      bytes.withUnsafeBufferPointer { b in
        /// Is the scalar at `i` stable (or is `i` the end)?
        func stable(_ i: Int) -> Bool {
          if i >= t.count || t[i] < 0x80 { return true }
          guard let (v, _) = FoldTable.decode(t, i) else { return false }
          return e[v] != 0
        }
        var i = 0, j = 0
        var one: UInt8 = 0
        while i < t.count {
          let x = t[i]
          let next: Int
          let len: Int
          let start: Int
          if x < 0x80 {
            one = caseless && x &- 0x41 < 26 ? x | 0x20 : x
            next = i &+ 1
            len = 1
            start = -1
          } else {
            guard let (v, w) = FoldTable.decode(t, i) else { return nil }
            let entry = e[v]
            if entry == 0 { return nil }
            next = i &+ w
            len = Int(entry & 0xFF)
            start = Int(entry >> 8)
          }
          for k in 0..<len {
            if j == n.count {
              guard stable(next) else { return nil }
              return !wholeText
            }
            let byte = start < 0 ? one : b[start &+ k]
            if byte != n[j] {
              guard stable(next) else { return nil }
              return false
            }
            j &+= 1
          }
          if j == n.count && !wholeText {
            guard stable(next) else { return nil }
            return true
          }
          i = next
        }
        return j == n.count
      }
    }
  }

  /// The scalar value and byte width of the two- or three-byte UTF-8 sequence at `i`; nil for
  /// four-byte sequences (outside the table).
  @inline(__always)
  static func decode(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Int, Int)? {
    let x = Int(t[i])
    if x < 0xE0 {
      return ((x & 0x1F) << 6 | Int(t[i &+ 1] & 0x3F), 2)
    }
    if x < 0xF0 {
      return ((x & 0x0F) << 12 | Int(t[i &+ 1] & 0x3F) << 6 | Int(t[i &+ 2] & 0x3F), 3)
    }
    return nil
  }
}

/// Reads the `TextFoldingData` text format into `FoldTable`'s layout (see
/// `FoldTable.decodeData`). One pass, no allocation beyond the two arrays.
///
/// ```swift
/// var decoder = FoldDataDecoder()
/// var data = "-ff80"
/// data.withUTF8 { decoder.decode($0) }   // true: no scalar has an entry
/// ```
struct FoldDataDecoder {
  private(set) var entries = [UInt32](repeating: 0, count: 0x10000)
  private(set) var bytes: [UInt8] = []
  /// The scalar the next token describes.
  private var next = 0x80

  init() { bytes.reserveCapacity(0x30000) }

  /// Decodes the whole text; false when it is malformed or does not cover U+0080…U+FFFF.
  mutating func decode(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n"), comma = UInt8(ascii: ",")
    let minus = UInt8(ascii: "-"), equals = UInt8(ascii: "=")
    var i = 0
    while i < text.count {
      var c = text[i]
      if c == space || c == newline {
        i &+= 1
        continue
      }
      let kind: UInt8 = c == minus || c == equals ? c : 0
      if kind != 0 { i &+= 1 }
      let start = bytes.count
      var count = 0
      while true {
        // One hex number (1…6 lower-case digits).
        var value = 0, digits = 0
        while i < text.count {
          c = text[i]
          let d: Int
          if c >= 0x30 && c <= 0x39 {
            d = Int(c &- 0x30)
          } else if c >= 0x61 && c <= 0x66 {
            d = Int(c &- 0x61) &+ 10
          } else {
            break
          }
          guard digits < 6 else { return false }
          value = value << 4 | d
          digits &+= 1
          i &+= 1
        }
        guard digits > 0 else { return false }
        if kind != 0 {
          count = value
          break
        }
        guard appendUTF8(value) else { return false }
        guard i < text.count && text[i] == comma else { break }
        i &+= 1
      }
      guard i == text.count || text[i] == space || text[i] == newline else { return false }
      switch kind {
      case minus:
        guard count > 0 && count <= 0x10000 &- next else { return false }
        next &+= count
      case equals:
        guard count > 0 && count <= 0x10000 &- next else { return false }
        for _ in 0..<count {
          let at = bytes.count
          guard appendUTF8(next), record(from: at) else { return false }
        }
      default:
        guard record(from: start) else { return false }
      }
    }
    return next == 0x10000
  }

  /// Makes `bytes[start...]` the fold of scalar `next`, and moves on to the next scalar.
  private mutating func record(from start: Int) -> Bool {
    let length = bytes.count &- start
    guard next < 0x10000 && length > 0 && length < 256 && start < 1 << 24 else { return false }
    entries[next] = UInt32(truncatingIfNeeded: start) << 8 | UInt32(truncatingIfNeeded: length)
    next &+= 1
    return true
  }

  /// Appends the UTF-8 of scalar `v`; false for surrogates and values past U+10FFFF.
  private mutating func appendUTF8(_ v: Int) -> Bool {
    switch v {
    case 0..<0x80:
      bytes.append(UInt8(truncatingIfNeeded: v))
    case 0x80..<0x800:
      bytes.append(0xC0 | UInt8(truncatingIfNeeded: v >> 6))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
    case 0x800..<0xD800, 0xE000..<0x10000:
      bytes.append(0xE0 | UInt8(truncatingIfNeeded: v >> 12))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v >> 6 & 0x3F))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
    case 0x10000...0x10FFFF:
      bytes.append(0xF0 | UInt8(truncatingIfNeeded: v >> 18))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v >> 12 & 0x3F))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v >> 6 & 0x3F))
      bytes.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
    default:
      return false
    }
    return true
  }
}
