import Foundation
import SiftSyntax

/// The `[c]`/`[d]`/`[cd]` folding of `TextFolding.fold` as data for PostgreSQL, built once
/// per process from `TextFolding.fold` itself, so the database folds as memory does on the
/// same machine.
///
/// The model (what `TextFolding.fold` does, as Foundation's folding is built):
/// 1. `[d]` drops combining marks by position: every mark after a *Latin/Greek/Cyrillic base*
///    (a non-mark whose canonical decomposition starts below U+0510), and a first mark of
///    U+0300–U+050F after any other character but the few after which marks stay (probed:
///    `keepBases`). Characters not probed (ideographs, private use, unassigned code points,
///    caseless supplementary letters) are such other characters. A mark that starts the text
///    stays.
/// 2. Every remaining scalar is replaced by its fold alone (`É` → `é` under `[c]`, `ǻ` → `a`
///    under `[d]`, `ß` → `ss`); marks under `[c]` by what they leave behind a letter.
/// 3. The result is NFC.
/// PostgreSQL runs the same steps with `regexp_replace`, `translate`, `replace` and
/// `normalize(…, NFC)`; `PostgresFoldingTests` checks model and server against
/// `TextFolding.fold` over every assigned scalar, base + mark pairs and random strings.
/// Known exceptions (Foundation quirks, documented in Grammar/notes/postgres.md): Hangul
/// syllable + trailing jamo (Foundation's NFC does not compose them), U+0345 among other marks,
/// marks after conjoining jamo.
///
/// ```swift
/// PostgresFoldingTable.table([.caseInsensitive]).apply("Straße")   // "strasse"
/// ```
struct PostgresFoldingTable: Sendable {
  /// Scalars that fold to nothing (step 2).
  var deleted: [UInt32] = []
  /// Scalars that fold to one other scalar, by source scalar.
  var single: [(from: UInt32, to: UInt32)] = []
  /// Scalars that fold to several scalars, by source scalar.
  var multi: [(from: UInt32, to: String)] = []
  /// Whether step 1 applies (`[d]`).
  var dropsMarks = false
  /// Step 1: bases after which every mark goes (Latin, Greek, Cyrillic, and whatever folds
  /// to them), ascending.
  var dropAllBases: [UInt32] = []
  /// Step 1: probed bases after which no mark goes (Foundation keeps both of two U+0301
  /// after them), ascending. After any other non-mark that is not a drop-all base, a first
  /// mark below U+0510 goes.
  var keepBases: [UInt32] = []

  static let caseFold = PostgresFoldingTable(build: [.caseInsensitive])
  static let diacriticFold = PostgresFoldingTable(build: [.diacriticInsensitive])
  static let bothFold = PostgresFoldingTable(build: [.caseInsensitive, .diacriticInsensitive])

  /// The table for `[c]`, `[d]` or both (an empty table for no folding option).
  static func table(_ options: ComparisonOptions) -> PostgresFoldingTable {
    let c = options.contains(.caseInsensitive), d = options.contains(.diacriticInsensitive)
    if c { return d ? bothFold : caseFold }
    return d ? diacriticFold : PostgresFoldingTable()
  }

  /// The scalars whose fold is computed: every assigned scalar except NUL, the line feed used
  /// to separate them, private use, surrogates, and letters of supplementary planes without
  /// case (ideographs, historic scripts), which no folding option touches.
  static let candidates: [Unicode.Scalar] = {
    var out: [Unicode.Scalar] = []
    for v in UInt32(1)...0x10FFFF where v != 0x0A {
      guard let s = Unicode.Scalar(v) else { continue }
      let p = s.properties
      switch p.generalCategory {
      case .unassigned, .privateUse, .surrogate: continue
      case .otherLetter where v > 0xFFFF: continue
      default: break
      }
      if p.isUnifiedIdeograph { continue }
      out.append(s)
    }
    return out
  }()

