import Foundation

/// The `sift` command line: `sift [repl]`, `sift parse`, `sift eval`, `sift expr`, `sift sql`, `sift batch`,
/// `sift load`, `sift setup-sql`, `sift schema`, `sift watch`, `sift help [COMMAND]`. Each subcommand lives in `Commands/`.
///
/// ```swift
/// exit(SiftCommandLine.run(["parse", "name == 'x'"]))
/// ```
public enum SiftCommandLine {
  /// Runs the command line and returns the exit status (0 ok, 1 failure, 2 usage error).
  public static func run(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else { return runREPL(arguments: []) }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "repl": return runREPL(arguments: rest)
    case "parse": return ParseCommand.run(rest)
    case "batch": return BatchCommand.run(rest)
    case "eval": return EvalCommand.run(rest)
    case "expr": return ExprCommand.run(rest)
    case "sql": return SQLCommand.run(rest)
    case "load": return LoadCommand.run(rest)
    case "setup-sql": return SetupSQLCommand.run(rest)
    case "schema": return SchemaCommand.run(rest)
    case "watch": return WatchCommand.run(rest)
    case "help", "--help", "-h": return HelpCommand.run(rest)
    default:
      if first.hasPrefix("-") { return runREPL(arguments: arguments) }
      return CLIOutput.usageError("unknown command '\(first)'", suggestion: CLIOutput.closestCommand(first))
    }
  }
}
