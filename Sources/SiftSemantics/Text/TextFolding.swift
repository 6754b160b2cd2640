import Foundation

/// String folding for the `[c]` and `[d]` comparison options, shared by in-memory evaluation
/// and the SQL functions Sift registers, so both give the same answers.
///
/// `[c]` is full Unicode case folding (`ß` folds to `ss`, `Σ`/`σ`/`ς` agree); `[d]` removes
/// diacritics (`é` → `e`, `ñ` → `n`, `ü` → `u`). `[n]` and `[l]` do not change the text.
///
/// The answer is defined by Foundation: `text.folding(options:locale: nil)` followed by NFC
/// (`precomposedStringWithCanonicalMapping`). Three paths compute exactly that answer:
/// - ASCII text: byte-level lower-casing;
/// - text whose every scalar is in the Basic Multilingual Plane and is a *stable base
///   character* (see `FoldTable`): the concatenation of per-scalar folds read from a table
///   generated ahead of time from Foundation itself (`TextFoldingData`, decoded in about a
///   millisecond at first use; a test regenerates it and fails on any difference);
/// - anything else (combining marks, conjoining jamo, scalars above U+FFFF…): Foundation.
///
/// ```swift
/// TextFolding.fold("Crème BRÛLÉE", [.caseInsensitive, .diacriticInsensitive])   // "creme brulee"
/// ```
package enum TextFolding {
  /// Folds `text` as the options ask.
  ///
  /// ```swift
  /// TextFolding.fold("STRASSE", [.caseInsensitive]) == TextFolding.fold("Straße", [.caseInsensitive])   // true
  /// ```
  package static func fold(_ text: String, _ options: ComparisonOptions) -> String {
    guard let table = FoldTable.table(for: options) else { return text }
    if isASCII(text) {
      return table.caseless ? asciiLowercased(text) : text
    }
    if let fast = table.fold(text) { return fast }
    return referenceFold(text, options)
  }

  /// Appends to `out` the UTF-8 of `fold(text, options)`, where `text` is the string the valid
  /// UTF-8 `bytes` spell (a `String`'s bytes, or a column's text, stored only when valid):
  /// without making a `String` when the table folds every scalar. (Columns of
  /// text fold a row at a time this way: making a `String` of each non-ASCII row and of its
  /// fold was most of a `[c]` count over the bench's venues, perf over `sift eval --count`.)
  ///
  /// ```swift
  /// var out: [UInt8] = []
  /// TextFolding.fold(utf8: bytes, [.caseInsensitive], into: &out)   // "zürich" for "ZÜRICH"
  /// ```
  package static func fold(
    utf8 bytes: UnsafeBufferPointer<UInt8>, _ options: ComparisonOptions, into out: inout [UInt8]
  ) {
    guard let table = FoldTable.table(for: options) else { return out.append(contentsOf: bytes) }
    if table.fold(bytes: bytes, into: &out) { return }
    out.append(contentsOf: referenceFold(String(decoding: bytes, as: UTF8.self), options).utf8)
  }

  /// Does the fold of `text` begin with `foldedNeedle` (a string that is already folded)?
  /// Same answer as `fold(text, options).utf8.starts(with: foldedNeedle.utf8)`, but on text
  /// of stable base characters it folds only as much of `text` as the needle needs.
  ///
  /// ```swift
  /// TextFolding.foldedHasPrefix("Ĳssel Café", "ijs", [.caseInsensitive])   // true
  /// ```
  package static func foldedHasPrefix(_ text: String, _ foldedNeedle: String, _ options: ComparisonOptions) -> Bool {
    if let answer = streamCompare(text, foldedNeedle, options, wholeText: false) { return answer }
    return fold(text, options).utf8.starts(with: foldedNeedle.utf8)
  }

  /// Is the fold of `text` equal (byte for byte) to `foldedNeedle`, which is already folded?
  /// Same answer as `fold(text, options) == foldedNeedle` by code points, without building
  /// the folded text when it is made of stable base characters.
  ///
  /// ```swift
  /// TextFolding.foldedEquals("ZÜRICH", "zurich", [.caseInsensitive, .diacriticInsensitive])   // true
  /// ```
  package static func foldedEquals(_ text: String, _ foldedNeedle: String, _ options: ComparisonOptions) -> Bool {
    if let answer = streamCompare(text, foldedNeedle, options, wholeText: true) { return answer }
    return fold(text, options).utf8.elementsEqual(foldedNeedle.utf8)
  }

  /// True when every byte is ASCII.
  ///
  /// ```swift
  /// TextFolding.isASCII("abc")   // true
  /// ```
  @inline(__always)
  package static func isASCII(_ text: String) -> Bool {
    if let r = text.utf8.withContiguousStorageIfAvailable({ asciiBytes($0) }) { return r }
    var text = text
    return text.withUTF8 { asciiBytes($0) }
  }

  @inline(__always)
  static func asciiBytes(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    var acc: UInt8 = 0
    for b in buffer { acc |= b }
    return acc < 0x80
  }

  /// Foundation's fold followed by NFC: the definition every fast path must reproduce.
  static func referenceFold(_ text: String, _ options: ComparisonOptions) -> String {
    var foundation: String.CompareOptions = []
    if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
    if foundation.isEmpty { return text }
    let folded = text.folding(options: foundation, locale: nil)
    // Foundation's folding leaves some compatibility forms; NFC keeps results comparable.
    return folded.precomposedStringWithCanonicalMapping
  }

  static func asciiLowercased(_ text: String) -> String {
    var text = text
    let needsWork = text.withUTF8 { $0.contains { $0 >= 0x41 && $0 <= 0x5A } }
    if !needsWork { return text }
    return String(unsafeUninitializedCapacity: text.utf8.count) { out in
      var i = 0
      for b in text.utf8 {
        out[i] = (b >= 0x41 && b <= 0x5A) ? b + 0x20 : b
        i += 1
      }
      return i
    }
  }

  /// Compares the fold of `text` with `needle` piece by piece (one table entry per scalar).
  /// `wholeText` asks for equality, otherwise for a prefix. Nil when the table cannot decide
  /// (a scalar that must go through Foundation lies where it could change the answer).
  ///
  /// Why it is exact: on stable base characters the fold is the concatenation of per-scalar
  /// folds, and a stable scalar never changes how what precedes it folds. So once the bytes
  /// compared so far come from stable scalars *and* the scalar after them is stable too (or
  /// the text ends), those bytes are final, whatever follows.
  static func streamCompare(_ text: String, _ needle: String, _ options: ComparisonOptions, wholeText: Bool) -> Bool? {
    guard let table = FoldTable.table(for: options) else {
      return wholeText ? text.utf8.elementsEqual(needle.utf8) : text.utf8.starts(with: needle.utf8)
    }
    var text = text
    var needle = needle
    return text.withUTF8 { t in
      needle.withUTF8 { n in table.compare(t, n, wholeText: wholeText) }
    }
  }
}