  /// Scalars Foundation's `[d]` folding treats as marks ("non-base" characters, which include
  /// `U+200C`, halfwidth sound marks, emoji modifiers and tags besides the combining marks):
  /// those it drops after the letter `a`.
  static let nonBase: Set<UInt32> = {
    var text = String.UnicodeScalarView()
    for s in candidates {
      text.append("a")
      text.append(s)
      text.append("\n")
    }
    let out = lines(TextFolding.fold(String(text), [.diacriticInsensitive]))
    var set: Set<UInt32> = []
    guard out.count == candidates.count else { return set }
    for (i, s) in candidates.enumerated() where out[i] == ["a"] { set.insert(s.value) }
    return set
  }()

  /// Scalars that combine with what precedes them.
  static func isCombining(_ s: Unicode.Scalar) -> Bool { nonBase.contains(s.value) }

  /// Combining scalars, ascending.
  static let marks: [UInt32] = nonBase.sorted()

  /// Each "\n"-terminated line as scalars.
  static func lines(_ text: String) -> [[Unicode.Scalar]] {
    var out: [[Unicode.Scalar]] = []
    var cur: [Unicode.Scalar] = []
    for s in text.unicodeScalars {
      if s == "\n" {
        out.append(cur)
        cur.removeAll(keepingCapacity: true)
      } else {
        cur.append(s)
      }
    }
    return out
  }

  init() {}

  init(build options: ComparisonOptions) {
    dropsMarks = options.contains(.diacriticInsensitive)
    let all = PostgresFoldingTable.candidates
    // Under [c] marks are folded behind a letter (then the letter is removed from the
    // decomposition); under [d] one by one, since a mark after the line separator would go.
    var text = String.UnicodeScalarView()
    for s in all {
      if PostgresFoldingTable.isCombining(s) { text.append("a") }
      text.append(s)
      text.append("\n")
    }
    let folded = TextFolding.fold(String(text), options)
    let out = PostgresFoldingTable.lines(folded)
    let nfd = PostgresFoldingTable.lines(folded.decomposedStringWithCanonicalMapping)
    guard out.count == all.count, nfd.count == all.count else { return }
    if dropsMarks { classifyBases(options) }
    for (i, s) in all.enumerated() {
      var f = out[i][...]
      if PostgresFoldingTable.isCombining(s) {
        if dropsMarks {
          // Marks that stay under [d] stay as written (Foundation folds only bases).
          continue
        } else {
          f = nfd[i][...]
          guard f.first == "a" else { continue }
          f = f.dropFirst()
        }
      }
      if f.count == 1, f.first == s { continue }
      switch f.count {
      case 0: deleted.append(s.value)
      case 1: single.append((s.value, f[f.startIndex].value))
      default:
        var v = String.UnicodeScalarView()
        v.append(contentsOf: f)
        multi.append((s.value, String(v)))
      }
    }
  }

  /// Sorts the bases by how many of two `U+0301` after them survive the fold.
  mutating func classifyBases(_ options: ComparisonOptions) {
    let bases = PostgresFoldingTable.candidates.filter { !PostgresFoldingTable.isCombining($0) } + ["\n"]
    func batch(_ suffix: String) -> [[Unicode.Scalar]] {
      var text = String.UnicodeScalarView()
      for b in bases {
        text.append(b == "\n" ? " " : b)  // the line feed is probed as a space (same class)
        text.append(contentsOf: suffix.unicodeScalars)
        text.append("\n")
      }
      return PostgresFoldingTable.lines(TextFolding.fold(String(text), options).decomposedStringWithCanonicalMapping)
    }
    let plain = batch(""), marked = batch("\u{301}\u{301}")
    guard plain.count == bases.count, marked.count == bases.count else { return }
    func trailing(_ x: [Unicode.Scalar]) -> Int { x.reversed().prefix { $0 == "\u{301}" }.count }
    for (i, b) in bases.enumerated() {
      switch trailing(marked[i]) - trailing(plain[i]) {
      case 0: dropAllBases.append(b.value)
      case 1: break  // a first mark goes: the default for every non-mark
      default: keepBases.append(b.value)
      }
    }
    dropAllBases.sort()
    keepBases.sort()
  }

