import Foundation
import SiftPostgres
import SiftSyntax
import Testing

@testable import SiftLivePostgres

/// The differential property test of the read-only mode, run in push mode (issue #33): the same
/// random commits from two sessions (150, key-changing updates included), streamed by logical replication (a uniquely named slot and
/// publication, dropped after), and every change set equal to refetch-and-diff.
@Suite("PostgreSQL live: push change sets equal refetch-and-diff")
struct PostgresLivePushDifferentialTests {
  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func pushChangeSetsEqualRefetchAndDiff() throws {
    let slot = "sift_livediff_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    var schema = ""
    defer {
      if let db = try? PostgresDatabase(conninfo: LivePostgresServer.conninfo ?? "") {
        _ = try? PostgresLiveSetup(name: slot, tables: []).drop(on: db)
        db.close()
      }
    }
    try PostgresLiveDifferentialTests.run(
      source: { PostgresLivePush(slot: slot, tables: [PostgresLiveTableName(schema: schema, name: "item")]) },
      commits: 150, seed: 0x5EED_0035,
      prepare: { db, name in
        schema = name
        _ = try PostgresLiveSetup(name: slot, tables: [(name, "item")]).apply(on: db)
      })
  }
}
