import Foundation

/// A bounds-checked cursor over one replication message: every read checks the bytes left and
/// throws a `.result` `PostgresError` ("malformed replication message: …") instead of trapping,
/// so a short, long or garbled message from the server (or a test) is an error, never a crash.
struct ReplicationByteReader {
  private let bytes: [UInt8]
  private(set) var offset: Int
  /// What the message is, for the error text ("pgoutput Insert", "XLogData").
  let what: String

  init(_ bytes: [UInt8], what: String) {
    self.bytes = bytes
    self.offset = 0
    self.what = what
  }

  /// Bytes not yet read.
  var remaining: Int { bytes.count - offset }

  func malformed(_ detail: String) -> PostgresError {
    PostgresError(kind: .result, message: "malformed replication message (\(what)): \(detail) at byte \(offset)")
  }

  mutating func byte() throws(PostgresError) -> UInt8 {
    guard remaining >= 1 else { throw malformed("expected 1 byte, \(remaining) left") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A big-endian unsigned integer of `width` bytes (1…8).
  mutating func unsigned(_ width: Int) throws(PostgresError) -> UInt64 {
    guard remaining >= width else { throw malformed("expected \(width) bytes, \(remaining) left") }
    var value: UInt64 = 0
    for i in 0..<width { value = (value << 8) | UInt64(bytes[offset + i]) }
    offset += width
    return value
  }

  mutating func uint64() throws(PostgresError) -> UInt64 { try unsigned(8) }
  mutating func int64() throws(PostgresError) -> Int64 { Int64(bitPattern: try unsigned(8)) }
  mutating func uint32() throws(PostgresError) -> UInt32 { UInt32(truncatingIfNeeded: try unsigned(4)) }
  mutating func int32() throws(PostgresError) -> Int32 { Int32(bitPattern: try uint32()) }
  mutating func int16() throws(PostgresError) -> Int16 {
    Int16(bitPattern: UInt16(truncatingIfNeeded: try unsigned(2)))
  }

  /// A count (Int16 or Int32 on the wire) that must be ≥ 0 and small enough for the bytes left,
  /// each item taking at least `minimumItemSize` bytes: a forged count cannot make us allocate.
  mutating func count(width: Int, minimumItemSize: Int, of item: String) throws(PostgresError) -> Int {
    let raw = width == 2 ? Int(try int16()) : Int(try int32())
    guard raw >= 0 else { throw malformed("negative \(item) count \(raw)") }
    guard raw <= remaining / max(minimumItemSize, 1) else {
      throw malformed("\(raw) \(item)s cannot fit in the \(remaining) bytes left")
    }
    return raw
  }

  /// `n` raw bytes.
  mutating func bytes(_ n: Int) throws(PostgresError) -> [UInt8] {
    guard n >= 0, remaining >= n else { throw malformed("expected \(n) bytes, \(remaining) left") }
    defer { offset += n }
    return Array(bytes[offset..<offset + n])
  }

  /// A NUL-terminated string (UTF-8; the connection's client encoding is UTF8).
  mutating func cString() throws(PostgresError) -> String {
    guard let end = bytes[offset...].firstIndex(of: 0) else { throw malformed("string without its NUL") }
    defer { offset = end + 1 }
    return String(decoding: bytes[offset..<end], as: UTF8.self)
  }

  /// The rest of the message.
  mutating func rest() -> [UInt8] {
    defer { offset = bytes.count }
    return Array(bytes[offset...])
  }

  /// Throws unless every byte was read: trailing bytes mean we misread the message.
  func expectEnd() throws(PostgresError) {
    guard remaining == 0 else { throw malformed("\(remaining) unexpected trailing bytes") }
  }
}

/// Big-endian encoding for the messages the client sends (standby status updates).
struct ReplicationByteWriter {
  private(set) var bytes: [UInt8] = []

  mutating func byte(_ b: UInt8) { bytes.append(b) }
  mutating func uint64(_ v: UInt64) {
    for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
  }
  mutating func int64(_ v: Int64) { uint64(UInt64(bitPattern: v)) }
}
