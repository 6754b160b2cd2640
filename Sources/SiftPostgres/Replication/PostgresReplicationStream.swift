import CLibPQ
import Foundation

/// A logical replication stream from one slot through libpq: a `replication=database` connection
/// running `START_REPLICATION SLOT s LOGICAL lsn (proto_version '1', publication_names 'p')`,
/// read with `PQgetCopyData` in async mode and `poll` with a timeout (every wait is bounded).
/// `next(timeout:)` hands back whole committed transactions; `confirm(_:)` tells the server a
/// transaction's change set was delivered, so the slot's `confirmed_flush_lsn` advances — and
/// only then. Keepalives that ask for a reply are answered. Not thread-safe: one reader.
package final class PostgresReplicationStream {
  private let connection: PostgresConnection
  private var assembler = PostgresChangeAssembler()
  /// Everything up to here is delivered (or had nothing to deliver): what status updates report.
  package private(set) var confirmed: PostgresLSN
  /// The end of the last transaction handed out and not yet confirmed.
  private var handedOut: PostgresLSN?
  private var inTransaction = false
  private var lastStatus = Date()

  /// Slot and publication names as PostgreSQL allows for slots: `[a-z0-9_]`, 1…63 bytes (so they
  /// need no quoting inside the option string).
  package static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 63
      && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
  }

  /// Connects and starts streaming `slot` (pgoutput, publication `publication`) from `start`
  /// (zero: from the slot's `confirmed_flush_lsn`).
  package init(
    conninfo: String, slot: String, publication: String, start: PostgresLSN = .zero, timeout: Double = 10
  ) throws(PostgresError) {
    guard Self.isValidName(slot), Self.isValidName(publication) else {
      throw PostgresError(
        kind: .unsupportedValue,
        message: "replication slot and publication names are lowercase letters, digits and '_' (1-63)")
    }
    connection = try PostgresConnection(
      conninfo: conninfo, connectTimeout: max(1, Int(timeout.rounded(.up))), replication: true)
    confirmed = start
    guard let conn = connection.handleIfOpen else {
      throw PostgresError(kind: .connection, message: "connection is closed")
    }
    let sql =
      "START_REPLICATION SLOT \(slot) LOGICAL \(start) (proto_version '1', publication_names '\(publication)')"
    guard PQsetnonblocking(conn, 1) == 0, PQsendQuery(conn, sql) == 1 else {
      throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
    }
    let deadline = Date().addingTimeInterval(timeout)
    while PQisBusy(conn) != 0 {
      try flushAndWait(conn, forWriting: false, until: deadline, doing: "starting replication")
      guard PQconsumeInput(conn) == 1 else {
        throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
      }
    }
    let result = PQgetResult(conn)
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_COPY_BOTH else {
      try connection.check(result, conn: conn, statement: sql)
      throw PostgresError(kind: .query, message: "START_REPLICATION did not stream", statement: sql)
    }
  }

  deinit { close() }

  /// Ends the stream and the connection (the slot is released, not dropped).
  package func close() { connection.close() }

  /// The next committed transaction that changed a published table, waiting at most `timeout`
  /// seconds; nil when none arrived in time. Call `confirm(_:)` with its `endLSN` once delivered.
  package func next(timeout: Double) throws(PostgresError) -> PostgresCommittedTransaction? {
    guard let conn = connection.handleIfOpen else {
      throw PostgresError(kind: .connection, message: "replication stream is closed")
    }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      var buffer: UnsafeMutablePointer<CChar>?
      let n = PQgetCopyData(conn, &buffer, 1)
      if n > 0, let buffer {
        let bytes = buffer.withMemoryRebound(to: UInt8.self, capacity: Int(n)) {
          Array(UnsafeBufferPointer(start: $0, count: Int(n)))
        }
        PQfreemem(buffer)
        if let tx = try handle(ReplicationCopyMessage.decode(bytes), conn: conn) { return tx }
        continue
      }
      if n == -1 {
        let result = PQgetResult(conn)
        defer { PQclear(result) }
        throw PostgresError(
          kind: .connection,
          message: "the server ended the replication stream: "
            + PostgresConnection.errorText(PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
        )
      }
      if n < 0 {
        throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
      }
      if Date() >= deadline { return nil }
      // Tell the server we are alive now and then (wal_sender_timeout is 60 s by default).
      if Date().timeIntervalSince(lastStatus) > 10 { try sendStatus(conn) }
      if try !waitReadable(conn, until: deadline) { return nil }
      guard PQconsumeInput(conn) == 1 else {
        throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
      }
    }
  }

  /// Confirms that the change set of the transaction ending at `lsn` was delivered: the server
  /// may now forget the WAL before it.
  package func confirm(_ lsn: PostgresLSN) throws(PostgresError) {
    guard let conn = connection.handleIfOpen else {
      throw PostgresError(kind: .connection, message: "replication stream is closed")
    }
    if lsn > confirmed { confirmed = lsn }
    if let h = handedOut, h <= lsn { handedOut = nil }
    try sendStatus(conn)
  }

  private func handle(_ message: ReplicationCopyMessage, conn: OpaquePointer) throws(PostgresError)
    -> PostgresCommittedTransaction?
  {
    switch message {
    case .keepalive(let walEnd, _, let replyRequested):
      // Nothing open and everything handed out delivered: all WAL up to walEnd is dealt with
      // (it held nothing for this publication), so the slot may move on instead of retaining it.
      if !inTransaction, handedOut == nil, walEnd > confirmed { confirmed = walEnd }
      if replyRequested { try sendStatus(conn) }
      return nil
    case .xLogData(_, _, _, let data):
      let pg = try PgOutputMessage.decode(data)
      if case .begin = pg { inTransaction = true }
      guard let tx = try assembler.consume(pg) else { return nil }
      inTransaction = false
      if tx.tables.isEmpty {
        if handedOut == nil, tx.endLSN > confirmed { confirmed = tx.endLSN }
        return nil
      }
      handedOut = tx.endLSN
      return tx
    }
  }

  private func sendStatus(_ conn: OpaquePointer) throws(PostgresError) {
    let bytes = ReplicationCopyMessage.standbyStatus(flushed: confirmed)
    let sent = bytes.withUnsafeBufferPointer { buf in
      buf.baseAddress.map { base in
        base.withMemoryRebound(to: CChar.self, capacity: buf.count) { PQputCopyData(conn, $0, Int32(buf.count)) }
      } ?? -1
    }
    guard sent == 1 else {
      throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
    }
    try flushAndWait(conn, forWriting: true, until: Date().addingTimeInterval(10), doing: "sending a status update")
    lastStatus = Date()
  }

  /// Flushes libpq's output (non-blocking) and, for reading, waits until the socket is readable.
  private func flushAndWait(_ conn: OpaquePointer, forWriting: Bool, until deadline: Date, doing what: String)
    throws(PostgresError)
  {
    while true {
      let flushed = PQflush(conn)
      guard flushed >= 0 else {
        throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
      }
      if flushed == 0 && forWriting { return }
      let events = Int16(flushed == 1 ? POLLIN | POLLOUT : POLLIN)
      let ready = try poll(conn, events: events, until: deadline)
      if !ready { throw PostgresError(kind: .connection, message: "no answer from the server while \(what)") }
      if flushed == 0 { return }
      // Readable while output is pending: libpq wants its input consumed before it can write on.
      _ = PQconsumeInput(conn)
    }
  }

  private func waitReadable(_ conn: OpaquePointer, until deadline: Date) throws(PostgresError) -> Bool {
    guard PQflush(conn) >= 0 else {
      throw PostgresError(kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)))
    }
    return try poll(conn, events: Int16(POLLIN), until: deadline)
  }

  private func poll(_ conn: OpaquePointer, events: Int16, until deadline: Date) throws(PostgresError) -> Bool {
    let socket = PQsocket(conn)
    guard socket >= 0 else { throw PostgresError(kind: .connection, message: "the connection has no socket") }
    while true {
      let left = deadline.timeIntervalSinceNow
      if left <= 0 { return false }
      var fd = pollfd(fd: socket, events: events, revents: 0)
      let ms = Int32(min(left * 1000, 1000).rounded(.up))
      let r = Foundation.poll(&fd, 1, ms)
      if r > 0 { return true }
      if r < 0 && errno != EINTR {
        throw PostgresError(kind: .connection, message: "poll failed on the replication connection (errno \(errno))")
      }
    }
  }
}
