/// ANSI styling for REPL output; every method is the identity when colors are off.
///
/// ```swift
/// let style = REPLStyle(colors: true)
/// print(style.bold("venues"))   // "\u{1B}[1mvenues\u{1B}[0m"
/// ```
struct REPLStyle: Sendable {
  /// Whether ANSI escapes are emitted.
  var colors: Bool

  /// Bold text (headers).
  func bold(_ s: String) -> String { wrap(s, "1") }
  /// Dimmed text (NULL cells, footers, hints).
  func dim(_ s: String) -> String { wrap(s, "2") }
  /// Red text (errors).
  func red(_ s: String) -> String { wrap(s, "31") }
  /// Green text (agreement).
  func green(_ s: String) -> String { wrap(s, "32") }
  /// Cyan text (SQL, prompts).
  func cyan(_ s: String) -> String { wrap(s, "36") }
  /// Yellow text (warnings).
  func yellow(_ s: String) -> String { wrap(s, "33") }

  private func wrap(_ s: String, _ code: String) -> String {
    colors && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
  }
}

/// Terminal cell widths of text, for aligning tables and placing the cursor.
///
/// ```swift
/// TextWidth.of("東京")   // 4
/// TextWidth.of("café")   // 4
/// ```
enum TextWidth {
  /// Cells taken by `s` (escape sequences are not expected here).
  static func of(_ s: String) -> Int {
    var n = 0
    for ch in s { n += of(ch) }
    return n
  }

  /// Cells taken by one character: 0 for controls, 2 for East Asian wide and emoji, else 1.
  static func of(_ ch: Character) -> Int {
    guard let scalar = ch.unicodeScalars.first else { return 0 }
    if scalar.value < 0x20 || scalar.value == 0x7F { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// `s` cut to at most `width` cells, ending in "…" when something was cut.
  ///
  /// ```swift
  /// TextWidth.truncate("Bubble tea house", to: 8)   // "Bubble …"
  /// ```
  static func truncate(_ s: String, to width: Int) -> String {
    guard of(s) > width else { return s }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var out = ""
    var used = 0
    for ch in s {
      let w = of(ch)
      if used + w > width - 1 { break }
      out.append(ch)
      used += w
    }
    return out + "…"
  }

  /// `s` padded with spaces to `width` cells, on the right (or on the left when `right`).
  static func pad(_ s: String, to width: Int, alignRight: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - of(s)))
    return alignRight ? fill + s : s + fill
  }
}
