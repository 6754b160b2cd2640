import Foundation
import SiftPostgres
import SiftSyntax
import Testing

@testable import SiftLivePostgres

/// The read-only mode's cheap look: `pg_current_snapshot()` text changes with every commit
/// (Grammar/notes/live.md, "PostgreSQL").
@Suite("PostgreSQL live: snapshot polling")
struct PostgresLivePollingTests {
  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func everyCommitChangesTheSnapshot() throws {
    let db = try LivePostgresServer.open()
    defer { db.close() }
    let other = try PostgresDatabase(conninfo: LivePostgresServer.conninfo ?? "")
    defer { other.close() }
    try db.run("CREATE TABLE t (id int8 PRIMARY KEY, v int8)")
    let table = "\(PostgresDatabase.quoteIdentifier(db.schemaName ?? "")).t"
    let source = PostgresLivePolling(interval: 0.01)
    try source.start(database: db, conninfo: LivePostgresServer.conninfo ?? "")
    for i in 0..<20 {
      // A transaction that began (took its id) before the look and commits after it, and
      // one that begins and commits after it: both are seen.
      try other.run("BEGIN; INSERT INTO \(table) VALUES (\(i * 2), 0)")
      _ = try source.changes(database: db, timeout: 0)
      try other.run("COMMIT")
      #expect(try source.changes(database: db, timeout: 0) == [.unknown], "commit \(i) was not seen")
      try other.run("INSERT INTO \(table) VALUES (\(i * 2 + 1), 0)")
      #expect(try source.changes(database: db, timeout: 0) == [.unknown], "autocommit \(i) was not seen")
    }
  }
}
