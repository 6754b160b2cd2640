/// Renders a diagnostic as text: a header, the source line with a gutter, and a caret
/// line underlining the range; then notes and fix-its.
///
/// ```swift
/// let text = SiftDiagnosticRenderer().render(diagnostic, in: "name BEGINSWIT 'x'")
/// // error: unknown operator 'BEGINSWIT'
/// //  --> 1:6
/// // 1 | name BEGINSWIT 'x'
/// //   |      ^^^^^^^^^
/// //   = help: did you mean 'BEGINSWITH'?
/// ```
///
/// Columns count `Character`s; East Asian wide characters and emoji take two cells so the
/// caret stays under the right spot; tabs are kept as tabs.
public struct SiftDiagnosticRenderer: Sendable {
  /// Wrap the severity and caret in ANSI colors (for terminals; off by default).
  public var colors: Bool

  /// Creates a renderer.
  public init(colors: Bool = false) { self.colors = colors }

  /// Renders one diagnostic against the source its range points into.
  public func render(_ diagnostic: SiftDiagnostic, in source: String) -> String {
    let location = SiftSourcePosition(offset: diagnostic.range.start, in: source)
    let lineText = SiftDiagnosticRenderer.lineText(containing: diagnostic.range.start, in: source)
    let gutter = String(location.line)
    let pad = String(repeating: " ", count: gutter.count)

    var out = paint(diagnostic.severity.rawValue, diagnostic.severity) + ": " + diagnostic.message
    out += "\n\(pad)--> \(location.line):\(location.column)"
    out += "\n\(gutter) | \(lineText)"

    let prefix = String(lineText.prefix(location.column - 1))
    let endLocation = SiftSourcePosition(offset: diagnostic.range.end, in: source)
    var underlined = 1
    if endLocation.line == location.line, endLocation.column > location.column {
      underlined = endLocation.column - location.column
    } else if endLocation.line > location.line {
      underlined = max(1, lineText.count - (location.column - 1))
    }
    let marked = String(lineText.dropFirst(location.column - 1).prefix(underlined))
    let carets = String(repeating: "^", count: max(1, cellWidth(marked)))
    out += "\n\(pad) | " + indent(for: prefix) + paint(carets, diagnostic.severity)

    for note in diagnostic.notes {
      if let r = note.range {
        let at = SiftSourcePosition(offset: r.start, in: source)
        out += "\n\(pad) = note: \(note.message) (at \(at.line):\(at.column))"
      } else {
        out += "\n\(pad) = note: \(note.message)"
      }
    }
    for fix in diagnostic.fixIts {
      out += "\n\(pad) = help: \(fix.message)"
    }
    return out
  }

  private func paint(_ text: String, _ severity: SiftDiagnostic.Severity) -> String {
    guard colors else { return text }
    let code: String
    switch severity {
    case .error: code = "1;31"
    case .warning: code = "1;33"
    case .note: code = "1;36"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// Whitespace that occupies the same cells as `prefix` (tabs kept).
  private func indent(for prefix: String) -> String {
    var s = ""
    for ch in prefix {
      if ch == "\t" {
        s += "\t"
      } else {
        s += String(repeating: " ", count: SiftDiagnosticRenderer.width(of: ch))
      }
    }
    return s
  }

  private func cellWidth(_ text: String) -> Int {
    text.reduce(0) { $0 + SiftDiagnosticRenderer.width(of: $1) }
  }

  /// Terminal cells a character occupies: 2 for East Asian wide and emoji, else 1.
  static func width(of ch: Character) -> Int {
    guard let scalar = ch.unicodeScalars.first else { return 1 }
    if scalar.properties.isEmojiPresentation { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}

extension SiftDiagnosticRenderer {
  /// The text of the line holding `offset`, split on "\n" bytes (so "\r\n" works), with
  /// carriage returns and other control characters shown as spaces.
  static func lineText(containing offset: Int, in source: String) -> String {
    let bytes = Array(source.utf8)
    let at = max(0, min(offset, bytes.count))
    var start = at
    while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var end = at
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    return String(text.unicodeScalars.map { $0.value < 0x20 && $0 != "\t" ? " " : Character($0) })
  }
}
