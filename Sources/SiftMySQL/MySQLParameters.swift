import CMariaDB
import Foundation
import SiftSQL

/// The `MYSQL_BIND` array for one statement's `?` values, and the memory each value is copied
/// into, freed with the object (kept alive until the statement has run). Integers travel as
/// `BIGINT`, doubles as `DOUBLE`, booleans as `TINYINT` 0/1 (MySQL's `BOOLEAN`), text as
/// utf8mb4 strings, bytes as `BLOB`, NULL as `NULL`.
final class MySQLParameters {
  let binds: UnsafeMutablePointer<MYSQL_BIND>
  private let count: Int
  private var storage: [UnsafeMutableRawPointer] = []

  init(_ values: [SQLValue]) {
    count = max(1, values.count)
    binds = .allocate(capacity: count)
    binds.initialize(repeating: MYSQL_BIND(), count: count)
    for (i, value) in values.enumerated() {
      switch value {
      case .null:
        binds[i].buffer_type = MYSQL_TYPE_NULL
      case .integer(let n):
        bindFixed(i, n, MYSQL_TYPE_LONGLONG)
      case .bool(let b):
        bindFixed(i, Int8(b ? 1 : 0), MYSQL_TYPE_TINY)
      case .double(let d):
        bindFixed(i, d, MYSQL_TYPE_DOUBLE)
      case .text(let s):
        bindBytes(i, Array(s.utf8), MYSQL_TYPE_STRING)
      case .blob(let d):
        bindBytes(i, Array(d), MYSQL_TYPE_BLOB)
      }
    }
  }

  deinit {
    for p in storage { p.deallocate() }
    binds.deinitialize(count: count)
    binds.deallocate()
  }

  private func bindFixed<T>(_ i: Int, _ value: T, _ type: enum_field_types) {
    let p = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    p.storeBytes(of: value, as: T.self)
    storage.append(p)
    binds[i].buffer_type = type
    binds[i].buffer = p
    binds[i].buffer_length = UInt(MemoryLayout<T>.size)
  }

  private func bindBytes(_ i: Int, _ bytes: [UInt8], _ type: enum_field_types) {
    let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress { p.copyMemory(from: base, byteCount: bytes.count) }
    }
    storage.append(p)
    binds[i].buffer_type = type
    binds[i].buffer = p
    binds[i].buffer_length = UInt(bytes.count)
  }
}
