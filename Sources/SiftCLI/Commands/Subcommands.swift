/// One command of `sift`: its name, the options it takes, its help page and what runs it.
/// `SiftCommandLine.commands` lists them all, once.
protocol SiftSubcommand: Sendable {
  /// The name on the command line (`eval`, `setup-sql`).
  static var name: String { get }
  /// The options it takes (what its help page lists, one line each).
  static var options: CommandOptions { get }
  /// Its help page: usage lines, each option on a line of its own, and an example.
  static var help: String { get }
  /// Runs it with the arguments after its name.
  static func run(_ args: [String]) -> ExitStatus
}

extension SiftCommandLine {
  /// Every command, in the order `sift help` lists them: the one list the dispatcher, `--help`,
  /// "did you mean" and the command-line tests read, so a new command cannot be left out.
  static let commands: [any SiftSubcommand.Type] = [
    REPLSubcommand.self, ParseCommand.self, EvalCommand.self, ExprCommand.self, FetchCommand.self, SQLCommand.self,
    BatchCommand.self,
    LoadCommand.self, IndexCommand.self, SetupSQLCommand.self, SchemaCommand.self, WatchCommand.self,
    CheckCommand.self, HelpCommand.self,
  ]

  /// The command called `name`, if there is one.
  static func command(named name: String) -> (any SiftSubcommand.Type)? {
    commands.first { $0.name == name }
  }
}

/// `sift repl [OPTIONS]` (and `sift` with no command, or options only): the REPL.
enum REPLSubcommand: SiftSubcommand {
  static let name = "repl"
  static let options = CommandOptions(
    valued: Set(REPLOptions.valued), switches: Set(REPLOptions.switches).subtracting(["--help", "-h"]))
  static var help: String { REPLOptions.helpText }
  static func run(_ args: [String]) -> ExitStatus { runREPL(arguments: args) }
}
