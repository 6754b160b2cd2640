import CLibPQ
import Foundation

/// The raw libpq connection: owns one `PGconn`, runs statements with `PQexecParams`
/// (parameters as `PostgresWireParameter`) or scripts with `PQexec`, and turns
/// failures into `PostgresError`. Not thread-safe by itself; `PostgresDatabase` serializes it.
final class PostgresConnection {
  private var handle: OpaquePointer?

  /// Connects with a libpq conninfo string (`host=127.0.0.1 user=sift dbname=sift`) or URI.
  /// `connectTimeout` seconds (0: none) apply unless the conninfo or `PGCONNECT_TIMEOUT` sets
  /// `connect_timeout`: it is passed before the conninfo, whose own keywords come later and win.
  /// `replication` adds `replication=database` after the conninfo (a walsender connection for
  /// logical replication, which also runs SQL): the conninfo cannot turn it off.
  init(conninfo: String, connectTimeout: Int = 0, replication: Bool = false) throws(PostgresError) {
    guard !conninfo.utf8.contains(0) else {
      throw PostgresError(kind: .connection, message: "conninfo contains a NUL character")
    }
    var keywords = ["dbname"]
    var values = [conninfo]
    if connectTimeout > 0, ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil {
      keywords.insert("connect_timeout", at: 0)
      values.insert(String(connectTimeout), at: 0)
    }
    if replication {
      keywords.append("replication")
      values.append("database")
    }
    let conn = PostgresConnection.connect(keywords: keywords, values: values)
    guard let conn else {
      throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
    }
    guard PQstatus(conn) == CONNECTION_OK else {
      let message = PostgresConnection.errorText(PQerrorMessage(conn))
      let server = PostgresConnection.serverName(conn)
      PQfinish(conn)
      // One line naming the server: libpq's text spans lines ("…\n\tIs the server running…").
      let oneLine = message.split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
      let timedOut = oneLine.contains("timeout expired")
      throw PostgresError(
        kind: .connection,
        message: "cannot connect to PostgreSQL at \(server): \(oneLine)"
          + (timedOut
            ? " (no answer within the connect timeout; set connect_timeout=SECONDS in the conninfo to wait longer)"
            : ""))
    }
    // Notices ("schema … does not exist, skipping") would otherwise go to stderr.
    PQsetNoticeProcessor(conn, { _, _ in }, nil)
    guard PQsetClientEncoding(conn, "UTF8") == 0 else {
      let message = PostgresConnection.errorText(PQerrorMessage(conn))
      PQfinish(conn)
      throw PostgresError(kind: .connection, message: "cannot use UTF8: \(message)")
    }
    handle = conn
  }

  deinit { close() }

  /// `PQconnectdbParams` with `expand_dbname`: the conninfo (given as `dbname`) is expanded,
  /// and keywords are processed in order, so the conninfo's own override earlier defaults.
  private static func connect(keywords: [String], values: [String]) -> OpaquePointer? {
    let k = keywords.map { strdup($0) }
    let v = values.map { strdup($0) }
    defer { for p in k + v { free(p) } }
    var kp: [UnsafePointer<CChar>?] = k.map { UnsafePointer($0) } + [nil]
    var vp: [UnsafePointer<CChar>?] = v.map { UnsafePointer($0) } + [nil]
    return kp.withUnsafeMutableBufferPointer { kb in
      vp.withUnsafeMutableBufferPointer { vb in PQconnectdbParams(kb.baseAddress, vb.baseAddress, 1) }
    }
  }

  /// `host:port` (or `socket-directory:port`) of a connection attempt, as libpq resolved them.
  private static func serverName(_ conn: OpaquePointer) -> String {
    let host = PQhost(conn).map { String(cString: $0) } ?? ""
    let port = PQport(conn).map { String(cString: $0) } ?? ""
    let shownHost = host.isEmpty ? "localhost" : host
    return port.isEmpty ? shownHost : "\(shownHost):\(port)"
  }

