import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

/// A write of several statements is one transaction: when a later statement fails, the earlier
/// ones are undone.
@Suite("Writes are one transaction")
struct TransactionalWriteTests {
  /// The batch delete's clean-up statement fails (its side table was dropped): the DELETE
  /// before it is rolled back, every venue is still there.
  @Test func batchDeleteWhoseCleanUpFailsChangesNothing() throws {
    let db = try SQLiteDatabase()
    try db.load(SQLFixtures.records, entity: "Venue", schema: SQLFixtures.schema, dialect: SQLiteDialect())
    try db.executeScript("DROP TABLE \"venue__tags\"")
    let statements = try SQLFixtures.sqlite.compile(
      BatchDeleteRequest(entity: "Venue", predicate: try SiftPredicate(format: "rating == nil")))
    #expect(statements.count > 1)
    expectSiftError(id: "sqlite-error", stage: .sql, at: 0) { try db.executeTransaction(statements) }
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\"")) == [[.integer(1000)]])
    // Not inside a transaction any more: the next write works and commits.
    try db.executeTransaction([SQLStatement(sql: "DELETE FROM \"venue\" WHERE \"id\" = ?", bindings: [.integer(0)])])
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM \"venue\"")) == [[.integer(999)]])
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgresLaterStatementFailing() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    try db.run("CREATE TABLE t (a int8); INSERT INTO t VALUES (1), (2)")
    expectSiftError(id: "postgres-query", stage: .sql) {
      try db.executeTransaction([
        SQLStatement(sql: "DELETE FROM t WHERE a = $1", bindings: [.integer(1)]),
        SQLStatement(sql: "DELETE FROM no_such_table"),
      ])
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT count(*) FROM t")) == [[.integer(2)]])
  }
}
