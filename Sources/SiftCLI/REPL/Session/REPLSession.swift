import Foundation
import SiftSyntax

/// The REPL's state and command interpreter, independent of any terminal: feed it one complete
/// input (a predicate or a `.command`) and it returns the text to show.
///
/// ```swift
/// let session = try REPLSession.withSampleData()
/// print(session.execute("distance < 1 AND ANY tags == 'wifi'").text)
/// print(session.execute(".sql").text)
/// ```
///
/// State: the data sets (entities), the current entity, `%@` arguments, `$VARIABLES`, the
/// engine that runs typed predicates, the SQL dialect, and the fetch settings (sort, limit,
/// offset). Long evaluations check `interrupt` between records.
final class REPLSession {
  /// Entities by load order.
  var dataSets: [REPLDataSet] = []
  /// The entity typed predicates run against.
  var entity: String = ""
  /// Arguments bound to `%@`, `%K`, … in order.
  var arguments: [SiftValue] = []
  /// Values substituted for `$NAME`.
  var variables: [String: SiftValue] = [:]
  /// Where typed predicates run.
  var engine: REPLEngineKind = .memory
  /// Dialect for `.sql`.
  var dialect: REPLDialect = .sqlite
  /// Sort keys for fetches.
  var sort: [SiftSortDescriptor] = []
  /// Fetch limit (nil: all).
  var limit: Int?
  /// Fetch offset.
  var offset: Int = 0
  /// How many rows a result table shows.
  var displayRows: Int = 10
  /// Column overrides per entity.
  var columns: [String: [String]] = [:]
  /// The last predicate text that ran (used by `.sql`, `.count`, … without arguments).
  var lastPredicate: String?
  /// Inputs seen so far (the loop appends; `.history` shows them).
  var history: [String] = []
  /// Output styling.
  var style: REPLStyle
  /// Set by Ctrl-C; checked between records.
  let interrupt: InterruptFlag
  /// Receives progress lines during long evaluations (nil: silent).
  var progress: (@Sendable (String) -> Void)?
  /// How long a scan runs before the first progress line, in seconds.
  var progressDelay: TimeInterval = 1
  /// Receives the first rows of a result table as soon as they are known, while a long
  /// in-memory scan goes on (nil: tables come whole in the response). The response then
  /// holds only what follows the rows: the count footer.
  var stream: (@Sendable (String) -> Void)?
  /// Print how long each input took (`.timer on`).
  var timer = false
  /// SQL back ends (SQLite in memory, files, PostgreSQL).
  var sql = REPLSQLState()
  /// Threads an in-memory scan uses (every core; the answer does not depend on it).
  var scanWorkers = ProcessInfo.processInfo.activeProcessorCount
  /// Live results started with `.watch` (nil: none).
  var watching: REPLWatch?

  /// Creates an empty session.
  init(style: REPLStyle = REPLStyle(colors: false), interrupt: InterruptFlag = InterruptFlag()) {
    self.style = style
    self.interrupt = interrupt
  }

  /// A session with the built-in sample entities (`venues`, `notes`) loaded in memory (they
  /// are copied into an in-memory SQLite database on first SQL use).
  static func withSampleData(style: REPLStyle = REPLStyle(colors: false)) throws -> REPLSession {
    let session = REPLSession(style: style)
    for set in try SampleData.load() { session.add(set) }
    session.entity = "venues"
    return session
  }

  /// Adds (or replaces) an entity and mirrors it into the SQL back ends; makes it current
  /// when it is the first one.
  @discardableResult
  func add(_ set: REPLDataSet) -> String? { add(set, schemaPath: nil) }

  /// The current entity's data set.
  /// Nil when the current entity is a table of the open database (`databaseEntity`).
  var current: REPLDataSet? {
    guard sql.existing?.schema.entity(entity) == nil else { return nil }
    return dataSets.first { $0.name == entity }
  }

  /// Runs one complete input and returns what to print.
  func execute(_ input: String) -> REPLResponse {
    let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty || trimmed.hasPrefix("--") { return .ok("") }
    interrupt.clear()
    let started = Date()
    var response: REPLResponse
    if let command = REPLCommand.parse(trimmed) {
      response = run(command)
    } else {
      response = runOnDatabase("eval", trimmed) ?? evaluate(trimmed, mode: .table)
    }
    if timer && response.status != .quit {
      response.text += style.dim(String(format: "time: %.3f s", Date().timeIntervalSince(started))) + "\n"
    }
    return response
  }

  /// The banner shown when the interactive REPL starts.
  var banner: String {
    var text = style.bold("sift") + " \(SiftCommandLine.version) — NSPredicate format strings, in memory and in SQL\n"
    for set in dataSets {
      text += "  \(set.name): \(set.count) records (\(set.origin))\n"
    }
    if !dataSets.isEmpty { text += "  in memory; copied into an in-memory SQLite database on first SQL use\n" }
    if let db = sql.existing {
      let mode = sql.writable ? "read-only; edits under .watch are written: --write" : "read-only"
      text += "  \(db.label) (\(mode)): \(db.schema.entityNames.joined(separator: ", "))\n"
    }
    text += "Type a predicate such as " + style.cyan("distance < 5 AND ANY tags == 'wifi'")
    text += ", or .help for commands (.quit or Ctrl-D to leave).\n"
    return text
  }

