import Foundation
import SiftSQL
import SiftSyntax

/// Output helpers shared by the subcommands.
enum CLIOutput {
  /// Every command's name (what "did you mean" suggests from).
  static let commands = SiftCommandLine.commands.map { $0.name }

  /// A statement as `sift sql` and `sift expr` print it: the SQL, a `-- ?n = value` line per
  /// binding, and a last `-- calls …` line naming Sift's SQL functions it needs.
  static func printStatement(_ statement: SQLStatement, dialect: any SQLDialect) {
    print(statement.sql)
    for (i, value) in statement.bindings.enumerated() {
      let placeholder = dialect.placeholder(i + 1)
      print("-- \(placeholder == "?" ? "?\(i + 1)" : placeholder) = \(value)")
    }
    let functions = statement.requiredFunctions
    if !functions.isEmpty {
      let setup =
        dialect is PostgreSQLDialect
        ? "create them once per database, in schema sift: sift setup-sql --dialect postgres"
        : "register them on the connection: sift setup-sql --dialect sqlite"
      print("-- calls Sift's SQL functions \(functions.joined(separator: ", ")) (\(setup))")
    }
  }

  /// Writes to standard error.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// Prints a usage error; `.usage` (exit status 2).
  static func usageError(_ message: String, suggestion: String? = nil, command: String? = nil) -> ExitStatus {
    var text = "sift: \(message)"
    if let suggestion { text += "\n  did you mean '\(suggestion)'?" }
    text += "\n  run 'sift help\(command.map { " " + $0 } ?? "")' for usage"
    error(text)
    return .usage
  }

  /// Prints why `command` stopped (`sift eval: …`, control characters escaped) and returns
  /// the status the error's kind gives: `.usage` for a `CommandInputs.Failure` of kind usage
  /// (an option's value that does not parse), `.failure` for everything else.
  static func failed(_ command: String, _ failure: any Error) -> ExitStatus {
    let status = (failure as? CommandInputs.Failure)?.kind ?? .failure
    var text = TerminalText.escaped("sift \(command): \(failure)", keeping: ["\n", "\t"])
    if status == .usage { text += "\n  run 'sift help \(command)' for usage" }
    error(text)
    return status
  }

  static func closestCommand(_ word: String) -> String? {
    Spelling.closest(to: word, in: commands, maxDistance: 2)
  }

  /// Renders a Sift error with colors when stderr is a terminal and NO_COLOR is unset.
  static func render(_ e: SiftError) -> String {
    let colors = isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    return SiftDiagnosticRenderer(colors: colors).render(e.diagnostic, in: e.source)
  }
}

/// A tiny flag parser for subcommands: `--name value`, repeated flags, and positionals.
struct CLIArguments {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []

  struct Failure: Error { var message: String }

  /// Parses `args` for a command that takes `options`.
  init(_ args: [String], _ options: CommandOptions) throws(Failure) {
    try self.init(args, valued: options.valued, switches: options.switches)
  }

  /// Parses `args`; `valued` names take a value, `switches` do not. A lone `--` ends the
  /// options: every argument after it is positional, so a predicate may start with `--`
  /// (`sift parse -- '--x > 1'`, a double negation).
  init(_ args: [String], valued: Set<String>, switches: Set<String>) throws(Failure) {
    var i = 0
    while i < args.count {
      let a = args[i]
      if a == "--" {
        positionals += args[(i + 1)...]
        break
      }
      if a.hasPrefix("--"), a.count > 2 {
        var name = a
        var inline: String?
        if let eq = a.firstIndex(of: "=") {
          name = String(a[..<eq])
          inline = String(a[a.index(after: eq)...])
        }
        if valued.contains(name) {
          if let inline {
            values[name, default: []].append(inline)
          } else {
            i += 1
            guard i < args.count else { throw Failure(message: "\(name) needs a value") }
            values[name, default: []].append(args[i])
          }
        } else if switches.contains(name) {
          flags.insert(name)
        } else {
          let all = Array(valued) + Array(switches)
          var m = "unknown option '\(name)'"
          if let s = Spelling.closest(to: name, in: all, maxDistance: 3) { m += "; did you mean '\(s)'?" }
          throw Failure(message: m)
        }
      } else {
        positionals.append(a)
      }
      i += 1
    }
  }

  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }
}
