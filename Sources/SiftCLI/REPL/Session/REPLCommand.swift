import SiftSyntax

/// A REPL command as typed: `.name arguments`. The prefix is `.` (as in sqlite3); `\` (psql)
/// and `:` are accepted as aliases, so `\d`, `\q`, `:help` work too.
///
/// ```swift
/// let c = REPLCommand.parse(".sql distance < 5")
/// c?.name        // "sql"
/// c?.argument    // "distance < 5"
/// ```
struct REPLCommand: Sendable, Hashable {
  /// The command word without its prefix, lower-cased (`sql`, `d`, `help`).
  var name: String
  /// Everything after the command word, trimmed.
  var argument: String

  /// Characters that start a command.
  static let prefixes: Set<Character> = [".", "\\", ":"]

  /// The command in `line`, or nil when the line is a predicate. A line such as `.5 > x`
  /// (a number) is a predicate, not a command.
  static func parse(_ line: String) -> REPLCommand? {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let first = trimmed.first, prefixes.contains(first) else { return nil }
    let rest = trimmed.dropFirst()
    guard let head = rest.first, head.isLetter || head == "?" else { return nil }
    let word = rest.prefix { !$0.isWhitespace }
    let argument = rest.dropFirst(word.count).trimmingCharacters(in: .whitespacesAndNewlines)
    return REPLCommand(name: word.lowercased(), argument: argument)
  }
}

/// What the REPL knows about a command: canonical name, aliases, usage and a summary.
///
/// ```swift
/// REPLCommandSpec.lookup("\\d")?.name   // "entities"
/// ```
struct REPLCommandSpec: Sendable {
  /// Canonical name, used after `.`.
  var name: String
  /// Other accepted names (`q`, `exit`, `d`, `?`).
  var aliases: [String]
  /// Arguments, e.g. `[PREDICATE]`.
  var usage: String
  /// One-line description.
  var summary: String
  /// Group heading in `.help`.
  var group: String

