import Foundation

/// The `sift` command line: `sift [repl]`, `sift parse`, `sift eval`, `sift expr`, `sift sql`, `sift batch`,
/// `sift load`, `sift index`, `sift setup-sql`, `sift schema`, `sift watch`, `sift check`, `sift help [COMMAND]`. Each subcommand lives in `Commands/`.
///
/// ```swift
/// exit(SiftCommandLine.run(["parse", "name == 'x'"]))
/// ```
public enum SiftCommandLine {
  /// The subcommands besides `repl` and `help`, by name (also what "did you mean" suggests).
  static let subcommands: [String: @Sendable ([String]) -> Int32] = [
    "parse": ParseCommand.run, "eval": EvalCommand.run, "expr": ExprCommand.run, "sql": SQLCommand.run,
    "batch": BatchCommand.run, "load": LoadCommand.run, "setup-sql": SetupSQLCommand.run,
    "schema": SchemaCommand.run, "watch": WatchCommand.run, "check": CheckCommand.run, "index": IndexCommand.run,
  ]

  /// Runs the command line and returns the exit status (0 ok, 1 failure, 2 usage error).
  public static func run(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else { return runREPL(arguments: []) }
    let rest = Array(arguments.dropFirst())
    if let command = subcommands[first] { return command(rest) }
    switch first {
    case "repl": return runREPL(arguments: rest)
    case "help", "--help", "-h": return HelpCommand.run(rest)
    default:
      if first.hasPrefix("-") { return runREPL(arguments: arguments) }
      return CLIOutput.usageError("unknown command '\(first)'", suggestion: CLIOutput.closestCommand(first))
    }
  }
}
