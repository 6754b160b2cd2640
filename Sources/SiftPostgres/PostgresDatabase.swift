import Foundation
import SiftSQL
import SiftSyntax

/// A connection to a PostgreSQL server (through libpq) that runs Sift's compiled SQL.
///
/// It binds `$1…$n` parameters (text format for scalars, binary `bytea` for bytes), converts
/// result cells back by column type, reports every failure as a `SiftError` whose `underlying`
/// `PostgresError` carries the server's message and SQLSTATE, and closes the connection (`PQfinish`) on `close()` or deinit.
///
/// With `schema: .temporary()` it creates a fresh schema (`sift_test_<random>`), points
/// `search_path` at it so tables and Sift's helper functions land there, and drops it
/// (`CASCADE`) when closed — tests can share one database without seeing each other.
///
/// Thread safety: one instance may be shared between threads; an internal lock serializes
/// every call, so statements on one connection never interleave. For parallel work open
/// several instances.
///
/// ```swift
/// let db = try PostgresDatabase(
///   conninfo: "host=127.0.0.1 user=sift password=sift dbname=sift", schema: .temporary())
/// let rows = try db.query("SELECT $1::int8 + 1", [.int(41)])   // [[.int(42)]]
/// ```
public final class PostgresDatabase: @unchecked Sendable {
  /// Which schema the connection works in.
  public enum Schema: Sendable, Hashable {
    /// Whatever the server's `search_path` says; nothing is created or dropped.
    case current
    /// `CREATE SCHEMA IF NOT EXISTS name`, then `SET search_path TO name, public`; kept on close.
    case named(String)
    /// A fresh schema `<prefix>_<random hex>`, used like `.named`, dropped with `CASCADE` on close.
    case temporary(prefix: String = "sift_test")
  }

  private let lock = NSLock()
  private let connection: PostgresConnection
  private let dropsSchemaOnClose: Bool

  /// The schema the connection works in (nil for `.current`).
  ///
  /// ```swift
  /// try PostgresDatabase(conninfo: info, schema: .temporary()).schemaName   // "sift_test_3f9c…"
  /// ```
  public let schemaName: String?

  /// True for a connection opened with `readOnly: true`.
  public let isReadOnly: Bool

  /// Schemas given to `fetch`/`fetchCount` already checked against the database (on first use).
  let schemaChecks = SQLSchemaCheckCache()

  /// Sift SQL functions already found on this connection (see `checkSiftFunctions(_:)`).
  private var foundSiftFunctions: Set<String> = []

  /// The names in `names` not yet found on this connection.
  func siftFunctionsToCheck(_ names: [String]) -> [String] {
    lock.lock()
    defer { lock.unlock() }
    return names.filter { !foundSiftFunctions.contains($0) }
  }

  /// Remembers functions found on this connection (a function is not looked up twice).
  func rememberSiftFunctions(_ names: [String]) {
    lock.lock()
    defer { lock.unlock() }
    foundSiftFunctions.formUnion(names)
  }

  /// Connects, selects or creates the schema, and sets session defaults (UTF8, UTC,
  /// `extra_float_digits = 3` for exact doubles, `bytea_output = hex`).
  ///
  /// ```swift
  /// let db = try PostgresDatabase(conninfo: "postgresql://sift:sift@127.0.0.1/sift")
  /// ```
  ///
  /// With `readOnly: true` the session's transactions are read-only
  /// (`default_transaction_read_only`), so nothing run on it can change the database, and a
  /// `.named` schema is only put first in `search_path`, never created (`.temporary` is refused):
  /// the way to open a database Sift did not create.
  ///
  /// ```swift
  /// let db = try PostgresDatabase(conninfo: info, readOnly: true)
  /// let schema = try db.introspectSchema(named: "public").schema
  /// ```
  ///
  /// Waiting is bounded by `timeouts` (`PostgresTimeouts.standard`: connect 10 s, lock 10 s,
  /// statement 300 s) wherever the conninfo or the server does not set its own.
  /// - Throws: `SiftError` (stage `.sql`, id `postgres-connection` when the server is
  ///   unreachable, does not answer within the connect timeout, or refuses login; the message
  ///   names the host and port; the `PostgresError` is its `underlying`).
  public convenience init(
    conninfo: String, schema: Schema = .current, readOnly: Bool = false, timeouts: PostgresTimeouts = .standard
  ) throws(SiftError) {
    do throws(PostgresError) {
      try self.init(connecting: conninfo, schema: schema, readOnly: readOnly, timeouts: timeouts)
    } catch {
      throw error.siftError
    }
  }