  /// Every command, in help order.
  static let all: [REPLCommandSpec] = [
    .init(
      name: "help", aliases: ["h", "?"], usage: "[COMMAND]", summary: "list commands, or explain one", group: "General"),
    .init(
      name: "quit", aliases: ["q", "exit"], usage: "", summary: "leave the REPL (Ctrl-D also works)", group: "General"),
    .init(
      name: "history", aliases: ["hist", "s"], usage: "[N]", summary: "show the last N inputs (default 20)",
      group: "General"),
    .init(
      name: "status", aliases: ["show", "conninfo"], usage: "", summary: "show the session settings", group: "General"),
    .init(name: "timer", aliases: [], usage: "[on | off]", summary: "show how long each input takes", group: "General"),
    .init(
      name: "tokens", aliases: ["tok", "lex"], usage: "PREDICATE", summary: "show the lexer's tokens", group: "Syntax"),
    .init(
      name: "ast", aliases: ["tree"], usage: "[--json] PREDICATE",
      summary: "show the syntax tree (S-expression or JSON)", group: "Syntax"),
    .init(
      name: "canon", aliases: ["format", "print"], usage: "PREDICATE", summary: "show the canonical predicateFormat",
      group: "Syntax"),
    .init(
      name: "eval", aliases: ["where"], usage: "PREDICATE", summary: "run a predicate (same as typing it)",
      group: "Query"),
    .init(
      name: "count", aliases: [], usage: "[PREDICATE]", summary: "count matches of a predicate (default: the last one)",
      group: "Query"),
    .init(
      name: "agg", aliases: ["aggregate", "stats"], usage: "KEYPATH [PREDICATE]",
      summary: "count, sum, avg, min, max of KEYPATH over the fetch", group: "Query"),
    .init(
      name: "sort", aliases: ["order"], usage: "[KEY [asc|desc], ... | none]", summary: "set or show the sort order",
      group: "Query"),
    .init(name: "limit", aliases: [], usage: "[N | none]", summary: "set or show the fetch limit", group: "Query"),
    .init(name: "offset", aliases: [], usage: "[N]", summary: "set or show the fetch offset", group: "Query"),
    .init(
      name: "rows", aliases: [], usage: "[N]", summary: "set or show how many rows a table shows (default 10)",
      group: "Query"),
    .init(
      name: "columns", aliases: ["cols"], usage: "[KEY, ... | default | *]", summary: "set or show the table columns",
      group: "Query"),
    .init(
      name: "args", aliases: ["arg", "bind"], usage: "[JSON, ... | clear]",
      summary: "set or list the %@ / %K arguments", group: "Query"),
    .init(name: "let", aliases: ["set"], usage: "NAME = JSON", summary: "set the $NAME variable", group: "Query"),
    .init(name: "unset", aliases: [], usage: "NAME", summary: "remove a $NAME variable", group: "Query"),
    .init(name: "vars", aliases: ["variables"], usage: "", summary: "list the $VARIABLES", group: "Query"),
    .init(
      name: "engine", aliases: ["mode"], usage: "[memory | sqlite | postgres]", summary: "where typed predicates run",
      group: "Query"),
    .init(
      name: "sql", aliases: [], usage: "[PREDICATE]", summary: "show the SQL and bindings for the current dialect",
      group: "SQL"),
    .init(
      name: "plan", aliases: ["explain"], usage: "[PREDICATE]",
      summary: "show the query plan (on a database, its own) and whether an index serves it", group: "SQL"),
    .init(
      name: "compare", aliases: ["diff", "check"], usage: "[PREDICATE]",
      summary: "run in memory and in SQL; report rows that differ (on a database: its rows, read as typed)",
      group: "SQL"),
    .init(
      name: "dialect", aliases: [], usage: "[sqlite | postgres]",
      summary: "set or show the SQL dialect (on a database: its own)", group: "SQL"),
    .init(
      name: "connect", aliases: ["c"], usage: "CONNINFO [--pg-schema NAME]",
      summary: "connect to PostgreSQL (scratch schema); --pg-schema: query that schema read-only", group: "SQL"),
    .init(
      name: "watch", aliases: [], usage: "[PRED] [--section K] [--id K]",
      summary: "keep the fetch current, print each change (off: stop); a database table too", group: "Live"),
    .init(
      name: "insert", aliases: [], usage: "{RECORD}",
      summary: "insert a record into the watched results (a table: with sift --db F --write)", group: "Live"),
    .init(
      name: "update", aliases: [], usage: "ID {KEY: JSON, ...}", summary: "change a watched record's keys",
      group: "Live"),
    .init(name: "delete", aliases: [], usage: "ID", summary: "delete a watched record", group: "Live"),
    .init(name: "entities", aliases: ["tables", "d", "dt"], usage: "", summary: "list the entities", group: "Data"),
    .init(
      name: "schema", aliases: ["attributes", "describe"], usage: "[ENTITY]", summary: "list an entity's attributes",
      group: "Data"),
    .init(name: "use", aliases: ["entity"], usage: "ENTITY", summary: "switch the current entity", group: "Data"),
    .init(
      name: "load", aliases: ["import", "i"], usage: "FILE [--as N] [--schema F] [--dates D]",
      summary: "load JSON records as an entity", group: "Data"),
    .init(
      name: "open", aliases: [], usage: "FILE.sqlite [--schema S] [--model M]",
      summary: "query a SQLite file's tables or a Core Data store (read-only)", group: "Data"),
    .init(
      name: "fetch", aliases: [], usage: "TEMPLATE [NAME=JSON]...",
      summary: "run a Core Data fetch request template (sift --db STORE --model M)", group: "Data"),
    .init(
      name: "generate", aliases: ["gen"], usage: "N [--as NAME]",
      summary: "make N synthetic venue records (default name: generated)", group: "Data"),
  ]

  /// The spec for a name or alias (case-insensitive, without the prefix).
  static func lookup(_ name: String) -> REPLCommandSpec? {
    let n = name.lowercased()
    return all.first { $0.name == n || $0.aliases.contains(n) }
  }

  /// The closest command name to a misspelling, for "did you mean …?".
  static func suggestion(for name: String) -> String? {
    Spelling.closest(
      to: name, in: all.map(\.name) + all.flatMap(\.aliases).filter { $0.count > 2 },
      maxDistance: 2
    )
    .flatMap { lookup($0)?.name }
  }
}
