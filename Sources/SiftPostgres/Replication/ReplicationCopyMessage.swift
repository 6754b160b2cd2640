import Foundation

/// A WAL position (`pg_lsn`): 64 bits, written `XXXXXXXX/XXXXXXXX` in hex by PostgreSQL.
package struct PostgresLSN: Hashable, Comparable, Sendable, CustomStringConvertible {
  package var value: UInt64

  package init(_ value: UInt64) { self.value = value }

  /// Parses PostgreSQL's text form (`16/B374D848`); nil for anything else.
  package init?(text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...8).contains(parts[0].count), (1...8).contains(parts[1].count),
      let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16)
    else { return nil }
    value = high << 32 | low
  }

  package static let zero = PostgresLSN(0)

  package var description: String {
    String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
  }

  package static func < (a: PostgresLSN, b: PostgresLSN) -> Bool { a.value < b.value }
}

/// One CopyBoth message from the walsender during `START_REPLICATION` (the streaming replication
/// protocol): WAL data carrying one pgoutput message, or a keepalive that may ask for a reply.
package enum ReplicationCopyMessage: Equatable, Sendable {
  /// `w`: XLogData — the WAL start of `data`, the server's WAL end, its send time, the payload.
  case xLogData(start: PostgresLSN, walEnd: PostgresLSN, sendTime: Int64, data: [UInt8])
  /// `k`: primary keepalive — the server's WAL end, its send time, whether it wants a status
  /// update now (it disconnects a client that never answers within `wal_sender_timeout`).
  case keepalive(walEnd: PostgresLSN, sendTime: Int64, replyRequested: Bool)

  /// Decodes one message as `PQgetCopyData` returned it.
  package static func decode(_ bytes: [UInt8]) throws(PostgresError) -> ReplicationCopyMessage {
    var r = ReplicationByteReader(bytes, what: "CopyData")
    switch try r.byte() {
    case UInt8(ascii: "w"):
      let start = PostgresLSN(try r.uint64())
      let end = PostgresLSN(try r.uint64())
      let time = try r.int64()
      return .xLogData(start: start, walEnd: end, sendTime: time, data: r.rest())
    case UInt8(ascii: "k"):
      let end = PostgresLSN(try r.uint64())
      let time = try r.int64()
      let reply = try r.byte()
      guard reply <= 1 else { throw r.malformed("keepalive reply flag \(reply)") }
      try r.expectEnd()
      return .keepalive(walEnd: end, sendTime: time, replyRequested: reply == 1)
    case let tag:
      throw PostgresError(
        kind: .result, message: "malformed replication message (CopyData): unknown message type \(tag)")
    }
  }

  /// The standby status update (`r`) the client sends: WAL received/written, flushed and applied
  /// up to `flushed` (for a logical slot, the flushed position becomes `confirmed_flush_lsn` —
  /// what the server may forget), the client's clock in microseconds since 2000-01-01.
  package static func standbyStatus(
    flushed: PostgresLSN, now: Date = Date(), replyRequested: Bool = false
  ) -> [UInt8] {
    var w = ReplicationByteWriter()
    w.byte(UInt8(ascii: "r"))
    w.uint64(flushed.value)
    w.uint64(flushed.value)
    w.uint64(flushed.value)
    w.int64(postgresMicroseconds(now))
    w.byte(replyRequested ? 1 : 0)
    return w.bytes
  }

  /// Microseconds since PostgreSQL's epoch, 2000-01-01 00:00:00 UTC (clamped, never a trap).
  static func postgresMicroseconds(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970 - 946_684_800
    let micros = seconds * 1_000_000
    guard micros.isFinite, abs(micros) < 9.0e18 else { return 0 }
    return Int64(micros.rounded(.down))
  }
}