  /// What the model gives for `text`: the Swift twin of the SQL function, for tests.
  ///
  /// ```swift
  /// PostgresFoldingTable.table([.caseInsensitive]).apply("Straße")   // "strasse"
  /// ```
  func apply(_ text: String) -> String {
    apply(text, map: scalarMap(), bases: (Set(dropAllBases), Set(keepBases)))
  }

  /// Every entry as scalar → replacement text.
  func scalarMap() -> [UInt32: String] {
    var map: [UInt32: String] = [:]
    for v in deleted { map[v] = "" }
    for (f, t) in single { map[f] = Unicode.Scalar(t).map { String(Character($0)) } ?? "" }
    for (f, t) in multi { map[f] = t }
    return map
  }

  /// `apply(_:)` with a map from `scalarMap()` built once.
  func apply(_ text: String, map: [UInt32: String], bases: (Set<UInt32>, Set<UInt32>)) -> String {
    if text.unicodeScalars.allSatisfy(\.isASCII) {
      return map["A".unicodeScalars.first?.value ?? 0] == nil ? text : text.lowercased()
    }
    var scalars = Array(text.unicodeScalars)
    if dropsMarks { scalars = dropMarks(scalars, bases.0, bases.1) }
    var out = String.UnicodeScalarView()
    for s in scalars {
      if let m = map[s.value] { out.append(contentsOf: m.unicodeScalars) } else { out.append(s) }
    }
    return PostgresFoldingTable.composeHangul(String(out).precomposedStringWithCanonicalMapping)
  }

  /// Foundation's NFC leaves a Hangul syllable followed by a conjoining jamo apart; Unicode's
  /// (and PostgreSQL's `normalize`) composes them. The model follows PostgreSQL.
  static func composeHangul(_ text: String) -> String {
    var out: [Unicode.Scalar] = []
    for s in text.unicodeScalars {
      if let last = out.last {
        let l = last.value, v = s.value
        if (0x1100...0x1112).contains(l), (0x1161...0x1175).contains(v),
          let c = Unicode.Scalar(0xAC00 + ((l - 0x1100) * 21 + (v - 0x1161)) * 28)
        {
          out[out.count - 1] = c
          continue
        }
        if (0xAC00...0xD7A3).contains(l), (l - 0xAC00) % 28 == 0, (0x11A8...0x11C2).contains(v),
          let c = Unicode.Scalar(l + (v - 0x11A7))
        {
          out[out.count - 1] = c
          continue
        }
      }
      out.append(s)
    }
    var v = String.UnicodeScalarView()
    v.append(contentsOf: out)
    return String(v)
  }

  /// Step 1, as the two `regexp_replace` calls of the SQL function do it: every mark after a
  /// drop-all base (or after a low mark that starts the text) goes; then one low mark after
  /// any other non-mark but a keep base (or after a high mark that starts the text).
  func dropMarks(_ s: [Unicode.Scalar], _ all: Set<UInt32>, _ keep: Set<UInt32>) -> [Unicode.Scalar] {
    func isMark(_ x: Unicode.Scalar) -> Bool { PostgresFoldingTable.nonBase.contains(x.value) }
    func isLowMark(_ x: Unicode.Scalar) -> Bool { x.value < 0x510 && isMark(x) }
    // '(^[LOWMARK]|[DROPALL])[MARK]+' → '\1'
    var a: [Unicode.Scalar] = []
    var i = 0
    while i < s.count {
      let c = s[i]
      a.append(c)
      i += 1
      if (i == 1 && isLowMark(c)) || all.contains(c.value) { while i < s.count, isMark(s[i]) { i += 1 } }
    }
    // '(^[HIGHMARK]|[^MARK KEEP])[LOWMARK]' → '\1'
    var b: [Unicode.Scalar] = []
    i = 0
    while i < a.count {
      let c = a[i]
      b.append(c)
      i += 1
      if (i == 1 && isMark(c) && !isLowMark(c)) || (!isMark(c) && !keep.contains(c.value)), i < a.count, isLowMark(a[i])
      {
        i += 1
      }
    }
    return b
  }
}
