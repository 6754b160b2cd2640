import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary database `sift load` builds beside its target, `.NAME.sift-load-PID-RANDOM`
/// (and SQLite's `-journal`, `-wal`, `-shm` of it), and the clean-up of those a killed load
/// left: a later load of the same target removes the ones whose PID is no running process
/// (Grammar/notes/sql.md, "sift load").
enum LoadTemporaryFiles {
  /// The files one temporary database may have: itself and SQLite's files beside it.
  static let suffixes = ["", "-journal", "-wal", "-shm"]

  /// `.NAME.sift-load-` for target `…/NAME`: what every temporary file of that target starts with.
  static func prefix(of target: String) -> String {
    ".\((target as NSString).lastPathComponent).sift-load-"
  }

  /// The target's folder ("." for a bare name).
  static func directory(of target: String) -> String {
    let d = (target as NSString).deletingLastPathComponent
    return d.isEmpty ? "." : d
  }

  /// A new temporary path for `target`, naming this process.
  static func path(for target: String) -> String {
    directory(of: target) + "/" + prefix(of: target) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The PID a file of `target`'s exact pattern names (`PREFIX` `PID` `-` `DIGITS` and one of
  /// `suffixes`), or nil for any other name.
  static func owner(of name: String, target: String) -> Int32? {
    let prefix = prefix(of: target)
    guard name.hasPrefix(prefix) else { return nil }
    var rest = Substring(name.dropFirst(prefix.count))
    if let s = suffixes.first(where: { !$0.isEmpty && rest.hasSuffix($0) }) { rest = rest.dropLast(s.count) }
    let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
    func digits(_ s: Substring) -> Bool { !s.isEmpty && s.count <= 10 && s.allSatisfy { $0 >= "0" && $0 <= "9" } }
    guard parts.count == 2, digits(parts[0]), digits(parts[1]), let pid = Int32(parts[0]), pid > 0,
      UInt32(parts[1]) != nil
    else { return nil }
    return pid
  }

  /// True when `pid` is a running process (one of another user's counts: it cannot be signalled,
  /// but it is there).
  static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Removes the regular files of `target`'s exact pattern whose PID is no running process
  /// (not this one's): what killed loads of the same target left. Returns the names removed.
  /// Any other file, and one whose owner runs, is left alone; a file that cannot be removed too.
  @discardableResult
  static func removeStale(of target: String) -> [String] {
    let fm = FileManager.default
    let dir = directory(of: target)
    guard let names = try? fm.contentsOfDirectory(atPath: dir) else { return [] }
    var removed: [String] = []
    for name in names.sorted() {
      guard let pid = owner(of: name, target: target), pid != getpid(), !isRunning(pid) else { continue }
      let path = dir + "/" + name
      guard (try? fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { continue }
      if (try? fm.removeItem(atPath: path)) != nil { removed.append(name) }
    }
    return removed
  }

  /// Removes the temporary database at `path` and SQLite's files beside it.
  static func remove(_ path: String) {
    for suffix in suffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}
