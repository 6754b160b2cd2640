import Foundation

/// Input history, optionally persisted to a file (one entry per line, newest last; multi-line
/// inputs are stored on one line). Keeps the last 1,000 entries and skips repeats.
///
/// ```swift
/// let h = REPLHistory(path: NSString(string: "~/.sift_history").expandingTildeInPath)
/// h.add("distance < 5")
/// ```
final class REPLHistory {
  /// Entries, oldest first.
  private(set) var entries: [String] = []
  /// The file, or nil for an in-memory history.
  let path: String?
  /// Most entries kept.
  let capacity = 1000

  /// Loads the history file when there is one.
  init(path: String?) {
    self.path = path
    if let path, let text = try? String(contentsOfFile: path, encoding: .utf8) {
      entries = Array(text.split(separator: "\n").map(String.init).suffix(capacity))
    }
  }

  /// Adds an entry (and appends it to the file); blank lines and repeats are skipped.
  func add(_ entry: String) {
    let line = entry.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard !line.trimmingCharacters(in: .whitespaces).isEmpty, entries.last != line else { return }
    entries.append(line)
    if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    guard let path else { return }
    if !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
    }
    if let handle = FileHandle(forWritingAtPath: path) {
      handle.seekToEndOfFile()
      handle.write(Data((line + "\n").utf8))
      handle.closeFile()
    }
  }
}