  /// The prompt for the first line of an input (`venues> `) and for continuation lines.
  var prompt: String { (entity.isEmpty ? "sift" : entity) + "> " }
  /// Continuation prompt, as wide as `prompt`.
  var continuationPrompt: String {
    String(repeating: " ", count: max(0, prompt.count - 5)) + "...> "
  }

  func run(_ command: REPLCommand) -> REPLResponse {
    guard let spec = REPLCommandSpec.lookup(command.name) else {
      var text = "unknown command '.\(command.name)'"
      if let s = REPLCommandSpec.suggestion(for: command.name) { text += "; did you mean '.\(s)'?" }
      return .failure(errorLine(text + " (.help lists commands)"))
    }
    let arg = command.argument
    if let response = runOnDatabase(spec.name, arg) { return response }
    switch spec.name {
    case "help": return help(arg)
    case "quit": return REPLResponse(text: "", status: .quit)
    case "history": return showHistory(arg)
    case "status": return status()
    case "tokens": return tokens(arg)
    case "ast": return ast(arg)
    case "canon": return canonical(arg)
    case "eval": return evaluate(arg, mode: .table)
    case "count": return evaluate(arg, mode: .count)
    case "agg": return aggregate(arg)
    case "sort": return setSort(arg)
    case "limit": return setLimit(arg)
    case "offset": return setOffset(arg)
    case "rows": return setRows(arg)
    case "columns": return setColumns(arg)
    case "args": return setArguments(arg)
    case "let": return setVariable(arg)
    case "unset": return unsetVariable(arg)
    case "vars": return listVariables()
    case "engine": return setEngine(arg)
    case "sql": return showSQL(arg)
    case "plan": return showPlan(arg)
    case "compare": return compare(arg)
    case "dialect": return setDialect(arg)
    case "connect": return connect(arg)
    case "entities": return arg.isEmpty ? listEntities() : describe(arg)
    case "schema": return describe(arg)
    case "use": return use(arg)
    case "load": return load(arg)
    case "open": return open(arg)
    case "fetch": return fetchTemplate(arg)
    case "generate": return generate(arg)
    case "timer": return setTimer(arg)
    case "watch": return watch(arg)
    case "insert": return watchInsert(arg)
    case "update": return watchUpdate(arg)
    case "delete": return watchDelete(arg)
    default: return .failure(errorLine("command '.\(spec.name)' is not available"))
    }
  }

  /// `error: message` in the error color.
  func errorLine(_ message: String) -> String {
    style.red("error") + ": " + TerminalText.escaped(message, keeping: ["\n", "\t"]) + "\n"
  }

  /// A rendered diagnostic (with caret) for a Sift error.
  func render(_ error: SiftError) -> String {
    SiftDiagnosticRenderer(colors: style.colors).render(error.diagnostic, in: error.source) + "\n"
  }

  /// The predicate text to use: the argument, or the last predicate when empty.
  func predicateText(_ arg: String) -> String? {
    arg.isEmpty ? lastPredicate : arg
  }

  /// Parses, binds the session arguments and substitutes the session variables.
  func prepare(_ text: String) -> Result<SiftPredicate, SiftError> {
    do {
      let parsed = try SiftPredicate.parse(text)
      let bound = try parsed.binding(Array(arguments.prefix(parsed.unboundArgumentCount)))
      return .success(bound.substituting(variables))
    } catch {
      return .failure(error)
    }
  }

  /// Rendered warnings of a predicate (AND/OR mix and the like).
  func warnings(_ p: SiftPredicate) -> String {
    p.warnings.map { SiftDiagnosticRenderer(colors: style.colors).render($0, in: p.source) + "\n" }.joined()
  }
}

/// What one input produced: text to print and whether it failed or asked to quit.
///
/// ```swift
/// let r = session.execute(".limit 5")
/// if r.status == .failed { print("error") }
/// ```
struct REPLResponse: Sendable, Hashable {
  /// The outcome of an input.
  enum Status: Sendable, Hashable {
    /// Worked.
    case ok
    /// An error was shown (scripts stop here unless `--keep-going`).
    case failed
    /// The command does not apply to this data source; the text says why and what to use
    /// instead. Scripts go on (the exit status is still 1), so a script written for JSON
    /// data runs on a database.
    case refused
    /// `.quit` was typed.
    case quit
  }

  /// Text to print (ends with a newline unless empty).
  var text: String
  /// Outcome.
  var status: Status

  static func ok(_ text: String) -> REPLResponse { REPLResponse(text: text, status: .ok) }
  static func failure(_ text: String) -> REPLResponse { REPLResponse(text: text, status: .failed) }
  static func refusal(_ text: String) -> REPLResponse { REPLResponse(text: text, status: .refused) }
}

/// Where typed predicates run.
enum REPLEngineKind: String, Sendable, CaseIterable {
  /// SiftEvaluation over the records in memory.
  case memory
  /// The SQLite database (in memory, or an opened file).
  case sqlite
  /// The connected PostgreSQL database.
  case postgres
}

/// SQL dialect for `.sql`.
enum REPLDialect: String, Sendable, CaseIterable {
  /// SQLite.
  case sqlite
  /// PostgreSQL.
  case postgres
}
