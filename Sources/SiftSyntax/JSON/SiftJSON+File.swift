import Foundation

extension SiftJSON {
  /// The bytes of the record file at `url` — the one reader behind `JSONRecords`,
  /// `SiftColumnarRecords(contentsOf:)`, every command's `--data` and the REPL's `.load`. A file
  /// that cannot be read is an error naming it as `name` (default: the URL's path).
  ///
  /// ```swift
  /// try SiftJSON.fileBytes(URL(fileURLWithPath: "venues.json")).count   // 268_161_957
  /// ```
  package static func fileBytes(_ url: URL, name: String? = nil) throws(SiftError) -> [UInt8] {
    if let bytes = regularFileBytes(url) { return bytes }
    do { return [UInt8](try Data(contentsOf: url)) } catch {
      throw SiftError(
        stage: .data, id: .cannotRead, message: "cannot read \(name ?? url.path): \(error.localizedDescription)",
        underlying: error)
    }
  }

  /// A regular file's bytes read straight into the array; nil when `url` is no regular file or
  /// reading it this way fails or sees it change size (`fileBytes` then reads it through `Data`,
  /// which also names every error).
  ///
  /// Why not `[UInt8](Data(contentsOf:))` alone: that reads the file into `Data` and then copies
  /// it, so a 268 MB file was written twice and held twice at its peak (page faults and a
  /// memory-wide copy that instruction counts do not show, part of `load_mb_per_s` in
  /// `sift-bench --suite columnar`).
  static func regularFileBytes(_ url: URL) -> [UInt8]? {
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
        guard let n = readOnce(fd, base + done, size - done) else {
          failed = true
          break
        }
        if n == 0 { break }
        done += n
      }
      initialized = done
    }
    // A file that shrank or grew while it was read: the general way.
    var extra: UInt8 = 0
    guard !failed, bytes.count == size, read(fd, &extra, 1) == 0 else { return nil }
    return bytes
  }

  /// One `read(2)` of up to `count` bytes of `fd` into `into`, again when a signal interrupts
  /// it: the number read (0 at the end of the file), nil on an error. Every reader of a record
  /// file's bytes goes through it (`regularFileBytes`, `sift eval --count`'s streamed parts).
  package static func readOnce(_ fd: Int32, _ into: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int? {
    while true {
      let r = read(fd, into, count)
      if r >= 0 { return r }
      if errno != EINTR { return nil }
    }
  }
}
