import Foundation

/// Standard input read line by line, with an optional wait: `sift watch --db` looks at the
/// database for other connections' commits while no line arrives.
struct WatchInput {
  enum Next {
    case line(String)
    /// Nothing arrived within the wait.
    case idle
    case end
  }

  var buffer: [UInt8] = []
  var finished = false

  /// The next line (without its newline or a trailing CR); `.idle` after `waitMilliseconds`
  /// without a complete line; `.end` at end of input.
  mutating func next(waitMilliseconds: Int32?) -> Next {
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        var line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        if line.last == 0x0D { line.removeLast() }
        return .line(String(decoding: line, as: UTF8.self))
      }
      if finished {
        guard !buffer.isEmpty else { return .end }
        defer { buffer = [] }
        return .line(String(decoding: buffer, as: UTF8.self))
      }
      if let wait = waitMilliseconds {
        var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, wait)
        if r == 0 { return .idle }
        if r < 0 {
          if errno == EINTR { continue }
          finished = true
          continue
        }
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let n = read(0, &chunk, chunk.count)
      if n > 0 {
        buffer += chunk[..<n]
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        finished = true
      }
    }
  }
}
