import Foundation
import SiftPostgres

/// `sift setup-sql --live`: the one-time setup live results' push mode needs on PostgreSQL — a
/// publication for the watched tables and a logical replication slot with `pgoutput`, both named
/// `--slot` (default `sift_live`) — printed as SQL to run, or run with `--postgres CONNINFO`
/// (after checking `wal_level`, that each table is a table with a key, not a view). `--drop`
/// removes both. Nothing else is created, in schema `sift` or anywhere.
enum SetupSQLLive {
  static func run(_ parsed: CLIArguments) -> ExitStatus {
    if let dialect = parsed.value("--dialect"), !["postgres", "postgresql"].contains(dialect) {
      return CLIOutput.usageError("--live is for PostgreSQL (--dialect postgres)", command: "setup-sql")
    }
    if parsed.value("--mysql") != nil {
      return CLIOutput.usageError("--live is for PostgreSQL (--postgres CONNINFO), not --mysql", command: "setup-sql")
    }
    if !parsed.all("--grant").isEmpty {
      return CLIOutput.usageError("--grant is for Sift's SQL functions, not --live", command: "setup-sql")
    }
    let drop = parsed.flags.contains("--drop")
    let schema = parsed.value("--pg-schema") ?? "public"
    let names = (parsed.all("--entity") + parsed.all("--table")).flatMap { $0.split(separator: ",").map(String.init) }
    if names.contains(where: \.isEmpty) {
      return CLIOutput.usageError("--entity needs a table name", command: "setup-sql")
    }
    if names.isEmpty && !drop {
      return CLIOutput.usageError(
        "setup-sql --live needs the tables to publish: --entity TABLE (repeatable) [--pg-schema S]",
        command: "setup-sql")
    }
    let slot = parsed.value("--slot") ?? PostgresLiveSetup.defaultName
    guard PostgresReplicationStream.isValidName(slot) else {
      return CLIOutput.usageError(
        "--slot '\(slot)': use lowercase letters, digits and '_' (at most 63)", command: "setup-sql")
    }
    let setup = PostgresLiveSetup(name: slot, tables: names.map { (schema, $0) })
    guard let conninfo = parsed.value("--postgres") else {
      printSQL(setup, drop: drop)
      return .success
    }
    do {
      let db = try PostgresDatabase(conninfo: conninfo)
      defer { db.close() }
      print(drop ? try setup.drop(on: db) : try setup.apply(on: db))
      return .success
    } catch {
      CLIOutput.error(TerminalText.escaped("sift setup-sql: \(error)", keeping: ["\t"]))
      return .failure
    }
  }

  static func printSQL(_ setup: PostgresLiveSetup, drop: Bool) {
    if drop {
      print("-- Removes live push mode's publication and replication slot \(setup.name).")
      for s in setup.dropStatements { print(s + ";") }
      return
    }
    print(
      """
      -- Live push mode for PostgreSQL: a publication and a logical replication slot (pgoutput),
      -- both named \(setup.name); nothing else is created. Run once, as a role with REPLICATION
      -- that owns the tables, on a server with wal_level = logical and a free replication slot
      -- and WAL sender (max_replication_slots, max_wal_senders). Each table needs a replica
      -- identity: a primary key (REPLICA IDENTITY DEFAULT) or REPLICA IDENTITY FULL; a view
      -- cannot be published (watch it read-only). Remove it all: sift setup-sql --live --drop
      """)
    for s in setup.setupStatements { print(s + ";") }
  }
}
