import Foundation

/// The `sift` command line: `sift [repl]`, `sift parse`, `sift eval`, `sift expr`, `sift sql`, `sift batch`,
/// `sift load`, `sift index`, `sift setup-sql`, `sift schema`, `sift watch`, `sift check`, `sift help [COMMAND]`,
/// `sift --version`. Each subcommand lives in `Commands/`; `sift COMMAND --help` prints its usage.
///
/// ```swift
/// exit(SiftCommandLine.run(["parse", "name == 'x'"]))
/// ```
public enum SiftCommandLine {
  /// The version `sift --version` prints and the REPL's banner shows (the one place it is written).
  static let version = "0.1.0"

  /// Runs the command line and returns the exit status: 0 success, 1 failure, 2 usage error
  /// (`ExitStatus`).
  public static func run(_ arguments: [String]) -> Int32 {
    status(arguments).rawValue
  }

  /// Runs the command line; how it ended.
  static func status(_ arguments: [String]) -> ExitStatus {
    guard let first = arguments.first else { return runREPL(arguments: []) }
    let rest = Array(arguments.dropFirst())
    if let command = command(named: first) {
      if command.options.asksForHelp(rest) {
        print(command.help)
        return .success
      }
      return command.run(rest)
    }
    switch first {
    case "--help", "-h": return HelpCommand.run(rest)
    case "--version":
      print("sift \(version)")
      return .success
    default:
      if first.hasPrefix("-") { return runREPL(arguments: arguments) }
      return CLIOutput.usageError("unknown command '\(first)'", suggestion: CLIOutput.closestCommand(first))
    }
  }
}
