import Foundation

/// Reads a data file straight into the array the loader parses.
///
/// Why not `[UInt8](Data(contentsOf:))`: that reads the file into `Data` and then copies it, so a
/// 268 MB file was written twice and held twice at its peak (page faults and a memory-wide copy
/// that instruction counts do not show, part of `load_mb_per_s` in `sift-bench --suite columnar`).
enum ColumnarFile {
  /// The bytes of the regular file at `url`; nil when it is no regular file or reading it this
  /// way fails or sees it change size (the caller then reads it through `Data`, which also
  /// reports every error as before).
  ///
  /// ```swift
  /// ColumnarFile.bytes(URL(fileURLWithPath: "venues.json"))?.count   // 268_000_000
  /// ```
  static func bytes(_ url: URL) -> [UInt8]? {
    guard url.isFileURL else { return nil }
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else { return nil }
    guard let size = Int(exactly: info.st_size) else { return nil }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, initialized in
      var done = 0
      while done < size, let base = buffer.baseAddress {
        let n = read(fd, base + done, size - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
          failed = n < 0
          break
        }
        done += n
      }
      initialized = done
    }
    // A file that shrank or grew while it was read: the general way.
    var extra: UInt8 = 0
    guard !failed, bytes.count == size, read(fd, &extra, 1) == 0 else { return nil }
    return bytes
  }
}
