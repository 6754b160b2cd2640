/// How a command ended, and so the process's exit status: the contract every `sift` command
/// keeps (written down in `SiftCLI.docc/CommandLine.md`, "Exit status"). Commands return one
/// of these, never a bare number, and never pick it from an error's text.
enum ExitStatus: Int32, Sendable {
  /// The command did what was asked (a predicate that matches nothing included).
  case success = 0
  /// The work failed: a predicate that does not parse, bind or evaluate, a file that cannot
  /// be read or holds bad JSON, a database that refuses, a policy that refuses.
  case failure = 1
  /// The command line was wrong: an unknown command or option, a missing argument, an option
  /// value that does not parse (`--arg` JSON, `--var`, `--dates`, `--limit`, …).
  case usage = 2
}

/// The options one command takes: those with a value (`--data FILE`) and switches (`--count`).
/// `--help` and `-h` are every command's and are not listed.
struct CommandOptions: Sendable {
  var valued: Set<String>
  var switches: Set<String>

  /// Every option, sorted.
  var all: [String] { (valued.union(switches)).sorted() }

  /// Whether `args` ask for the command's help: `--help` or `-h` before a lone `--`, and not
  /// as the value of an option (`--arg -h` is an argument).
  func asksForHelp(_ args: [String]) -> Bool {
    var i = 0
    while i < args.count {
      let a = args[i]
      if a == "--" { return false }
      if a == "--help" || a == "-h" { return true }
      if valued.contains(a) { i += 1 }
      i += 1
    }
    return false
  }
}
