#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The controlling terminal: raw mode on/off (termios), byte reads, writes and the width.
///
/// ```swift
/// let tty = RawTerminal(fd: 0)
/// try tty.enableRawMode(); defer { tty.restore() }
/// ```
final class RawTerminal {
  let input: Int32
  let output: Int32
  private var original = termios()
  private var isRaw = false

  init(input: Int32 = 0, output: Int32 = 1) {
    self.input = input
    self.output = output
  }

  /// Whether both ends are terminals.
  var isInteractive: Bool { isatty(input) != 0 && isatty(output) != 0 }

  /// Switches off echo, canonical mode, signals (Ctrl-C arrives as a byte) and flow control.
  func enableRawMode() -> Bool {
    guard !isRaw, tcgetattr(input, &original) == 0 else { return isRaw }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { return false }
    isRaw = true
    return true
  }

  /// Restores the mode saved by `enableRawMode()`.
  func restore() {
    guard isRaw else { return }
    _ = tcsetattr(input, TCSAFLUSH, &original)
    isRaw = false
  }

  /// One byte, or nil at end of input or on error (EINTR is retried).
  func readByte() -> UInt8? {
    var b: UInt8 = 0
    while true {
      let n = read(input, &b, 1)
      if n == 1 { return b }
      if n < 0 && errno == EINTR { continue }
      return nil
    }
  }

  /// Writes all of `s`.
  func write(_ s: String) {
    var bytes = Array(s.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { buf -> Int in
        guard let base = buf.baseAddress else { return -1 }
        #if canImport(Glibc)
          return Glibc.write(output, base + offset, buf.count - offset)
        #else
          return Darwin.write(output, base + offset, buf.count - offset)
        #endif
      }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      offset += n
    }
  }

  /// Terminal width in columns (80 when unknown).
  var columns: Int {
    var size = winsize()
    if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }
}
