import Foundation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

/// A lost connection is reset by libpq with a new session: Sift applies its session settings
/// again (read-only, UTC, the search path), so a reconnected read-only connection stays
/// read-only (found by review of the live PostgreSQL work).
@Suite(
  "PostgreSQL reconnects keep the session's settings",
  .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresReconnectTests {
  @Test func aResetSessionIsReadOnlyInUTCOnTheSameSchema() throws {
    let conninfo = try #require(PostgresTestServer.conninfo)
    let admin = try PostgresDatabase(conninfo: conninfo, schema: .temporary())
    defer { admin.close() }
    let schema = try #require(admin.schemaName)
    try admin.run("CREATE TABLE marker (id int8 PRIMARY KEY)")
    try admin.run("INSERT INTO marker VALUES (7)")
    let db = try PostgresDatabase(conninfo: conninfo, schema: .named(schema), readOnly: true)
    defer { db.close() }
    let pid = try #require(try db.execute(SQLStatement(sql: "SELECT pg_backend_pid()")).first?.first?.intValue)
    try admin.run("SELECT pg_terminate_backend(\(pid))")
    // The first statement after the kill may fail (the server closed the session); the next
    // one runs on the reset session.
    _ = try? db.execute(SQLStatement(sql: "SELECT 1"))
    let settings = try db.execute(
      SQLStatement(
        sql: "SELECT current_setting('default_transaction_read_only'), current_setting('TimeZone'), "
          + "(SELECT id FROM marker), pg_backend_pid()"))
    let row = try #require(settings.first)
    #expect(row[0] == .text("on"))
    #expect(row[1] == .text("UTC"))
    #expect(row[2] == .integer(7))  // the unqualified name found on the connection's schema
    #expect(row[3] != .integer(pid))
    #expect(throws: SiftError.self) { try db.run("INSERT INTO marker VALUES (8)") }
  }
}
