import Foundation

/// Per-scalar folds of the Basic Multilingual Plane under one option set (`[c]`, `[d]` or
/// `[cd]`), computed once per process from Foundation itself, so the table can only agree
/// with `TextFolding.referenceFold`.
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

  static let caseFold = FoldTable([.caseInsensitive])
  static let diacriticFold = FoldTable([.diacriticInsensitive])
  static let bothFold = FoldTable([.caseInsensitive, .diacriticInsensitive])

  /// The table for the folding part of `options`; nil when they do not fold.
  @inline(__always)
  static func table(for options: ComparisonOptions) -> FoldTable? {
    let c = options.contains(.caseInsensitive), d = options.contains(.diacriticInsensitive)
    if c { return d ? bothFold : caseFold }
    return d ? diacriticFold : nil
  }

  private init(_ options: ComparisonOptions) {
    caseless = options.contains(.caseInsensitive)
    var candidates: [Unicode.Scalar] = []
    for v in UInt32(0x80)...0xFFFF {
      if let s = Unicode.Scalar(v), FoldTable.isStableBase(s) { candidates.append(s) }
    }
    // One Foundation call per batch: every candidate alone on its line, and every candidate
    // between two neighbours that fold (so marks Foundation would absorb show up).
    func batch(_ before: String, _ after: String) -> String {
      var out = String.UnicodeScalarView()
      for s in candidates {
        out.append(contentsOf: before.unicodeScalars)
        out.append(s)
        out.append(contentsOf: after.unicodeScalars)
        out.append("\n")
      }
      return String(out)
    }
    let alone = batch("", "")
    let raw = FoldTable.lines(FoldTable.foundationFold(alone, options, normalize: false))
    let folded = FoldTable.lines(FoldTable.foundationFold(alone, options, normalize: true))
    let neighbour = "\u{E1}\u{C9}"  // "áÉ": both change under [c] and under [d]
    let probe = FoldTable.lines(FoldTable.foundationFold(batch(neighbour, neighbour), options, normalize: true))
    let side = Array(TextFolding.referenceFold(neighbour, options).utf8)

    var entries = [UInt32](repeating: 0, count: 0x10000)
    var bytes: [UInt8] = []
    if raw.count == candidates.count && folded.count == candidates.count && probe.count == candidates.count {
      for (i, s) in candidates.enumerated() {
        let r = raw[i], f = folded[i]
        guard !r.isEmpty, !f.isEmpty, f.count < 256, FoldTable.startsStable(r), FoldTable.startsStable(f),
          probe[i] == side + f + side
        else { continue }
        entries[Int(s.value)] = UInt32(bytes.count) << 8 | UInt32(f.count)
        bytes += f
      }
    }
    self.entries = entries
    self.bytes = bytes
  }

  /// Foundation's fold, optionally followed by NFC.
  static func foundationFold(_ text: String, _ options: ComparisonOptions, normalize: Bool) -> String {
    if normalize { return TextFolding.referenceFold(text, options) }
    var foundation: String.CompareOptions = []
    if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
    return text.folding(options: foundation, locale: nil)
  }

  /// UTF-8 bytes of each "\n"-terminated line.
  static func lines(_ text: String) -> [[UInt8]] {
    var out: [[UInt8]] = []
    var cur: [UInt8] = []
    for b in text.utf8 {
      if b == 0x0A {
        out.append(cur)
        cur.removeAll(keepingCapacity: true)
      } else {
        cur.append(b)
      }
    }
    return out
  }

  /// Is the first scalar of these UTF-8 bytes a stable base character (or ASCII)?
  static func startsStable(_ utf8: [UInt8]) -> Bool {
    var it = String(decoding: utf8, as: UTF8.self).unicodeScalars.makeIterator()
    guard let s = it.next() else { return false }
    return s.isASCII || isStableBase(s)
  }

  /// Swift's Unicode data says `s` starts a character and never combines with what precedes it.
  static func isStableBase(_ s: Unicode.Scalar) -> Bool {
    if s.value < 0x80 { return true }
    if s.value > 0xFFFF { return false }
    if (0x1160...0x11FF).contains(s.value) || (0xD7B0...0xD7FF).contains(s.value) { return false }
    let p = s.properties
    if p.canonicalCombiningClass != .notReordered { return false }
    switch p.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .unassigned, .surrogate: return false
    default: return true
    }
  }

  // MARK: Folding with the table

  /// The fold of `text`, or nil when a scalar has no entry.
  func fold(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { t -> String? in
      entries.withUnsafeBufferPointer { e -> String? in
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
        return bytes.withUnsafeBufferPointer { b in
          String(unsafeUninitializedCapacity: total) { out in
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
