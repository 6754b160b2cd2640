/// A key press as the line editor sees it.
enum EditorKey: Sendable, Hashable {
  /// A printable character.
  case character(Character)
  /// Enter / Return.
  case enter
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The Delete key.
  case delete
  /// Arrow keys.
  case left, right, up, down
  /// Word moves (Alt-B/Alt-F, Ctrl-←/Ctrl-→).
  case wordLeft, wordRight
  /// Home / End.
  case home, end
  /// Ctrl plus a letter (lower-case), e.g. `.control("a")` for Ctrl-A.
  case control(Character)
  /// Escape pressed alone, or a sequence the editor does not know.
  case escape
  /// Tab.
  case tab
}

/// Turns terminal input bytes into keys: UTF-8 characters, control keys, and the ANSI escape
/// sequences (CSI `ESC [ … final` and SS3 `ESC O x`) that arrows, Home/End and Delete send.
///
/// ```swift
/// var bytes: [UInt8] = [0x1B, 0x5B, 0x44]   // ESC [ D
/// let key = KeyDecoder.next { bytes.isEmpty ? nil : bytes.removeFirst() }   // .left
/// ```
enum KeyDecoder {
  /// Reads one key using `read`, which returns the next byte or nil at end of input.
  static func next(_ read: () -> UInt8?) -> EditorKey? {
    guard let b = read() else { return nil }
    switch b {
    case 0x0D, 0x0A: return .enter
    case 0x7F, 0x08: return .backspace
    case 0x09: return .tab
    case 0x1B: return escape(read)
    case 0x01...0x1A: return .control(Character(Unicode.Scalar(b + 0x60)))
    case 0x00...0x1F: return .escape
    case 0x20...0x7E: return .character(Character(Unicode.Scalar(b)))
    default: return utf8(lead: b, read)
    }
  }

  private static func escape(_ read: () -> UInt8?) -> EditorKey {
    guard let b = read() else { return .escape }
    switch b {
    case UInt8(ascii: "["): return csi(read)
    case UInt8(ascii: "O"):
      switch read() {
      case UInt8(ascii: "A"): return .up
      case UInt8(ascii: "B"): return .down
      case UInt8(ascii: "C"): return .right
      case UInt8(ascii: "D"): return .left
      case UInt8(ascii: "H"): return .home
      case UInt8(ascii: "F"): return .end
      default: return .escape
      }
    case UInt8(ascii: "b"): return .wordLeft
    case UInt8(ascii: "f"): return .wordRight
    case 0x7F: return .control("w")
    default: return .escape
    }
  }

  /// `ESC [ params final`: parameters are digits and `;`, the final byte is 0x40–0x7E.
  private static func csi(_ read: () -> UInt8?) -> EditorKey {
    var params = ""
    var count = 0
    while let b = read() {
      count += 1
      if count > 16 { return .escape }
      if (0x40...0x7E).contains(b) {
        let modified = params.contains(";5") || params.contains(";3")
        switch b {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return modified ? .wordRight : .right
        case UInt8(ascii: "D"): return modified ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
          switch params {
          case "1", "7": return .home
          case "4", "8": return .end
          case "3": return .delete
          default: return .escape
          }
        default: return .escape
        }
      }
      params.unicodeScalars.append(Unicode.Scalar(b))
    }
    return .escape
  }

  private static func utf8(lead: UInt8, _ read: () -> UInt8?) -> EditorKey {
    let extra: Int
    switch lead {
    case 0xC2...0xDF: extra = 1
    case 0xE0...0xEF: extra = 2
    case 0xF0...0xF4: extra = 3
    default: return .escape
    }
    var bytes = [lead]
    for _ in 0..<extra {
      guard let b = read(), b & 0xC0 == 0x80 else { return .escape }
      bytes.append(b)
    }
    let s = String(decoding: bytes, as: UTF8.self)
    guard let ch = s.first, s.count == 1, !s.contains("\u{FFFD}") else { return .escape }
    return .character(ch)
  }
}
