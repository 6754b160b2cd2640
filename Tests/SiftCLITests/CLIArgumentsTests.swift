import Testing

@testable import SiftCLI

/// The subcommands' flag parser.
@Suite("Command-line arguments")
struct CLIArgumentsTests {
  static let valued: Set<String> = ["--schema", "--arg"]
  static let switches: Set<String> = ["--json"]

  static func parse(_ args: [String]) throws -> CLIArguments {
    try CLIArguments(args, valued: valued, switches: switches)
  }

  /// Options and positionals in any order; `--name=value` and `--name value` alike.
  /// "Did you mean" knows every subcommand the dispatcher runs (`expr` was missing).
  @Test func misspelledCommandsAreSuggested() {
    for (typo, command) in [("exr", "expr"), ("wach", "watch"), ("evl", "eval"), ("shema", "schema"), ("hlp", "help")] {
      #expect(CLIOutput.closestCommand(typo) == command, "\(typo)")
    }
    let names = SiftCommandLine.commands.map { $0.name }
    #expect(names == CLIOutput.commands)
  }

  @Test func optionsAndPositionals() throws {
    let a = try Self.parse(["x == 1", "--arg", "1", "--json", "--schema=s.json", "--arg", "2"])
    #expect(a.positionals == ["x == 1"])
    #expect(a.all("--arg") == ["1", "2"])
    #expect(a.value("--schema") == "s.json")
    #expect(a.flags == ["--json"])
  }

  /// After a lone `--`, everything is positional: a predicate may start with `--` or `-`, and
  /// a second `--` is text too. Options before it still count.
  @Test func doubleDashEndsOptions() throws {
    let a = try Self.parse(["--json", "--", "--x > 1", "--arg", "--"])
    #expect(a.positionals == ["--x > 1", "--arg", "--"])
    #expect(a.flags == ["--json"])
    #expect(a.all("--arg").isEmpty)
  }

  /// Without `--`, a predicate starting with `--` reads as an unknown option, named in the error.
  @Test func unknownOptionIsRefused() {
    let failure = #expect(throws: CLIArguments.Failure.self) { try Self.parse(["--x > 1"]) }
    #expect(failure?.message.hasPrefix("unknown option '--x > 1'") == true, "\(String(describing: failure))")
  }

  /// End to end: `sift parse -- '--x > 1'` parses the predicate (exit 0); without `--` it is a
  /// usage error (exit 2).
  @Test func commandsAcceptDoubleDash() {
    #expect(SiftCommandLine.run(["parse", "--", "--x > 1"]) == 0)
    #expect(SiftCommandLine.run(["parse", "--x > 1"]) == 2)
  }
}
