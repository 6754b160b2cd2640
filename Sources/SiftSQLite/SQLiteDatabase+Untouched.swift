import Foundation
import SiftSyntax

extension SQLiteDatabase {
  /// Opens a database file read-only without creating or writing a byte in its folder, WAL
  /// files included, and so that every read sees one committed state of the database, even
  /// while another program writes and checkpoints it.
  ///
  /// - A rollback-journal file, or a WAL-mode file whose `-wal` and `-shm` both exist (the app
  ///   that owns it is running, or left them), is read in place as `init(readOnly:)` does:
  ///   SQLite's own locking gives each statement one committed state, and Sift's VFS and
  ///   `readonly_shm=1` keep it from creating or writing anything beside the file.
  /// - A WAL-mode file whose `-wal` or `-shm` is missing has no program with it open (a writer
  ///   would have created both), and SQLite cannot read it in place without creating them. It
  ///   is copied (with its `-wal` if there is one) into a private temporary folder and read
  ///   there. The copy is consistent because it is checked: the size, identity and change
  ///   times of the file and its `-wal` are taken before and after the copy, and the `-shm`
  ///   must be absent both times; any difference (a writer started, a checkpoint ran) starts
  ///   again, in place if the `-shm` appeared. A file changed within the last 50 ms is first
  ///   left to settle, so a later write cannot share its modification time. Copying takes time
  ///   proportional to the file's size; the folder is removed once the schema is read.
  ///
  /// Links are followed to the real file; anything not a regular file is refused.
  ///
  /// ```swift
  /// let db = try SQLiteDatabase(untouched: "Library.sqlite")   // Library.sqlite-wal rows included
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-open`) naming `path`.
  public convenience init(untouched path: String, busyTimeout: Int32 = 200) throws(SiftError) {
    let (opened, copied) = try Self.openUntouched(path, busyTimeout: busyTimeout)
    self.init(adopting: opened, privateCopy: copied)
  }

  /// How long the file may keep changing under the copy before opening gives up.
  static let untouchedDeadline: TimeInterval = 10

  /// The retrying opener behind `init(untouched:)`: the connection and whether it reads a copy.
  static func openUntouched(_ path: String, busyTimeout: Int32) throws(SiftError) -> (SQLiteDatabase, Bool) {
    func failure(_ why: String) -> SiftError { SQLiteDatabase.openError(path, why) }
    let deadline = Date().addingTimeInterval(untouchedDeadline)
    while true {
      let file: SQLiteFileCheck
      switch SQLiteFileCheck.check(path) {
      case .success(let checked): file = checked
      case .failure(let refusal): throw failure(refusal.reason)
      }
      let real = file.realPath
      let walMode = file.isWALMode || file.hasSibling("-wal")
      if !walMode || (file.hasSibling("-wal") && file.hasSibling("-shm")) {
        do {
          return (try SQLiteDatabase(readOnly: path, busyTimeout: busyTimeout), false)
        } catch {
          // The owner closed the file between the look and the open (deleting -wal and -shm):
          // look again. Anything else is the answer.
          guard walMode, !(file.hasSibling("-wal") && file.hasSibling("-shm")), Date() < deadline else { throw error }
          continue
        }
      }
      let before = (SQLiteFileCheck.FileState(real), SQLiteFileCheck.FileState(real + "-wal"))
      if before.0.changedWithin(0.05) || before.1.changedWithin(0.05) {
        guard Date() < deadline else { throw failure("the file kept changing while Sift tried to read it; try again") }
        Thread.sleep(forTimeInterval: 0.02)
        continue
      }
      if let copy = try privateCopy(of: real, withWAL: before.1.exists, failure: failure) {
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let after = (SQLiteFileCheck.FileState(real), SQLiteFileCheck.FileState(real + "-wal"))
        if after == before, !file.hasSibling("-shm") {
          do {
            return (try SQLiteDatabase(readOnly: copy, busyTimeout: busyTimeout, readsCopyOf: path), true)
          }
        }
      }
      guard Date() < deadline else { throw failure("the file kept changing while Sift copied it; try again") }
    }
  }

  /// Copies `real` (and its `-wal` when `withWAL`) into a new private folder; nil when the
  /// `-wal` vanished meanwhile (the caller looks again).
  private static func privateCopy(
    of real: String, withWAL: Bool, failure: (String) -> SiftError
  ) throws(SiftError) -> String? {
    let fm = FileManager.default
    let folder = fm.temporaryDirectory.appendingPathComponent("sift-readonly-\(UUID().uuidString)")
    let name = (real as NSString).lastPathComponent
    let copy = folder.appendingPathComponent(name.isEmpty ? "db" : name).path
    do {
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
      try fm.copyItem(atPath: real, toPath: copy)
      if withWAL {
        guard fm.fileExists(atPath: real + "-wal") else {
          try? fm.removeItem(at: folder)
          return nil
        }
        try fm.copyItem(atPath: real + "-wal", toPath: copy + "-wal")
      }
    } catch {
      try? fm.removeItem(at: folder)
      throw failure(
        "cannot make a private copy to read its WAL without writing beside it (\(error.localizedDescription))")
    }
    return copy
  }

  /// Opens the private copy `copy` of `path` read-only; errors name `path`, not the copy.
  private convenience init(readOnly copy: String, busyTimeout: Int32, readsCopyOf path: String) throws(SiftError) {
    do {
      try self.init(readOnly: copy, busyTimeout: busyTimeout, privateCopy: true)
      fileName = path
    } catch {
      throw SQLiteDatabase.openError(
        path, error.diagnostic.message.replacingOccurrences(of: "cannot open \(copy): ", with: ""))
    }
  }

  /// True when opening `path` with `init(readOnly:)` would fail because reading it in place
  /// would create files beside it: a WAL-mode database whose `-wal` or `-shm` is missing (no
  /// other program has it open). Use `init(untouched:)` to read such a file.
  ///
  /// ```swift
  /// let db = SQLiteDatabase.readingCreatesFiles(beside: path) ? try SQLiteDatabase(untouched: path) : try SQLiteDatabase(readOnly: path)
  /// ```
  public static func readingCreatesFiles(beside path: String) -> Bool {
    guard case .success(let file) = SQLiteFileCheck.check(path) else { return false }
    return (file.isWALMode || file.hasSibling("-wal")) && !(file.hasSibling("-wal") && file.hasSibling("-shm"))
  }

  /// True when the file's header says WAL mode (write and read versions 2).
  static func isWALMode(_ path: String) -> Bool {
    guard case .success(let file) = SQLiteFileCheck.check(path) else { return false }
    return file.isWALMode
  }
}
