/// Text from a database or a file made safe to print on a terminal: control characters (C0
/// except the ones kept, DEL, and C1 such as U+009B, which some terminals read as CSI) are
/// shown as `\x1B` / `\u{9B}`, so a table or column name cannot move the cursor, change colors
/// or retitle the window.
///
/// ```swift
/// TerminalText.escaped("evil\u{1B}[31mred")   // "evil\\x1B[31mred"
/// ```
enum TerminalText {
  /// `text` with control characters escaped; the scalars in `keeping` (e.g. newline) stay.
  static func escaped(_ text: String, keeping: Set<Unicode.Scalar> = []) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) && !keeping.contains($0) }) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) && !keeping.contains(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{" + hex + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0 controls, DEL and C1 controls.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
