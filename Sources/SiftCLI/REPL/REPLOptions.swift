import Foundation
import SiftSyntax

/// The flags of `sift repl` (and of `sift` with no subcommand).
///
/// ```swift
/// let options = try REPLOptions.parse(["--keep-going", "--load", "people.json"])
/// ```
struct REPLOptions: Sendable, Equatable {
  /// Continue after a failed input in script mode.
  var keepGoing = false
  /// Never emit ANSI colors.
  var noColor = false
  /// Start without the built-in sample data.
  var noSample = false
  /// JSON files to load as entities.
  var loads: [String] = []
  /// Number of synthetic records to generate at start (`--generate N`).
  var generate: String?
  /// Entity to start on.
  var entity: String?
  /// Engine for typed predicates.
  var engine: String?
  /// PostgreSQL connection string to connect to at start.
  var postgres: String?
  /// An SQLite file to query, read-only (`--db`).
  var db: String?
  /// With `--postgres`: the existing schema to query, read-only (`--pg-schema`).
  var pgSchema: String?
  /// A MySQL/MariaDB database to query, read-only (`--mysql mysql://USER:PASSWORD@HOST:PORT/DATABASE`).
  var mysql: String?
  /// A schema file merged over what `--db`/`--pg-schema`/`--mysql` read (`--schema`).
  var schemaFile: String?
  /// A Core Data model for a `--db` store (`--model`).
  var model: String?
  /// The model's configuration whose entities the store holds (`--configuration`).
  var configuration: String?
  /// With `--db`: `.insert`/`.update`/`.delete` under `.watch` write to the file (`--write`).
  var write = false
  /// History file (nil: default `~/.sift_history`).
  var historyPath: String?
  /// Do not read or write a history file.
  var noHistory = false
  /// Inputs to run instead of reading stdin (`-c`).
  var commands: [String] = []
  /// Print each input before its output in script mode.
  var echo = false
  /// Print the help text and exit.
  var help = false

  /// The text of `sift repl --help`.
  static let helpText = """
    usage: sift [repl] [OPTIONS]

    Opens the Sift REPL on the built-in sample data (1,000 bubble-tea venues and 200 notes,
    in memory; copied into an in-memory SQLite database on first SQL use), or on your own
    database's tables with --db FILE.sqlite, --postgres CONNINFO --pg-schema NAME or --mysql URL
    (read-only: nothing is written into it). Type predicates to see matching rows;
    type .help for commands. When stdin is not a terminal the inputs are run as a script:
    `echo 'distance < 5' | sift` or `sift < queries.txt`.

    options:
      -c, --command INPUT   run INPUT (a predicate or .command) and exit; repeatable
      --keep-going          in scripts, continue after an error (exit status 1 at the end); a
                            command that does not apply to the data source never stops a script
      --echo                in scripts, print each input before its output
      --load FILE           load a JSON file (array or JSON Lines) as an entity; repeatable
      --no-sample           start without the sample data
      --generate N          add N synthetic venue records as entity 'generated' (e.g. 1000000)
      --entity NAME         start on entity NAME
      --engine KIND         run typed predicates in memory (default), sqlite or postgres
      --db FILE.sqlite      query FILE's tables, read-only (no sample data unless --load)
      --postgres CONNINFO   connect to PostgreSQL at start (e.g. "dbname=sift"): a scratch
                            schema for JSON data, or with --pg-schema NAME that schema's tables
      --pg-schema NAME      with --postgres: query schema NAME's tables, read-only
      --mysql URL           query a MySQL/MariaDB database's tables, read-only
                            (mysql://USER:PASSWORD@HOST:PORT/DATABASE)
      --schema S.json       with --db, --pg-schema or --mysql: a schema file that overrides or adds
      --model MODEL         with --db on a Core Data store: its .xcdatamodeld (keys as in the
                            model, fetch request templates for .fetch); without it keys are
                            the column names without Z, lower-cased
      --configuration NAME  with --model: only that configuration's entities
      --write               with --db: .insert, .update and .delete under .watch write to the
                            watched table, one transaction each (as sift watch --write)
      --history FILE        history file (default ~/.sift_history)
      --no-history          keep no history file
      --no-color            no ANSI colors (also when NO_COLOR is set or output is not a terminal)
      -h, --help            show this help

    examples:
      sift
      sift --db notes.sqlite -c ".count title BEGINSWITH[c] 'meet'"
      echo 'distance < 5' | sift --no-sample --load venues.json

    exit status: 0 ok, 1 an input failed (scripts), 2 usage error.
    """

