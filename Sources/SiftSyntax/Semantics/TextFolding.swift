import Foundation

/// String folding for the `[c]` and `[d]` comparison options, shared by in-memory evaluation
/// and the SQL functions Sift registers, so both give the same answers.
///
/// `[c]` is full Unicode case folding (`ß` folds to `ss`, `Σ`/`σ`/`ς` agree); `[d]` removes
/// diacritics (`é` → `e`, `ñ` → `n`, `ü` → `u`). `[n]` and `[l]` do not change the text.
///
/// ```swift
/// TextFolding.fold("Crème BRÛLÉE", [.caseInsensitive, .diacriticInsensitive])   // "creme brulee"
/// ```
public enum TextFolding {
  /// Folds `text` as the options ask. ASCII text takes a fast path.
  public static func fold(_ text: String, _ options: ComparisonOptions) -> String {
    let c = options.contains(.caseInsensitive)
    let d = options.contains(.diacriticInsensitive)
    if !c && !d { return text }
    if isASCII(text) {
      return c ? asciiLowercased(text) : text
    }
    var foundation: String.CompareOptions = []
    if c { foundation.insert(.caseInsensitive) }
    if d { foundation.insert(.diacriticInsensitive) }
    let folded = text.folding(options: foundation, locale: nil)
    // Foundation's folding leaves some compatibility forms; NFC keeps results comparable.
    return folded.precomposedStringWithCanonicalMapping
  }

  /// True when every byte is ASCII.
  @inline(__always)
  public static func isASCII(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { buffer in
      var acc: UInt8 = 0
      for b in buffer { acc |= b }
      return acc < 0x80
    }
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
}