  init(connecting conninfo: String, schema: Schema, readOnly: Bool, timeouts: PostgresTimeouts) throws(PostgresError) {
    if readOnly, case .temporary = schema {
      throw PostgresError(kind: .connection, message: "a read-only connection cannot create a temporary schema")
    }
    if case .named(let name) = schema, name.isEmpty {
      throw PostgresError(
        kind: .connection, message: "the schema name is empty; name an existing schema (for example public)")
    }
    connection = try PostgresConnection(conninfo: conninfo, connectTimeout: timeouts.connect)
    isReadOnly = readOnly
    switch schema {
    case .current:
      schemaName = nil
      dropsSchemaOnClose = false
    case .named(let name):
      schemaName = name
      dropsSchemaOnClose = false
    case .temporary(let prefix):
      schemaName = "\(prefix)_\(PostgresDatabase.randomSuffix())"
      dropsSchemaOnClose = true
    }
    var setup = "SET client_min_messages = warning; SET TimeZone = 'UTC'; "
    setup += "SET extra_float_digits = 3; SET bytea_output = 'hex';"
    if let schemaName {
      let quoted = PostgresDatabase.quoteIdentifier(schemaName)
      if !readOnly { setup += " CREATE SCHEMA IF NOT EXISTS \(quoted);" }
      setup += " SET search_path TO \(quoted), public;"
    }
    if readOnly { setup += " SET default_transaction_read_only = on;" }
    do {
      let sources = try connection.execute(
        "SELECT name, source FROM pg_settings WHERE name IN ('lock_timeout', 'statement_timeout')", parameters: [])
      var bySetting: [String: String] = [:]
      for row in sources where row.count == 2 {
        if let name = row[0].text, let source = row[1].text { bySetting[name] = source }
      }
      setup += timeouts.settings(sources: bySetting)
      try connection.executeScript(setup)
      connection.sessionSetup = setup
    } catch {
      connection.close()
      throw error
    }
  }

  deinit { close() }

  /// Drops a `.temporary` schema (errors ignored: the server may already be gone) and closes
  /// the connection. Safe to call twice; later statements throw `.connection` errors.
  ///
  /// ```swift
  /// db.close()
  /// ```
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    guard connection.isOpen else { return }
    if dropsSchemaOnClose, let schemaName {
      try? connection.executeScript(
        "DROP SCHEMA IF EXISTS \(PostgresDatabase.quoteIdentifier(schemaName)) CASCADE")
    }
    connection.close()
  }

  /// Runs a script of `;`-separated statements without parameters (simple query protocol).
  ///
  /// ```swift
  /// try db.run("CREATE TABLE t (a int8); INSERT INTO t VALUES (1)")
  /// ```
  /// - Throws: `SiftError` (stage `.sql`; the `PostgresError` with its SQLSTATE as `underlying`).
  public func run(_ script: String) throws(SiftError) {
    do throws(PostgresError) { try runScript(script) } catch { throw error.siftError }
  }

  func runScript(_ script: String) throws(PostgresError) {
    lock.lock()
    defer { lock.unlock() }
    try connection.executeScript(script)
  }

  /// Runs `COPY … FROM STDIN` with `data` (COPY text format) as its rows.
  func copyIn(_ sql: String, data: [UInt8]) throws(PostgresError) {
    lock.lock()
    defer { lock.unlock() }
    try connection.copyIn(sql, data: data)
  }

  /// Runs one statement with `$n` parameters and returns its rows, decoded by column type.
  func query(
    _ sql: String, _ values: [PostgresWireValue], canceller: PostgresCanceller? = nil, afterRow: ((Int) -> Bool)? = nil,
    waiting: (Int) -> Void = { _ in }
  ) throws(PostgresError) -> [[PostgresWireValue]] {
    var parameters: [PostgresWireParameter] = []
    parameters.reserveCapacity(values.count)
    for (i, value) in values.enumerated() {
      do {
        parameters.append(try PostgresWireParameter.encode(value))
      } catch {
        throw PostgresError(
          kind: error.kind, message: "parameter $\(i + 1): \(error.message)", statement: sql)
      }
    }
    lock.lock()
    defer { lock.unlock() }
    let cells: [[PostgresCell]]
    if let canceller, let afterRow {
      cells = try connection.executeRows(
        sql, parameters: parameters, canceller: canceller, afterRow: afterRow, waiting: waiting)
    } else {
      cells = try connection.execute(sql, parameters: parameters)
    }
    var rows: [[PostgresWireValue]] = []
    rows.reserveCapacity(cells.count)
    for row in cells {
      var decoded: [PostgresWireValue] = []
      decoded.reserveCapacity(row.count)
      for cell in row {
        do {
          decoded.append(try cell.decode())
        } catch {
          throw PostgresError(kind: .result, message: error.message, statement: sql)
        }
      }
      rows.append(decoded)
    }
    return rows
  }

  /// `"name"` with embedded `"` doubled, safe to splice into SQL as an identifier.
  ///
  /// ```swift
  /// PostgresDatabase.quoteIdentifier("a\"b")   // "a""b"
  /// ```
  public static func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  private static func randomSuffix() -> String {
    var generator = SystemRandomNumberGenerator()
    let n = generator.next() as UInt64
    let hex = String(n, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
