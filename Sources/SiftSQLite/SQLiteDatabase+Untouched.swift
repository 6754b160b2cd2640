import Foundation
import SiftSyntax

extension SQLiteDatabase {
  /// Opens a database file read-only without writing a byte in its folder, WAL files included.
  ///
  /// A read-only SQLite connection still writes beside a WAL-mode file: it creates `-wal` and
  /// `-shm` when they are missing and updates `-shm` (the WAL index) when they are there. Core
  /// Data stores are WAL-mode files. So a WAL-mode file (header bytes 18–19 = 2) or one with a
  /// `-wal` beside it is copied with its `-wal` (not the `-shm`, which SQLite rebuilds from the
  /// `-wal`) into a private temporary folder, opened read-only there, and the folder is removed
  /// once the connection has read the schema (the open connection keeps the unlinked files).
  /// Rows still only in the `-wal` are seen. Any other file is opened in place, read-only.
  /// Copying takes time proportional to the file's size; a file being written during the copy
  /// may be caught between two saves.
  ///
  /// ```swift
  /// let db = try SQLiteDatabase(untouched: "Library.sqlite")   // Library.sqlite-wal rows included
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `sqlite-open`) naming `path`.
  public convenience init(untouched path: String, busyTimeout: Int32 = 200) throws(SiftError) {
    let fm = FileManager.default
    let wal = path + "-wal"
    guard fm.fileExists(atPath: path), Self.isWALMode(path) || fm.fileExists(atPath: wal) else {
      try self.init(readOnly: path, busyTimeout: busyTimeout)
      return
    }
    func failure(_ why: String) -> SiftError {
      SiftError(
        stage: .sql, diagnostic: SiftDiagnostic(id: "sqlite-open", message: "cannot open \(path): \(why)", range: .at(0)),
        source: "")
    }
    let folder = fm.temporaryDirectory.appendingPathComponent("sift-readonly-\(UUID().uuidString)")
    defer { try? fm.removeItem(at: folder) }
    let copy = folder.appendingPathComponent((path as NSString).lastPathComponent.isEmpty ? "db" : (path as NSString).lastPathComponent)
    do {
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
      try fm.copyItem(atPath: path, toPath: copy.path)
      if fm.fileExists(atPath: wal) { try fm.copyItem(atPath: wal, toPath: copy.path + "-wal") }
    } catch {
      throw failure("cannot make a private copy to read its WAL without writing beside it (\(error.localizedDescription))")
    }
    do {
      try self.init(readOnly: copy.path, busyTimeout: busyTimeout)
    } catch {
      throw failure(error.diagnostic.message.replacingOccurrences(of: "cannot open \(copy.path): ", with: ""))
    }
  }

  /// True when opening `path` with `init(readOnly:)` would create files beside it: a WAL-mode
  /// database whose `-wal` or `-shm` is missing (no other program has it open). Use
  /// `init(untouched:)` to read such a file without writing anything.
  ///
  /// ```swift
  /// let db = SQLiteDatabase.readingCreatesFiles(beside: path) ? try SQLiteDatabase(untouched: path) : try SQLiteDatabase(readOnly: path)
  /// ```
  public static func readingCreatesFiles(beside path: String) -> Bool {
    let fm = FileManager.default
    return isWALMode(path) && !(fm.fileExists(atPath: path + "-wal") && fm.fileExists(atPath: path + "-shm"))
  }

  /// True when the file's header says WAL mode (write and read versions 2).
  static func isWALMode(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
    return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
  }
}
