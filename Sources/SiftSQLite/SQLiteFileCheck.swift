import CSQLite
import Foundation

/// What Sift checks about a user's database file before SQLite opens it: the real file behind
/// any links (relative ones too), that it is a regular file (a FIFO would hang the first read,
/// a device or directory is no database), and its header, read without blocking.
struct SQLiteFileCheck {
  /// The path with every symbolic link resolved: `-wal`, `-shm` and `-journal` live beside it.
  let realPath: String
  /// The first 100 bytes (fewer for a short file).
  let header: [UInt8]

  /// Resolves and checks `path`; the error is the reason, in the user's words.
  static func check(_ path: String) -> Result<SQLiteFileCheck, Refusal> {
    guard let resolved = realpath(path, nil) else {
      var link = SQLiteStatBuffer()
      if lstat(path, &link) == 0, mode(link) == 0o120000 {
        return .failure(Refusal("it is a link to a file that does not exist"))
      }
      return .failure(Refusal(errno == EACCES ? "permission denied (not readable)" : "no such file"))
    }
    let real = String(cString: resolved)
    free(resolved)
    var info = SQLiteStatBuffer()
    guard stat(real, &info) == 0 else { return .failure(Refusal("no such file")) }
    if let kind = notRegular(mode(info)) { return .failure(Refusal("it is \(kind), not a database file")) }
    guard access(real, R_OK) == 0 else { return .failure(Refusal("permission denied (not readable)")) }
    // O_NONBLOCK: if the name was swapped for a FIFO since stat, opening it does not wait.
    let fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return .failure(Refusal("permission denied (not readable)")) }
    defer { close(fd) }
    guard fstat(fd, &info) == 0, notRegular(mode(info)) == nil else {
      return .failure(Refusal("it is not a regular file"))
    }
    var bytes = [UInt8](repeating: 0, count: 100)
    let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
    return .success(SQLiteFileCheck(realPath: real, header: Array(bytes.prefix(max(0, n)))))
  }

  /// Why a file cannot be opened, e.g. `it is a FIFO (named pipe), not a database file`.
  struct Refusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// True when the header says WAL mode (write and read versions 2, bytes 18 and 19).
  var isWALMode: Bool { header.count >= 20 && header[18] == 2 && header[19] == 2 }

  /// An SQLite URI for `realPath` (every byte outside the unreserved set percent-encoded) with
  /// `readonly_shm=1`: a WAL file's `-shm` is opened read-only and never created.
  var readOnlyURI: String {
    var uri = "file:"
    for byte in realPath.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        uri += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return uri + "?readonly_shm=1"
  }

  /// The reason a read-only open failed, in the user's words, from SQLite's extended result code.
  static func reason(code: Int32, message: String, file: SQLiteFileCheck) -> String {
    let name = (file.realPath as NSString).lastPathComponent
    if code == 776 {  // SQLITE_READONLY_ROLLBACK
      return
        "it has an unfinished write (a hot journal, \(name)-journal, left by a program that stopped in the middle of a "
        + "transaction); Sift reads files read-only and will not roll it back: open the file once in the program that "
        + "wrote it, or run sqlite3 \(name) 'PRAGMA quick_check' on it (that rolls the unfinished write back), then try again"
    }
    // The transient states of a WAL file being written (SQLiteRetry), still there after the
    // busy timeout, are a lock too ("attempt to write a readonly database" in SQLite's words).
    if SQLiteRetry.isTransient(code) { return "the database is locked by another connection" }
    switch code & 0xFF {
    case SQLITE_NOTADB: return "not an SQLite database"
    case SQLITE_BUSY, SQLITE_LOCKED: return "the database is locked by another connection"
    case SQLITE_CORRUPT: return "the database file is corrupt (\(message))"
    case SQLITE_CANTOPEN
    where (file.isWALMode || file.hasSibling("-wal")) && file.hasSibling("-wal") && file.hasSibling("-shm"):
      return "cannot read its \(name)-wal or \(name)-shm (\(message)); check their permissions"
    case SQLITE_CANTOPEN where file.isWALMode || file.hasSibling("-wal"):
      return
        "it is a WAL-mode database whose \(name)-wal or \(name)-shm is missing (no program has it open); reading it in "
        + "place would create them beside it"
    case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return "cannot read the file (\(message))"
    default: return message
    }
  }

  /// True when `realPath + suffix` exists (`-wal`, `-shm`, `-journal`).
  func hasSibling(_ suffix: String) -> Bool { FileState(realPath + suffix).exists }

  /// The name of the VFS that never creates a user's file (shim.h), registered on first use.
  static let untouchedVFS: String? = sift_register_untouched_vfs() == SQLITE_OK ? "sift-untouched" : nil

  static func mode(_ info: SQLiteStatBuffer) -> UInt32 { UInt32(info.st_mode) & 0o170000 }

  /// What a file that is not a regular file is, or nil for a regular file.
  static func notRegular(_ mode: UInt32) -> String? {
    switch mode {
    case 0o100000: nil
    case 0o040000: "a directory"
    case 0o010000: "a FIFO (named pipe)"
    case 0o020000, 0o060000: "a device"
    case 0o140000: "a socket"
    default: "not a regular file"
    }
  }

  /// Size, identity and change times of a file (nil fields when it does not exist): two equal
  /// states taken before and after a copy mean nobody wrote the file in between.
  struct FileState: Equatable {
    var exists = false
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: Double = 0
    var changed: Double = 0

    init(_ path: String) {
      var info = SQLiteStatBuffer()
      guard stat(path, &info) == 0 else { return }
      exists = true
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      #if canImport(Darwin)
        modified = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        changed = Double(info.st_ctimespec.tv_sec) + Double(info.st_ctimespec.tv_nsec) / 1e9
      #else
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
      #endif
    }

    /// True when the file changed within `seconds` of now (a write in the same clock tick as
    /// the state taken before a copy could leave its time unchanged).
    func changedWithin(_ seconds: Double) -> Bool {
      exists && Date().timeIntervalSince1970 - max(modified, changed) < seconds
    }
  }
}

#if canImport(Darwin)
  typealias SQLiteStatBuffer = Darwin.stat
#else
  typealias SQLiteStatBuffer = Glibc.stat
#endif

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
