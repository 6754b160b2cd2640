import Foundation
import Testing

@testable import SiftSemantics
@testable import SiftSyntax

/// The table-based folding must give exactly Foundation's answer (`referenceFold`): compared
/// byte for byte (String `==` would hide differences behind canonical equivalence).
struct TextFoldingTests {
  static let optionSets: [ComparisonOptions] = [
    [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
  ]

  static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

  static func mismatch(_ text: String, _ options: ComparisonOptions) -> String? {
    let fast = TextFolding.fold(text, options)
    let reference = TextFolding.referenceFold(text, options)
    // The byte-level fold (columns of text) appends the same bytes after what `out` holds.
    var out: [UInt8] = Array("kept ".utf8)
    var utf8 = text
    utf8.withUTF8 { TextFolding.fold(utf8: $0, options, into: &out) }
    let appended = out.elementsEqual(Array("kept ".utf8) + Array(reference.utf8))
    if same(fast, reference) && appended { return nil }
    let hex = text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    let bytes = String(decoding: out.dropFirst(5), as: UTF8.self).debugDescription
    return "[\(hex)] \(options): \(fast.debugDescription), bytes \(bytes) != \(reference.debugDescription)"
  }

  /// Every scalar up to U+FFFF, alone and between neighbours that fold.
  @Test(arguments: optionSets)
  func everyBMPScalar(options: ComparisonOptions) {
    var failures: [String] = []
    for v in UInt32(0)...0xFFFF {
      guard let s = Unicode.Scalar(v) else { continue }
      let alone = String(Character(s))
      let inContext = "Ab\u{C9}" + alone + "\u{DF}z" + alone
      for text in [alone, inContext] {
        if let m = TextFoldingTests.mismatch(text, options), failures.count < 20 { failures.append(m) }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  static let specials: [String] = [
    // Combining sequences (decomposed input, several marks, reordering).
    "e\u{301}", "E\u{301}", "Cafe\u{301}", "a\u{308}\u{301}", "A\u{327}\u{301}", "o\u{31B}\u{323}",
    "\u{301}", "\u{301}abc", "x\u{20DD}", "\u{5D0}\u{5B8}", "\u{5E9}\u{5C1}\u{5BC}",
    // ß, ligatures, expansions.
    "Straße", "STRASSE", "ß", "ẞ", "ﬁ", "ﬃ", "ﬆ", "ﬓ", "ŉ", "ΐ", "ǰ", "ᾳ", "ᾼ", "Ὰͅ",
    // Greek sigma in every position.
    "ΣΊΣΥΦΟΣ", "σίσυφος", "ὀδός", "ΟΔΟΣ Σ", "ς", "Σ",
    // Turkish and other I's.
    "İstanbul", "ISTANBUL", "ı", "I\u{307}", "i\u{307}", "İ\u{301}",
    // Compatibility and singleton forms.
    "\u{212A}elvin", "\u{212B}ngström", "\u{2126}", "\u{FB01}\u{301}", "ǅ", "Ǆ", "ǆ",
    // Hangul syllables and conjoining jamo.
    "가", "각", "\u{1100}\u{1161}", "\u{1100}\u{1161}\u{11A8}", "가\u{11A8}", "\u{1161}",
    // Scripts with spacing marks, ZWJ/ZWNJ, outside the BMP, emoji sequences.
    "க்ஷ", "\u{D15}\u{D3E}", "\u{DD9}\u{DCF}", "a\u{200D}b", "a\u{200C}b", "𝐀𝐁", "𐐀𐐨", "👍🏽", "👨‍👩‍👧",
    "Crème BRÛLÉE Café", "Zürich", "ÅNGSTRÖM", "Øresund", "Łódź", "Dvořák", "Ærø", "Þór",
    "", "ASCII only", "mixed ASCII and ü",
  ]

  @Test(arguments: specials)
  func specialStrings(text: String) {
    for options in TextFoldingTests.optionSets {
      #expect(TextFoldingTests.mismatch(text, options) == nil)
    }
  }

  @Test(
    arguments: [
      ("Straße", ComparisonOptions.caseInsensitive, "strasse"),
      ("Crème BRÛLÉE", [.caseInsensitive, .diacriticInsensitive], "creme brulee"),
      ("Zürich", .diacriticInsensitive, "Zurich"),
    ] as [(String, ComparisonOptions, String)])
  func knownFolds(text: String, options: ComparisonOptions, expected: String) {
    #expect(TextFoldingTests.same(TextFolding.fold(text, options), expected))
  }

  /// Scalars random strings are drawn from: every kind the fast path must accept or refuse.
  static let pool: [Unicode.Scalar] = {
    var out: [Unicode.Scalar] = []
    let ranges: [ClosedRange<UInt32>] = [
      0x41...0x5A, 0x61...0x7A, 0x20...0x20, 0xC0...0x17F, 0x300...0x36F, 0x370...0x3FF,
      0x400...0x45F, 0x1E00...0x1EFF, 0x1F00...0x1FFF, 0x1100...0x1112, 0x1161...0x1175,
      0x11A8...0x11C2, 0xAC00...0xAC20, 0xFB00...0xFB06, 0x200C...0x200D, 0x130...0x131,
      0xDF...0xDF, 0x5D0...0x5EA, 0x5B0...0x5C7, 0xB95...0xBCD, 0x1F44D...0x1F44F, 0x1F3FB...0x1F3FF,
      0x10400...0x10428, 0x212A...0x212B,
    ]
    for r in ranges {
      for v in r { if let s = Unicode.Scalar(v) { out.append(s) } }
    }
    return out
  }()

  static func randomString(_ rng: inout SeededRandom) -> String {
    var s = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
      // Mostly letters, so stable runs are common and marks land in every position.
      if Int.random(in: 0..<3, using: &rng) == 0 {
        s.append(pool[Int.random(in: 0..<pool.count, using: &rng)])
      } else {
        s.append(Unicode.Scalar(UInt32.random(in: 0xC0...0x24F, using: &rng)) ?? "x")
      }
    }
    return String(s)
  }

  @Test(arguments: optionSets)
  func randomStrings(options: ComparisonOptions) {
    var rng = SeededRandom(seed: 0x5EED_F01D)
    var failures: [String] = []
    for _ in 0..<4000 {
      let text = TextFoldingTests.randomString(&rng)
      if let m = TextFoldingTests.mismatch(text, options), failures.count < 20 { failures.append(m) }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  /// `foldedHasPrefix` and `foldedEquals` agree with folding the whole text and comparing.
  @Test(arguments: optionSets)
  func streamingComparisons(options: ComparisonOptions) {
    var rng = SeededRandom(seed: 0xC0FFEE)
    var failures: [String] = []
    for _ in 0..<4000 {
      let text = TextFoldingTests.randomString(&rng)
      let folded = TextFolding.referenceFold(text, options)
      // Needles: prefixes of the true fold (by scalars), the whole fold, and unrelated text.
      let scalars = Array(folded.unicodeScalars)
      var needles = [folded, TextFolding.referenceFold(TextFoldingTests.randomString(&rng), options)]
      let cut = Int.random(in: 0...scalars.count, using: &rng)
      needles.append(String(String.UnicodeScalarView(scalars[0..<cut])))
      needles.append(String(String.UnicodeScalarView(scalars[0..<cut])) + "q")
      for needle in needles {
        let prefix = folded.utf8.starts(with: needle.utf8)
        let equal = folded.utf8.elementsEqual(needle.utf8)
        if TextFolding.foldedHasPrefix(text, needle, options) != prefix
          || TextFolding.foldedEquals(text, needle, options) != equal,
          failures.count < 20
        {
          failures.append("\(text.debugDescription) vs \(needle.debugDescription) \(options)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  /// Columns lower-case ASCII capitals over a whole folded column at once (`Column.folded`),
  /// folded rows included: no scalar's `[c]` fold may hold one.
  @Test(arguments: [[.caseInsensitive], [.caseInsensitive, .diacriticInsensitive]] as [ComparisonOptions])
  func caseFoldsHoldNoASCIICapital(options: ComparisonOptions) {
    var capitals: [String] = []
    for v in UInt32(0x80)...0xFFFF {
      guard let s = Unicode.Scalar(v) else { continue }
      let folded = TextFolding.fold(String(Character(s)), options)
      if folded.utf8.contains(where: { $0 &- 0x41 < 26 }) { capitals.append(String(v, radix: 16)) }
    }
    #expect(capitals.isEmpty, "\(capitals)")
  }

  @Test func noOptionsLeavesTextAlone() {
    #expect(TextFolding.fold("ÀB", []) == "ÀB")
    #expect(TextFolding.fold("ÀB", [.normalized, .localeSensitive]) == "ÀB")
    #expect(TextFolding.foldedHasPrefix("ÀB", "À", []))
    #expect(!TextFolding.foldedEquals("ÀB", "àb", []))
  }
}
