import Foundation
import SiftSyntax

/// The one-time setup live push mode needs on a server, and its removal: a publication for the
/// watched tables and a logical replication slot with `pgoutput`, both named `name` (default
/// `sift_live`). Nothing else is created. What the server must allow: `wal_level = logical`,
/// a role with `REPLICATION` (and ownership of the tables, for the publication), a free slot
/// (`max_replication_slots`) and WAL sender (`max_wal_senders`), and a replica identity on each
/// table — DEFAULT needs a primary key; a view cannot be published (watch it read-only).
package struct PostgresLiveSetup: Sendable {
  /// The publication's and the slot's name.
  package var name: String
  /// The tables to publish, schema-qualified.
  package var tables: [(schema: String, table: String)]

  package static let defaultName = "sift_live"

  package init(name: String = defaultName, tables: [(schema: String, table: String)]) {
    self.name = name
    self.tables = tables
  }

  private var tableList: String {
    tables.map { PostgresDatabase.quoteIdentifier($0.schema) + "." + PostgresDatabase.quoteIdentifier($0.table) }
      .joined(separator: ", ")
  }

  /// The setup as SQL to print (the name is checked to be `[a-z0-9_]`, so it is written as a
  /// literal; run by `sift setup-sql --live --postgres`, every value is bound instead).
  package var setupStatements: [String] {
    [
      "DROP PUBLICATION IF EXISTS \(name)",
      "CREATE PUBLICATION \(name) FOR TABLE \(tableList)",
      "SELECT pg_create_logical_replication_slot('\(name)', 'pgoutput') "
        + "WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = '\(name)')",
    ]
  }

  /// Removes every trace: the slot (if no one streams from it) and the publication.
  package var dropStatements: [String] {
    [
      "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '\(name)'",
      "DROP PUBLICATION IF EXISTS \(name)",
    ]
  }

  static func refused(_ message: String) -> SiftError {
    SiftError(stage: .sql, id: .livePushSetup, message: message)
  }

  private static func query(_ db: PostgresDatabase, _ sql: String, _ values: [PostgresWireValue] = [])
    throws(SiftError) -> [[PostgresWireValue]]
  {
    do throws(PostgresError) { return try db.query(sql, values) } catch { throw error.siftError }
  }

  private static func run(_ db: PostgresDatabase, _ sql: String) throws(SiftError) {
    do throws(PostgresError) { try db.runScript(sql) } catch { throw error.siftError }
  }

  /// Checks the server and the tables, then creates or updates the publication and creates the
  /// slot if missing. Returns what it did, in one line.
  package func apply(on db: PostgresDatabase) throws(SiftError) -> String {
    guard PostgresReplicationStream.isValidName(name) else {
      throw Self.refused("'\(name)' cannot name a slot: use lowercase letters, digits and '_' (1-63)")
    }
    guard !tables.isEmpty else { throw Self.refused("push mode needs at least one table to publish") }
    let level = try Self.query(db, "SELECT current_setting('wal_level')")
    guard level.first?.first == .text("logical") else {
      throw Self.refused(
        "push mode needs wal_level = logical (the server has \(Self.shown(level.first?.first))); "
          + "set it in postgresql.conf and restart, or watch read-only")
    }
    for t in tables { try check(t, on: db) }
    let exists = try Self.query(db, "SELECT 1 FROM pg_publication WHERE pubname = $1", [.text(name)])
    try Self.run(
      db,
      exists.isEmpty
        ? "CREATE PUBLICATION \(name) FOR TABLE \(tableList)" : "ALTER PUBLICATION \(name) SET TABLE \(tableList)")
    let slot = try Self.query(db, "SELECT 1 FROM pg_replication_slots WHERE slot_name = $1", [.text(name)])
    if slot.isEmpty {
      do throws(SiftError) {
        _ = try Self.query(db, "SELECT pg_create_logical_replication_slot($1, 'pgoutput')", [.text(name)])
      } catch {
        // Leave nothing behind when the slot cannot be made (no REPLICATION, no free slot).
        if exists.isEmpty { try? Self.run(db, "DROP PUBLICATION IF EXISTS \(name)") }
        throw error
      }
    }
    let list = tables.map { "\($0.schema).\($0.table)" }.joined(separator: ", ")
    return (exists.isEmpty ? "created publication \(name)" : "updated publication \(name)")
      + " for \(list); " + (slot.isEmpty ? "created" : "kept") + " logical replication slot \(name) (pgoutput)"
  }

  /// A table push mode can stream: a table (not a view), with a replica identity that names rows.
  private func check(_ t: (schema: String, table: String), on db: PostgresDatabase) throws(SiftError) {
    let rows = try Self.query(
      db,
      """
      SELECT c.relkind::text, c.relreplident::text,
        EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2
      """, [.text(t.schema), .text(t.table)])
    let shown = "\(t.schema).\(t.table)"
    guard let row = rows.first, row.count == 3 else {
      throw Self.refused("no table \(shown)")
    }
    switch row[0] {
    case .text("r"), .text("p"): break
    case .text("v"), .text("m"):
      throw Self.refused(
        "\(shown) is a view: PostgreSQL cannot publish a view's changes; watch it read-only (polling)")
    default:
      throw Self.refused("\(shown) is not a table")
    }
    switch (row[1], row[2]) {
    case (.text("n"), _):
      throw Self.refused("\(shown) has REPLICA IDENTITY NOTHING: its rows cannot be named")
    case (.text("d"), .bool(false)):
      throw Self.refused(
        "\(shown) has no primary key: add one, or ALTER TABLE … REPLICA IDENTITY FULL (or USING INDEX)")
    default: break
    }
  }

  /// Drops the slot and the publication; says what was there.
  package func drop(on db: PostgresDatabase) throws(SiftError) -> String {
    guard PostgresReplicationStream.isValidName(name) else {
      throw Self.refused("'\(name)' cannot name a slot: use lowercase letters, digits and '_' (1-63)")
    }
    // A stream closed a moment ago holds the slot until its walsender exits (SQLSTATE 55006):
    // try again for up to five seconds; a slot someone streams from stays and is an error.
    let deadline = Date().addingTimeInterval(5)
    var slot: [[PostgresWireValue]] = []
    while true {
      do throws(PostgresError) {
        slot = try db.query(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1", [.text(name)])
        break
      } catch {
        guard error.sqlState == "55006", Date() < deadline else { throw error.siftError }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    let publication = try Self.query(db, "SELECT 1 FROM pg_publication WHERE pubname = $1", [.text(name)])
    try Self.run(db, "DROP PUBLICATION IF EXISTS \(name)")
    let gone = (slot.isEmpty ? [] : ["slot \(name)"]) + (publication.isEmpty ? [] : ["publication \(name)"])
    return gone.isEmpty
      ? "no slot or publication \(name): nothing to drop" : "dropped " + gone.joined(separator: " and ")
  }

  static func shown(_ value: PostgresWireValue?) -> String {
    if case .text(let s) = value { return s }
    return "unknown"
  }
}

extension PostgresDatabase {
  /// The tables (schema, name) publication `publication` publishes; empty when there is none.
  package func publishedTables(publication: String) throws(SiftError) -> [(String, String)] {
    let rows: [[PostgresWireValue]]
    do throws(PostgresError) {
      rows = try query(
        "SELECT schemaname::text, tablename::text FROM pg_publication_tables WHERE pubname = $1",
        [
          .text(publication)
        ])
    } catch {
      throw error.siftError
    }
    return rows.compactMap { row in
      guard row.count == 2, case .text(let schema) = row[0], case .text(let table) = row[1] else { return nil }
      return (schema, table)
    }
  }
}
