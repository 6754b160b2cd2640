import Foundation
import SiftPostgres
import SiftSQL

/// `sift setup-sql --dialect postgres|sqlite`: what a database needs before it runs statements
/// that call Sift's SQL functions (`sift_fold` for `[c]`/`[d]`, `sift_fdiv`, …).
///
/// PostgreSQL: prints `PostgreSQLDialect.setupSQL`, an idempotent migration (`CREATE SCHEMA sift`,
/// `CREATE OR REPLACE FUNCTION sift.sift_fold …`) to run once per database, e.g. `sift setup-sql
/// --dialect postgres | psql "$DATABASE_URL"`; with `--postgres CONNINFO` it runs it itself (an
/// explicit write: the schema `sift` only, nothing of the user's). Both grant `USAGE` on the schema and
/// `EXECUTE` on its functions to `PUBLIC`, or with `--grant ROLE` (repeatable, or `a,b`) to those
/// roles alone. A role that may not create or grant them fails (exit 1), never "nothing changed".
/// SQLite: functions live in the connection, not the file, so nothing
/// is printed to run; the text explains `SQLiteFunctions.register(on:)`. With `--live`: live push
/// mode's publication and replication slot (`SetupSQLLive`).
enum SetupSQLCommand: SiftSubcommand {
  static let name = "setup-sql"
  static let options = CommandOptions(
    valued: ["--dialect", "--postgres", "--grant", "--pg-schema", "--entity", "--table", "--slot"],
    switches: ["--live", "--drop"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static let sqliteText = """
    -- SQLite keeps functions in the connection, not in the database file: there is no
    -- migration to run. Register Sift's functions (sift_fold, sift_search, sift_like,
    -- sift_matches, regexp, sift_pow, ..., collation SIFT_LOCALIZED) once on every connection
    -- that runs statements compiled by Sift, from any SQLite library that exposes the
    -- connection's sqlite3* handle:
    --
    --   import SiftSQLite
    --   var handle: OpaquePointer?
    --   if sqlite3_open_v2("app.sqlite", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
    --     let handle {
    --     SQLiteFunctions.register(on: handle)
    --   }
    --
    -- SiftSQLite's own SQLiteDatabase does this when it opens a connection.
    """

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "setup-sql")
    }
    if parsed.flags.contains("--live") {
      guard parsed.positionals.isEmpty else {
        return CLIOutput.usageError("setup-sql takes no positional arguments", command: "setup-sql")
      }
      return SetupSQLLive.run(parsed)
    }
    for live in ["--drop", "--pg-schema", "--entity", "--table", "--slot"]
    where parsed.flags.contains(live) || parsed.value(live) != nil {
      return CLIOutput.usageError("\(live) goes with --live (push mode's setup)", command: "setup-sql")
    }
    guard parsed.positionals.isEmpty, let dialect = parsed.value("--dialect") else {
      return CLIOutput.usageError("setup-sql needs --dialect postgres or --dialect sqlite", command: "setup-sql")
    }
    let grantees = parsed.all("--grant").flatMap { $0.split(separator: ",").map(String.init) }
    if grantees.contains(where: { $0.isEmpty }) {
      return CLIOutput.usageError("--grant needs a role name", command: "setup-sql")
    }
    switch dialect {
    case "postgres", "postgresql":
      if let conninfo = parsed.value("--postgres") { return install(conninfo, grantees: grantees) }
      print("-- Sift's SQL functions for PostgreSQL (idempotent: CREATE OR REPLACE; re-run after upgrading Sift).")
      print(
        "-- Run once per database (creates the schema sift): sift setup-sql --dialect postgres | psql \"$DATABASE_URL\""
      )
      // One transaction under the lock `prepareSiftFunctions()` takes: setups at once do not collide.
      print("BEGIN;")
      print("SELECT pg_advisory_xact_lock(hashtext('sift setup-sql'));")
      print("")
      for statement in PostgreSQLDialect.setupSQL(schema: PostgreSQLDialect.defaultFunctionSchema, grantees: grantees) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        print(trimmed.hasSuffix(";") ? trimmed : trimmed + ";")
        print("")
      }
      print("COMMIT;")
      return .success
    case "sqlite":
      if !grantees.isEmpty { return CLIOutput.usageError("--grant is for --dialect postgres", command: "setup-sql") }
      print(sqliteText)
      return .success
    default:
      return CLIOutput.usageError("unknown dialect '\(dialect)'; use postgres or sqlite", command: "setup-sql")
    }
  }

  /// Runs the setup on the database `conninfo` names and says what it did in one line; a role
  /// that may not create, grant or use the functions is an error (exit 1).
  static func install(_ conninfo: String, grantees: [String]) -> ExitStatus {
    do {
      let db = try PostgresDatabase(conninfo: conninfo)
      defer { db.close() }
      let created = try db.prepareSiftFunctions(grantees: grantees)
      let to = grantees.isEmpty ? "PUBLIC" : grantees.joined(separator: ", ")
      print(
        created
          ? "created or updated Sift's SQL functions in schema sift, usable by \(to) (setup \(PostgreSQLDialect.setupVersion))"
          : "schema sift already holds Sift's SQL functions, usable by \(to) (setup \(PostgreSQLDialect.setupVersion)); "
            + "nothing changed")
      return .success
    } catch {
      CLIOutput.error(TerminalText.escaped("sift setup-sql: \(error)", keeping: ["\t"]))
      return .failure
    }
  }
}
