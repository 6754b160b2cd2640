import Foundation

/// The string operators `BEGINSWITH`, `ENDSWITH`, `CONTAINS` (and `IN` on a string) and
/// string `==`, with the rule every engine follows: strings compare by **Unicode scalars as
/// written** (UTF-8 bytes), with no normalization unless `[c]`/`[d]` is given, in which case
/// both sides are folded with `TextFolding.fold` first. An empty (folded) needle never matches.
/// Not `Character` semantics: `"Cafe\u{301}"` does not begin with `"Café"`, and
/// `"café"` (precomposed) does not end with `"e\u{301}"`.
///
/// Shared by in-memory evaluation and the `sift_search` SQLite function, so both answer alike.
///
/// ```swift
/// TextSearch.find("BLUE", in: "Bluebird", .prefix, [.caseInsensitive])   // true
/// TextSearch.find("e\u{301}", in: "café", .suffix, [])                  // false: scalars differ
/// ```
package enum TextSearch {
  /// Where the needle must occur.
  ///
  /// ```swift
  /// TextSearch.Position.suffix   // ENDSWITH
  /// ```
  package enum Position: Sendable, Hashable {
    /// `BEGINSWITH`.
    case prefix
    /// `ENDSWITH`.
    case suffix
    /// `CONTAINS`, and `IN` with a string on the right.
    case anywhere
  }

  /// Does `subject` contain `needle` at `position`, after folding both by `options`?
  ///
  /// ```swift
  /// TextSearch.find("strasse", in: "Straße 5", .prefix, [.caseInsensitive])   // true
  /// TextSearch.find("", in: "abc", .anywhere, [])                            // false
  /// ```
  package static func find(
    _ needle: String, in subject: String, _ position: Position, _ options: ComparisonOptions
  ) -> Bool {
    find(foldedNeedle: TextFolding.fold(needle, options), in: subject, position, options)
  }

  /// Like `find(_:in:_:_:)` with a needle already folded by `options` (fold it once with
  /// `TextFolding.fold` when it is a constant).
  ///
  /// ```swift
  /// let n = TextFolding.fold("ZÜR", [.caseInsensitive, .diacriticInsensitive])   // "zur"
  /// TextSearch.find(foldedNeedle: n, in: "Zürich", .prefix, [.caseInsensitive, .diacriticInsensitive])   // true
  /// ```
  package static func find(
    foldedNeedle needle: String, in subject: String, _ position: Position, _ options: ComparisonOptions
  ) -> Bool {
    if needle.utf8.isEmpty { return false }
    let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
    if folds && position == .prefix {
      // Folds only as much of the subject as the needle needs.
      return TextFolding.foldedHasPrefix(subject, needle, options)
    }
    let haystack = folds ? TextFolding.fold(subject, options) : subject
    return bytes(needle) { n in bytes(haystack) { h in find(n, in: h, position) } }
  }

  /// Are `a` and `b` equal after folding both by `options` (by scalars, no normalization
  /// without options)?
  ///
  /// ```swift
  /// TextSearch.equals("ZÜRICH", "zurich", [.caseInsensitive, .diacriticInsensitive])   // true
  /// TextSearch.equals("Cafe\u{301}", "Café", [])                                      // false
  /// ```
  package static func equals(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
    let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
    if !folds { return a.utf8.elementsEqual(b.utf8) }
    return TextFolding.foldedEquals(a, TextFolding.fold(b, options), options)
  }

  /// Byte search on UTF-8: since UTF-8 is self-synchronizing, a byte match of valid UTF-8 is
  /// a match of whole scalars.
  ///
  /// ```swift
  /// TextSearch.find(Array("b".utf8), in: Array("abc".utf8), .anywhere)   // true
  /// ```
  package static func find(_ n: UnsafeBufferPointer<UInt8>, in h: UnsafeBufferPointer<UInt8>, _ position: Position) -> Bool {
    let count = n.count
    guard count > 0, count <= h.count, let np = n.baseAddress, let hp = h.baseAddress else { return false }
    switch position {
    case .prefix:
      return memcmp(hp, np, count) == 0
    case .suffix:
      return memcmp(hp + (h.count - count), np, count) == 0
    case .anywhere:
      let first = np.pointee
      var i = 0
      let last = h.count - count
      while i <= last {
        if hp[i] == first && memcmp(hp + i, np, count) == 0 { return true }
        i += 1
      }
      return false
    }
  }

  /// Same as the buffer form, for arrays (handy in tests).
  ///
  /// ```swift
  /// TextSearch.find(Array("c".utf8), in: Array("abc".utf8), .suffix)   // true
  /// ```
  package static func find(_ n: [UInt8], in h: [UInt8], _ position: Position) -> Bool {
    n.withUnsafeBufferPointer { nb in h.withUnsafeBufferPointer { hb in find(nb, in: hb, position) } }
  }

  @inline(__always)
  static func bytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
    var s = s
    return s.withUTF8(body)
  }
}
