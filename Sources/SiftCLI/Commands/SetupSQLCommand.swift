import Foundation
import SiftMySQL
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
/// MySQL/MariaDB: prints `MySQLDialect.setupSQL` (the database `sift` and its functions, `CREATE
/// OR REPLACE`); with `--mysql URL` it runs it on that server (an explicit write: the database
/// `sift` only). SQLite: functions live in the connection, not the file, so nothing
/// is printed to run; the text explains `SQLiteFunctions.register(on:)`. With `--live`: live push
/// mode's publication and replication slot (`SetupSQLLive`).
enum SetupSQLCommand: SiftSubcommand {
  static let name = "setup-sql"
  static let options = CommandOptions(
    valued: ["--dialect", "--postgres", "--mysql", "--grant", "--pg-schema", "--entity", "--table", "--slot"],
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
      return CLIOutput.usageError("setup-sql needs --dialect postgres, mysql or sqlite", command: "setup-sql")
    }
    let grantees = parsed.all("--grant").flatMap { $0.split(separator: ",").map(String.init) }
    if grantees.contains(where: { $0.isEmpty }) {
      return CLIOutput.usageError("--grant needs a role name", command: "setup-sql")
    }
    let kind = ExistingDatabase.Kind(dialectName: dialect)
    if parsed.value("--postgres") != nil && kind != .postgres {
      return CLIOutput.usageError("--postgres goes with --dialect postgres", command: "setup-sql")
    }
    if parsed.value("--mysql") != nil && kind != .mysql {
      return CLIOutput.usageError("--mysql goes with --dialect mysql", command: "setup-sql")
    }
    if !grantees.isEmpty && kind != .postgres {
      return CLIOutput.usageError("--grant is for --dialect postgres", command: "setup-sql")
    }
    switch kind {
    case .postgres?:
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
    case .mysql?:
      if let url = parsed.value("--mysql") { return installMySQL(url) }
      print(mysqlText)
      return .success
    case .sqlite?:
      print(sqliteText)
      return .success
    case nil:
      return CLIOutput.usageError(
        "unknown dialect '\(dialect)'; use \(ExistingDatabase.Kind.dialectNames)", command: "setup-sql")
    }
  }

  /// The MySQL/MariaDB setup as a script for the `mariadb`/`mysql` client: its bodies hold `;`,
  /// so each statement ends with the `$$` delimiter.
  static var mysqlText: String {
    let database = MySQLDialect.defaultFunctionDatabase
    var lines = [
      "-- Sift's SQL functions for MySQL/MariaDB (idempotent: CREATE OR REPLACE; re-run after upgrading Sift).",
      "-- Creates the database \(database) (nothing else) and its functions, which compiled SQL calls",
      "-- as \(database).sift_fold, ...: run once per server as a user that may create them:",
      "--   sift setup-sql --dialect mysql | mariadb -u root",
      "-- then let the users that query call them: GRANT EXECUTE ON \(database).* TO 'app'@'%';",
      "DELIMITER $$",
      "",
    ]
    for statement in MySQLDialect.setupSQL(database: database) {
      lines.append(statement.trimmingCharacters(in: .whitespacesAndNewlines) + " $$")
      lines.append("")
    }
    lines.append("DELIMITER ;")
    return lines.joined(separator: "\n")
  }

  /// Runs the MySQL/MariaDB setup on the server `url` names, one statement at a time, and says
  /// what it did; a user that may not create the database or its functions is an error (exit 1).
  static func installMySQL(_ url: String) -> ExitStatus {
    do {
      let db = try MySQLDatabase(url: url, readOnly: false)
      defer { db.close() }
      try db.prepareSiftFunctions()
      print(
        "created or updated Sift's SQL functions in database \(MySQLDialect.defaultFunctionDatabase) on "
          + "\((try? MySQLURL(url))?.server ?? "the server"); grant EXECUTE on it to the users that query")
      return .success
    } catch {
      CLIOutput.error(TerminalText.escaped("sift setup-sql: \(error.message)", keeping: ["\t"]))
      return .failure
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
