import Foundation

@testable import SiftSemantics
@testable import SiftSyntax

/// Writes `Sources/SiftSemantics/Text/TextFoldingData.swift`: the per-scalar folds that
/// `FoldTable` reads at first use, computed here from Foundation itself (the definition,
/// `TextFolding.referenceFold`) and Swift's Unicode data. Run it after a toolchain or
/// Foundation update:
///
/// ```sh
/// SIFT_RECORD_FOLDING=1 swift test --filter TextFoldingDataTests
/// ```
///
/// Without the switch, `TextFoldingDataTests` checks that the committed file is exactly what
/// this generator produces now, so drift fails the tests.
enum FoldTableGenerator {
  /// The three option sets that fold, in the order of `TextFoldingData`'s properties.
  static let optionSets: [(name: String, label: String, options: ComparisonOptions)] = [
    ("caseFold", "[c]", [.caseInsensitive]),
    ("diacriticFold", "[d]", [.diacriticInsensitive]),
    ("bothFold", "[cd]", [.caseInsensitive, .diacriticInsensitive]),
  ]

  /// The table for `options` as `FoldTable` lays it out: `entries[v]` is 0 when scalar `v` has
  /// no entry, else `(offset << 8) | length` of its fold's UTF-8 bytes in `bytes`, folds
  /// appended in scalar order.
  ///
  /// A scalar gets an entry only when it is a *stable base character*: folding a string made
  /// of such scalars is the concatenation of their single-scalar folds. Foundation folds a base
  /// character together with the combining marks that follow it, and NFC composes across
  /// neighbours, so a stable scalar must (by Swift's Unicode data) be assigned, have combining
  /// class 0, not be a mark, not be a conjoining jamo vowel or trailing consonant, and fold to
  /// a non-empty text whose first scalar is again such a character; and (by probing
  /// Foundation) fold the same between two neighbours that change under folding.
  static func table(_ options: ComparisonOptions) -> (entries: [UInt32], bytes: [UInt8]) {
    var candidates: [Unicode.Scalar] = []
    for v in UInt32(0x80)...0xFFFF {
      if let s = Unicode.Scalar(v), isStableBase(s) { candidates.append(s) }
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
    let raw = lines(foundationFold(alone, options, normalize: false))
    let folded = lines(foundationFold(alone, options, normalize: true))
    let neighbour = "\u{E1}\u{C9}"  // "áÉ": both change under [c] and under [d]
    let probe = lines(foundationFold(batch(neighbour, neighbour), options, normalize: true))
    let side = Array(TextFolding.referenceFold(neighbour, options).utf8)

    var entries = [UInt32](repeating: 0, count: 0x10000)
    var bytes: [UInt8] = []
    if raw.count == candidates.count && folded.count == candidates.count && probe.count == candidates.count {
      for (i, s) in candidates.enumerated() {
        let r = raw[i], f = folded[i]
        guard !r.isEmpty, !f.isEmpty, f.count < 256, startsStable(r), startsStable(f),
          probe[i] == side + f + side
        else { continue }
        entries[Int(s.value)] = UInt32(bytes.count) << 8 | UInt32(f.count)
        bytes += f
      }
    }
    return (entries, bytes)
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

  // MARK: Encoding

  /// The table in `FoldTable.decodeData`'s text form: scalars U+0080…U+FFFF in order, as
  /// space-separated tokens (hex numbers): `-N` N scalars without an entry, `=N` N scalars that
  /// fold to themselves, `a,b,…` one scalar that folds to the scalars a, b, ….
  /// Nil when the bytes are not valid UTF-8 per entry.
  static func encode(_ entries: [UInt32], _ bytes: [UInt8]) -> String? {
    var tokens: [String] = []
    var run: (kind: Character, count: Int)?
    func flush() {
      if let r = run { tokens.append("\(r.kind)\(String(r.count, radix: 16))") }
      run = nil
    }
    func extend(_ kind: Character) {
      if let r = run, r.kind == kind {
        run = (kind, r.count + 1)
      } else {
        flush()
        run = (kind, 1)
      }
    }
    for v in 0x80...0xFFFF {
      let entry = entries[v]
      if entry == 0 {
        extend("-")
        continue
      }
      let start = Int(entry >> 8), length = Int(entry & 0xFF)
      guard start + length <= bytes.count, let scalar = Unicode.Scalar(UInt32(v)) else { return nil }
      let fold = Array(bytes[start..<start + length])
      if fold == Array(String(Character(scalar)).utf8) {
        extend("=")
        continue
      }
      guard let text = String(validating: fold, as: UTF8.self) else { return nil }
      flush()
      tokens.append(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ","))
    }
    flush()
    return tokens.joined(separator: " ")
  }

  /// `text` cut at spaces into lines of at most `width` characters.
  static func wrap(_ text: String, width: Int = 100) -> [String] {
    var lines: [String] = []
    var line = ""
    for token in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + token.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(token) : " " + token
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The whole `TextFoldingData.swift` source for these tables (in `optionSets` order).
  static func source(_ tables: [(entries: [UInt32], bytes: [UInt8])]) -> String? {
    var out = """
      // GENERATED by Tests/SiftSyntaxTests/TextFoldingGenerator.swift: do not edit. Regenerate with
      //   SIFT_RECORD_FOLDING=1 swift test --filter TextFoldingDataTests
      // (TextFoldingDataTests fails when this file differs from what Foundation and Swift's
      // Unicode data give now.)

      /// Per-scalar folds of the Basic Multilingual Plane for the three option sets that fold,
      /// computed ahead of time from Foundation (`TextFolding.referenceFold`) and read by
      /// `FoldTable` at first use. Format (hex numbers, space-separated tokens, scalars
      /// U+0080…U+FFFF in order): `-N` N scalars without an entry (text containing one goes to
      /// Foundation), `=N` N stable scalars that fold to themselves, `a,b,…` one stable scalar
      /// that folds to the scalars a, b, ….
      ///
      /// ```swift
      /// FoldTable.decodeData(TextFoldingData.caseFold)   // entries and bytes of the [c] table
      /// ```
      enum TextFoldingData {

      """
    for (i, set) in optionSets.enumerated() {
      guard i < tables.count, let text = encode(tables[i].entries, tables[i].bytes) else { return nil }
      out += "  /// The `\(set.label)` table.\n"
      out += "  static let \(set.name) = \"\"\"\n"
      for line in wrap(text) { out += "    \(line)\n" }
      out += "    \"\"\"\n"
      if i + 1 < optionSets.count { out += "\n" }
    }
    out += "}\n"
    return out
  }

  /// Where the generated file lives in this checkout.
  static let dataFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/SiftSemantics/Text/TextFoldingData.swift")
}
