import Foundation
import SiftPostgres
import SiftSyntax
import SiftTestSupport
import Testing

/// Nothing waits on PostgreSQL without a bound: a server that accepts the connection and never
/// answers, and a table another session keeps locked, end in a timeout error naming the fix.
@Suite("PostgreSQL timeouts")
struct PostgresTimeoutTests {
  /// A TCP listener on a free loopback port that completes the handshake (the kernel does)
  /// and never reads or answers. Returns the socket (close it) and the port.
  static func silentListener() throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    #expect(bound == 0)
    #expect(listen(fd, 8) == 0)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  @Test func serverThatNeverAnswersTimesOut() throws {
    let (fd, port) = try Self.silentListener()
    defer { close(fd) }
    let start = Date()
    do {
      _ = try PostgresDatabase(
        conninfo: "host=127.0.0.1 port=\(port) user=sift dbname=sift sslmode=disable",
        timeouts: PostgresTimeouts(connect: 2, lock: 1, statement: 1))
      Issue.record("connected to a server that never answers")
    } catch {
      #expect(error.kind == .connection)
      #expect(error.message.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:\(port): "))
      #expect(error.message.contains("timeout expired"))
      #expect(error.message.contains("connect_timeout"))
    }
    let elapsed = Date().timeIntervalSince(start)
    #expect(elapsed < 6, "waited \(elapsed) s")
  }

  /// The conninfo's own connect_timeout wins over Sift's default.
  @Test func conninfoTimeoutWins() throws {
    let (fd, port) = try Self.silentListener()
    defer { close(fd) }
    let start = Date()
    expectSiftError(id: "postgres-connection", stage: .sql) {
      _ = try PostgresDatabase(
        conninfo: "host=127.0.0.1 port=\(port) user=sift dbname=sift sslmode=disable connect_timeout=2",
        timeouts: PostgresTimeouts(connect: 60, lock: 1, statement: 1))
    }
    #expect(Date().timeIntervalSince(start) < 6)
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func lockedTableTimesOut() throws {
    let owner = try PostgresTestServer.open()
    defer { owner.close() }
    let schema = try #require(owner.schemaName)
    try owner.run("CREATE TABLE t (a int8); INSERT INTO t VALUES (1)")
    try owner.run("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
    let conninfo = try #require(PostgresTestServer.conninfo)
    let reader = try PostgresDatabase(
      conninfo: conninfo, schema: .named(schema), readOnly: true,
      timeouts: PostgresTimeouts(connect: 5, lock: 0.5, statement: 30))
    defer { reader.close() }
    let start = Date()
    do {
      try reader.run("SELECT count(*) FROM t")
      Issue.record("read a locked table")
    } catch {
      #expect(error.sqlState == "55P03")
      #expect(error.message.contains("canceling statement due to lock timeout"))
      #expect(error.message.contains("lock_timeout"))
    }
    #expect(Date().timeIntervalSince(start) < 5)
    // The conninfo's options win over the API's value.
    let patient = try PostgresDatabase(
      conninfo: conninfo + " options='-c lock_timeout=700'", schema: .named(schema), readOnly: true,
      timeouts: PostgresTimeouts(connect: 5, lock: 60, statement: 30))
    defer { patient.close() }
    let again = Date()
    expectSiftError(id: "postgres-query", stage: .sql) { try patient.run("SELECT count(*) FROM t") }
    #expect(Date().timeIntervalSince(again) < 5)
    try owner.run("ROLLBACK")
    try reader.run("SELECT count(*) FROM t")
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func longStatementTimesOut() throws {
    let conninfo = try #require(PostgresTestServer.conninfo)
    let db = try PostgresDatabase(
      conninfo: conninfo, readOnly: true, timeouts: PostgresTimeouts(connect: 5, lock: 1, statement: 0.3))
    defer { db.close() }
    do {
      try db.run("SELECT pg_sleep(5)")
      Issue.record("slept past the statement timeout")
    } catch {
      #expect(error.sqlState == "57014")
      #expect(error.message.contains("statement_timeout"))
    }
  }

  @Test func emptySchemaNameIsRefused() throws {
    do {
      _ = try PostgresDatabase(conninfo: "host=127.0.0.1 port=1", schema: .named(""), readOnly: true)
      Issue.record("accepted an empty schema name")
    } catch {
      #expect(error.message == "the schema name is empty; name an existing schema (for example public)")
    }
  }
}
