import Foundation
import SiftSyntax

/// How a comparison treats strings: which of `[c]`/`[d]` fold them. `[n]` and `[l]` are
/// accepted and change nothing.
///
/// Strings compare by Unicode code points (UTF-8 byte order), exactly as written: no
/// normalization unless `[c]` or `[d]` is given, in which case both sides are folded with
/// `TextFolding` (full case folding, diacritics removed, NFC). ASCII text takes byte-level fast
/// paths that allocate nothing.
struct TextRule: Sendable {
  let options: ComparisonOptions
  let caseless: Bool
  let folds: Bool

  init(_ options: ComparisonOptions) {
    let relevant = TextFoldCode(options).options  // [c]/[d]: what SQL's sift_fold receives too
    self.options = relevant
    self.caseless = relevant.contains(.caseInsensitive)
    self.folds = !relevant.isEmpty
  }

  /// Folds a needle once (at compile time when it is a constant).
  func prepare(_ needle: String) -> PreparedText {
    let f = TextFolding.fold(needle, options)
    return PreparedText(folded: f, isASCII: TextFolding.isASCII(f))
  }

  func equal(_ a: String, _ b: String) -> Bool {
    if !folds { return Bytes.equal(a, b) }
    return equal(a, prepare(b))
  }

  func equal(_ a: String, _ b: PreparedText) -> Bool {
    if !folds { return Bytes.equal(a, b.folded) }
    if b.isASCII && TextFolding.isASCII(a) {
      return caseless ? Bytes.equalASCIICaseless(a, b.folded) : Bytes.equal(a, b.folded)
    }
    return TextFolding.foldedEquals(a, b.folded, options)
  }

  /// -1, 0 or 1 by code points of the (folded) strings.
  func compare(_ a: String, _ b: String) -> Int {
    if !folds { return Bytes.compare(a, b, caseless: false) }
    if TextFolding.isASCII(a) && TextFolding.isASCII(b) { return Bytes.compare(a, b, caseless: caseless) }
    return Bytes.compare(TextFolding.fold(a, options), TextFolding.fold(b, options), caseless: false)
  }

  /// BEGINSWITH / ENDSWITH / CONTAINS on strings (`TextSearch`'s rule, with ASCII shortcuts
  /// first). An empty needle never matches.
  func find(_ needle: PreparedText, in subject: String, _ where_: TextSearch.Position) -> Bool {
    if needle.folded.utf8.isEmpty { return false }
    if !folds { return Bytes.find(needle.folded, in: subject, where_, caseless: false) }
    // An ASCII prefix is decided by the subject's first characters alone (exact whenever
    // `asciiPrefix` answers), without scanning the whole subject first.
    if where_ == .prefix, needle.isASCII, let answer = Bytes.asciiPrefix(needle.folded, of: subject, caseless: caseless)
    {
      return answer
    }
    if needle.isASCII && TextFolding.isASCII(subject) {
      return Bytes.find(needle.folded, in: subject, where_, caseless: caseless)
    }
    return TextSearch.find(foldedNeedle: needle.folded, in: subject, where_, options)
  }
}

/// A needle folded ahead of time.
struct PreparedText: Sendable {
  let folded: String
  let isASCII: Bool
}

/// Byte-level (UTF-8) string primitives: code-point order, no allocation.
enum Bytes {
  // `with` and `lower` repeat TextSearch.bytes/lowerASCII on purpose: called across the
  // module boundary (not inlined) they made `sift-bench --suite evaluate` equality 0.17 → 0.55
  // and BEGINSWITH[c] 0.09 → 0.42 of the closure baseline (release, loaded machine).
  @inline(__always)
  static func with<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
    var s = s
    return s.withUTF8(body)
  }

  @inline(__always)
  static func lower(_ b: UInt8) -> UInt8 { (b &- 0x41) < 26 ? b | 0x20 : b }

  static func equal(_ a: String, _ b: String) -> Bool {
    if a.utf8.count != b.utf8.count { return false }
    return with(a) { pa in
      with(b) { pb in
        guard let x = pa.baseAddress, let y = pb.baseAddress else { return true }
        return memcmp(x, y, pa.count) == 0
      }
    }
  }

  static func equalASCIICaseless(_ a: String, _ loweredB: String) -> Bool {
    if a.utf8.count != loweredB.utf8.count { return false }
    return with(a) { pa in
      with(loweredB) { pb in
        for i in 0..<pa.count where lower(pa[i]) != pb[i] { return false }
        return true
      }
    }
  }

  static func compare(_ a: String, _ b: String, caseless: Bool) -> Int {
    with(a) { pa in
      with(b) { pb in
        let n = min(pa.count, pb.count)
        if caseless {
          for i in 0..<n {
            let x = lower(pa[i]), y = lower(pb[i])
            if x != y { return x < y ? -1 : 1 }
          }
        } else if let x = pa.baseAddress, let y = pb.baseAddress {
          return TextSearch.order(x, count: pa.count, y, count: pb.count)  // the one byte order
        }
        return pa.count == pb.count ? 0 : (pa.count < pb.count ? -1 : 1)
      }
    }
  }

  /// Decides a prefix test without folding from the subject's leading ASCII bytes; nil when
  /// folding is needed. Exact because ASCII folds to ASCII, byte by byte (lower-cased under
  /// `[c]`), and a character can only change its neighbours through the non-ASCII characters
  /// after it (combining marks compose with it into a non-ASCII character):
  /// - the first `needle.count + 1` bytes ASCII: compare them (lower-cased when `caseless`);
  /// - a mismatch at byte `i` with bytes `0...i` ASCII: false — the folded subject has the
  ///   same first `i` bytes, and at byte `i` either the folded ASCII character or the first
  ///   (non-ASCII) byte of a composed one, neither of which is the needle's ASCII byte;
  /// - an all-ASCII subject shorter than the needle: false.
  static func asciiPrefix(_ needle: String, of subject: String, caseless: Bool) -> Bool? {
    with(needle) { n in asciiPrefix(n, of: subject, caseless: caseless) }
  }

  /// `asciiPrefix` with the needle's bytes (ASCII, already lower-case when `caseless`).
  @inline(__always)
  static func asciiPrefix(_ n: UnsafeBufferPointer<UInt8>, of subject: String, caseless: Bool) -> Bool? {
    with(subject) { s in
      for i in 0..<n.count {
        guard i < s.count else { return false }
        let b = s[i]
        if b >= 0x80 { return nil }
        if (caseless ? lower(b) : b) != n[i] { return false }
      }
      if s.count > n.count && s[n.count] >= 0x80 { return nil }
      return true
    }
  }

  /// Is `needle` (already lower-case when `caseless`) at the start, end or anywhere in
  /// `subject`? `TextSearch.find` on the two strings' bytes.
  @inline(__always)
  static func find(_ needle: String, in subject: String, _ where_: TextSearch.Position, caseless: Bool) -> Bool {
    with(needle) { n in with(subject) { s in TextSearch.find(n, in: s, where_, caseless: caseless) } }
  }
}