  /// A usage error.
  struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong.
    var message: String
    /// The message.
    var description: String { message }
  }

  static let valued = [
    "--load", "--generate", "--entity", "--engine", "--postgres", "--history", "--command", "-c", "--db", "--pg-schema",
    "--mysql", "--schema", "--model", "--configuration",
  ]
  static let switches = [
    "--keep-going", "--no-color", "--no-sample", "--no-history", "--echo", "--write", "--help", "-h",
  ]

  /// Parses REPL flags.
  static func parse(_ args: [String]) throws(UsageError) -> REPLOptions {
    var o = REPLOptions()
    var i = 0
    while i < args.count {
      var flag = args[i]
      var inline: String?
      if flag.hasPrefix("--"), let eq = flag.firstIndex(of: "=") {
        inline = String(flag[flag.index(after: eq)...])
        flag = String(flag[..<eq])
      }
      if valued.contains(flag) {
        let value: String
        if let inline {
          value = inline
        } else {
          i += 1
          guard i < args.count else { throw UsageError(message: "\(flag) needs a value") }
          value = args[i]
        }
        switch flag {
        case "--load": o.loads.append(value)
        case "--entity": o.entity = value
        case "--generate": o.generate = value
        case "--engine":
          guard REPLEngineKind(rawValue: value) != nil else {
            throw UsageError(message: "--engine must be memory, sqlite or postgres, not '\(value)'")
          }
          o.engine = value
        case "--postgres": o.postgres = value
        case "--db": o.db = value
        case "--pg-schema": o.pgSchema = value
        case "--mysql": o.mysql = value
        case "--schema": o.schemaFile = value
        case "--model": o.model = value
        case "--configuration": o.configuration = value
        case "--history": o.historyPath = value
        default: o.commands.append(value)
        }
      } else if switches.contains(flag), inline == nil {
        switch flag {
        case "--keep-going": o.keepGoing = true
        case "--no-color": o.noColor = true
        case "--no-sample": o.noSample = true
        case "--no-history": o.noHistory = true
        case "--echo": o.echo = true
        case "--write": o.write = true
        default: o.help = true
        }
      } else if switches.contains(flag) {
        throw UsageError(message: "\(flag) does not take a value")
      } else if flag.hasPrefix("-") {
        var m = "unknown option '\(flag)'"
        if let s = Spelling.closest(to: flag, in: valued + switches, maxDistance: 3) { m += "; did you mean '\(s)'?" }
        throw UsageError(message: m)
      } else {
        throw UsageError(message: "unexpected argument '\(flag)'; pass predicates with -c or on stdin")
      }
      i += 1
    }
    if let problem = o.database.usageProblem { throw UsageError(message: problem) }
    if o.configuration != nil && o.model == nil {
      throw UsageError(message: "--configuration NAME goes with --model MODEL")
    }
    if o.model != nil && o.db == nil {
      throw UsageError(message: "--model goes with --db STORE.sqlite (a Core Data store)")
    }
    if o.write && o.db == nil {
      throw UsageError(message: "--write goes with --db FILE.sqlite (edits under .watch are written to it)")
    }
    if o.schemaFile != nil && !o.database.namesDatabase {
      throw UsageError(
        message: "--schema goes with --db, --pg-schema or --mysql (for JSON files: .load FILE --schema S.json)")
    }
    return o
  }

  /// The existing database the options name (`--db`, `--postgres` with `--pg-schema`, `--mysql`).
  var database: DatabaseOptions {
    var d = DatabaseOptions()
    d.sqlitePath = db
    d.conninfo = postgres
    d.pgSchema = pgSchema
    d.mysqlURL = mysql
    d.schemaFile = schemaFile
    d.modelPath = model
    d.configuration = configuration
    return d
  }
}