  /// The session's settings (`PostgresDatabase` sets it once they are applied): run again on
  /// the new session after `open()` resets a lost connection, so a reconnected session is
  /// read-only, in UTC and on the search path exactly as the first one was.
  var sessionSetup: String?

  /// The libpq handle while open, without `open()`'s reset (a replication stream must not be
  /// silently reconnected outside its COPY).
  var handleIfOpen: OpaquePointer? { handle }

  /// Whether `close()` has not been called yet.
  var isOpen: Bool { handle != nil }

  /// Closes the connection (`PQfinish`); later calls throw `.connection` errors.
  func close() {
    if let handle { PQfinish(handle) }
    handle = nil
  }

  /// Runs a script of one or more `;`-separated statements without parameters.
  func executeScript(_ sql: String) throws(PostgresError) {
    let conn = try open()
    guard !sql.utf8.contains(0) else {
      throw PostgresError(
        kind: .unsupportedValue, message: "SQL text contains a NUL character", statement: sql)
    }
    let result = PQexec(conn, sql)
    defer { PQclear(result) }
    try check(result, conn: conn, statement: sql)
  }

  /// Runs one statement with `$1…$n` parameters; returns its rows (empty for commands).
  func execute(_ sql: String, parameters: [PostgresWireParameter]) throws(PostgresError)
    -> [[PostgresCell]]
  {
    let conn = try open()
    guard !sql.utf8.contains(0) else {
      throw PostgresError(
        kind: .unsupportedValue, message: "SQL text contains a NUL character", statement: sql)
    }
    guard parameters.count <= Int(Int32.max) else {
      throw PostgresError(kind: .unsupportedValue, message: "too many parameters", statement: sql)
    }
    let buffers = ParameterBuffers(parameters)
    defer { buffers.deallocate() }
    let result = PQexecParams(
      conn, sql, Int32(parameters.count), buffers.types, buffers.values, buffers.lengths,
      buffers.formats, 0)
    defer { PQclear(result) }
    try check(result, conn: conn, statement: sql)
    return try PostgresConnection.rows(of: result, statement: sql)
  }

