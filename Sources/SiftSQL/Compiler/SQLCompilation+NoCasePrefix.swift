import SiftSyntax

/// `BEGINSWITH[c]` of a constant on SQLite, served by an index the user already has on the
/// column with `COLLATE NOCASE` (`CREATE INDEX … ON venue (name COLLATE NOCASE)`, or an index
/// on a column declared `COLLATE NOCASE`).
///
/// The exact test stays `sift_fold(x, 1) >= folded AND sift_fold(x, 1) < next` (Sift's full
/// Unicode case fold); in front of it goes a range SQLite's NOCASE index answers,
/// `x >= folded COLLATE NOCASE AND x < next COLLATE NOCASE`, which must keep every row the
/// exact test keeps. NOCASE folds only ASCII `A`–`Z`, so that holds only when the folded
/// needle cannot come, even in part, from a non-ASCII scalar:
/// - the needle folds to ASCII without NUL (NOCASE stops comparing at a NUL byte);
/// - it contains none of the all-ASCII folds of non-ASCII scalars (`asciiFoldsOfNonASCII`:
///   `KELVIN SIGN` folds to `k`, `ſ` to `s`, `ﬁ` to `fi`, U+037E to `;`), and does not end with
///   the start of one (`f`, the start of `ﬀ`'s `ff`) or of the ASCII that leads a fold going
///   on with non-ASCII (`asciiLeadsOfNonASCIIFolds`: `İ` folds to `i` + U+0307, `ẚ` to `aʾ`).
/// Then a text whose fold starts with the needle starts with ASCII characters that fold to it:
/// the first non-ASCII scalar whose fold reached into the prefix would have put a whole
/// all-ASCII fold inside it, or the start of one at its end (per scalar, the fold of text is
/// the NFC of the folds' concatenation, and composing only ever yields non-ASCII). So its
/// NOCASE form starts with the needle: it is in the range.
///
/// Only for a column with TEXT affinity (a blob is not text, and sorts after every text), and
/// not when the table has an expression index (it may be `sift_fold`'s, which serves the exact
/// test alone faster: `SQLEntityRef.caselessIndexedColumns`).
extension SQLCompilation {
  /// The `[c]` folds (`TextFolding.fold`) of non-ASCII scalars that are all ASCII, and the
  /// ASCII runs leading the ones that are not. Pinned by
  /// `NoCasePrefixTests.foldedFromNonASCIIIsPinned`, which recomputes both over every assigned
  /// scalar, so the rule cannot drift from the fold.
  static let asciiFoldsOfNonASCII: Set<String> = ["`", ";", "ff", "ffi", "ffl", "fi", "fl", "k", "s", "ss", "st"]
  static let asciiLeadsOfNonASCIIFolds: Set<String> = ["a", "i"]

  /// True when a text whose fold starts with `needle` (ASCII) must start with it as ASCII.
  static func onlyASCIIFoldsTo(_ needle: String) -> Bool {
    for w in asciiFoldsOfNonASCII where needle.contains(w) { return false }
    for w in asciiFoldsOfNonASCII.union(asciiLeadsOfNonASCIIFolds) {
      for n in 1...w.count where needle.hasSuffix(w.prefix(n)) { return false }
    }
    return true
  }

  /// `exact` (the folded range), with the NOCASE range in front when `x` is a root column
  /// leading a NOCASE index and the needle allows it (see above); `exact` otherwise.
  func caselessIndexPrefilter(_ x: SQLExpr, foldedNeedle: String, _ o: TextFoldCode, exact: SQLExpr) -> SQLExpr {
    guard o.caseless, o.diacriticsOnly.isEmpty, !root.caselessIndexedColumns.isEmpty, x.sql.bindingCount == 0,
      root.caselessIndexedColumns.contains(where: { $0.elementsEqual(x.sql.utf8) }),
      let bounds = Self.caselessRange(foldedNeedle)
    else { return exact }
    let lower = SQLFragment(binding: .text(bounds.lower)), upper = SQLFragment(binding: .text(bounds.upper))
    let range = condition(SQLFragment("(\(x) >= \(lower) COLLATE NOCASE AND \(x) < \(upper) COLLATE NOCASE)"))
    return and([range, exact])
  }

  /// The NOCASE bounds for a folded needle: `lower` is the needle with `A`–`Z` lower-cased (as
  /// NOCASE compares), `upper` the same with its last character incremented, which NOCASE
  /// orders after every text starting with `lower` (an increment landing on `A`–`Z` is read as
  /// the lower-case letter, later still). Nil when the rule above does not hold.
  static func caselessRange(_ foldedNeedle: String) -> (lower: String, upper: String)? {
    let bytes = Array(foldedNeedle.utf8)
    guard !bytes.isEmpty,
      bytes.allSatisfy({ $0 != 0 && $0 < 0x80 }), onlyASCIIFoldsTo(foldedNeedle)
    else { return nil }
    let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    let lower = String(decoding: lowered, as: UTF8.self)
    guard let upper = SQLText.prefixUpperBound(lower) else { return nil }
    return (lower, upper)
  }
}