  /// Runs `COPY … FROM STDIN` (`sql`) and sends `data` (COPY text format) as its input.
  func copyIn(_ sql: String, data: [UInt8]) throws(PostgresError) {
    let conn = try open()
    let start = PQexec(conn, sql)
    guard let start, PQresultStatus(start) == PGRES_COPY_IN else {
      defer { PQclear(start) }
      try check(start, conn: conn, statement: sql)
      throw PostgresError(kind: .query, message: "COPY did not start", statement: sql)
    }
    PQclear(start)
    var sent = true
    var offset = 0
    while offset < data.count && sent {
      let n = min(1 << 20, data.count - offset)
      sent = data.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return false }
        return base.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: n) {
          PQputCopyData(conn, $0, Int32(n)) == 1
        }
      }
      offset += n
    }
    let ended = PQputCopyEnd(conn, sent ? nil : "client could not send the rows") == 1
    var failure: PostgresError?
    while let result = PQgetResult(conn) {
      if failure == nil {
        do throws(PostgresError) { try check(result, conn: conn, statement: sql) } catch { failure = error }
      }
      PQclear(result)
    }
    if let failure { throw failure }
    guard sent && ended else {
      throw PostgresError(
        kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)), statement: sql)
    }
  }

  func open() throws(PostgresError) -> OpaquePointer {
    guard let handle else {
      throw PostgresError(kind: .connection, message: "connection is closed")
    }
    if PQstatus(handle) != CONNECTION_OK {
      PQreset(handle)
      guard PQstatus(handle) == CONNECTION_OK else {
        throw PostgresError(
          kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(handle)))
      }
      // A reset opens a new session with the server's defaults: without this it would be
      // writable, in the server's time zone and on the default search path.
      if let sessionSetup {
        let result = PQexec(handle, sessionSetup)
        defer { PQclear(result) }
        do throws(PostgresError) {
          try check(result, conn: handle, statement: sessionSetup)
        } catch {
          close()
          throw PostgresError(
            kind: .connection,
            message: "the connection was lost and the new session could not be set up again: \(error.message)")
        }
      }
    }
    return handle
  }

  func check(_ result: OpaquePointer?, conn: OpaquePointer, statement: String)
    throws(PostgresError)
  {
    guard let result else {
      throw PostgresError(
        kind: .connection, message: PostgresConnection.errorText(PQerrorMessage(conn)),
        statement: statement)
    }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
      return
    default:
      var sqlState: String?
      if let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
        sqlState = String(cString: code)
      }
      var message = PostgresConnection.errorText(PQresultErrorMessage(result)).trimmingCharacters(
        in: .whitespacesAndNewlines)
      if let hint = PostgresTimeouts.hint(sqlState: sqlState, message: message) { message += " (\(hint))" }
      throw PostgresError(kind: .query, message: message, sqlState: sqlState, statement: statement)
    }
  }

  static func rows(of result: OpaquePointer?, statement: String) throws(PostgresError)
    -> [[PostgresCell]]
  {
    guard let result, PQresultStatus(result) == PGRES_TUPLES_OK || PQresultStatus(result) == PGRES_SINGLE_TUPLE else {
      return []
    }
    let rowCount = PQntuples(result)
    let columnCount = PQnfields(result)
    let types = (0..<columnCount).map { PQftype(result, $0) }
    var rows: [[PostgresCell]] = []
    rows.reserveCapacity(Int(rowCount))
    for r in 0..<rowCount {
      var row: [PostgresCell] = []
      row.reserveCapacity(Int(columnCount))
      for c in 0..<columnCount {
        if PQgetisnull(result, r, c) != 0 {
          row.append(PostgresCell(type: types[Int(c)], text: nil))
          continue
        }
        let length = Int(PQgetlength(result, r, c))
        guard let bytes = PQgetvalue(result, r, c), length >= 0 else {
          throw PostgresError(
            kind: .result, message: "libpq returned no value for row \(r) column \(c)",
            statement: statement)
        }
        let text = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
          String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        row.append(PostgresCell(type: types[Int(c)], text: text))
      }
      rows.append(row)
    }
    return rows
  }

  static func errorText(_ pointer: UnsafePointer<CChar>?) -> String {
    guard let pointer else { return "unknown libpq error" }
    return String(cString: pointer)
  }
}

/// C arrays for `PQexecParams`, allocated together and freed with `deallocate()`.
struct ParameterBuffers {
  let types: UnsafeMutablePointer<Oid>
  let values: UnsafeMutablePointer<UnsafePointer<CChar>?>
  let lengths: UnsafeMutablePointer<Int32>
  let formats: UnsafeMutablePointer<Int32>
  private let storage: [UnsafeMutablePointer<CChar>?]
  private let count: Int

  init(_ parameters: [PostgresWireParameter]) {
    count = parameters.count
    let n = max(count, 1)
    types = .allocate(capacity: n)
    values = .allocate(capacity: n)
    lengths = .allocate(capacity: n)
    formats = .allocate(capacity: n)
    var storage: [UnsafeMutablePointer<CChar>?] = []
    for (i, p) in parameters.enumerated() {
      types[i] = p.type
      formats[i] = p.isBinary ? 1 : 0
      guard let bytes = p.bytes else {
        values[i] = nil
        lengths[i] = 0
        storage.append(nil)
        continue
      }
      // Text parameters are NUL-terminated C strings; binary ones use the explicit length.
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      bytes.withUnsafeBytes { raw in
        for (j, b) in raw.enumerated() { buffer[j] = CChar(bitPattern: b) }
      }
      buffer[bytes.count] = 0
      values[i] = UnsafePointer(buffer)
      lengths[i] = Int32(clamping: bytes.count)
      storage.append(buffer)
    }
    self.storage = storage
  }

  func deallocate() {
    for buffer in storage { buffer?.deallocate() }
    types.deallocate()
    values.deallocate()
    lengths.deallocate()
    formats.deallocate()
  }
}
