import Foundation
import Testing

@testable import SiftCLI

/// The conventions every `sift` command keeps (SiftCLI.docc/CommandLine.md, "Conventions"):
/// `--help`, `-h` and `sift help COMMAND` print its page and exit 0; the page lists each option
/// on a line of its own and has an example; usage errors exit 2, failures 1. Table-driven over
/// `SiftCommandLine.commands`: a command added there without a row here fails
/// `everyCommandHasARow`.
@Suite("Command-line conventions")
struct CommandLineConventionTests {
  /// One command's cases: argument lists that are usage errors (2) and failures (1).
  struct Row {
    var usage: [[String]]
    var failure: [[String]]
  }

  /// Scratch files the rows name: records, a schema, a policy.
  static let dir: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-conventions-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try? Data(#"[{"id": 1, "x": 1}]"#.utf8).write(to: URL(fileURLWithPath: path + "/d.json"))
    try? Data(#"{"entities": {"E": {"table": "e", "attributes": {"id": "integer", "x": "integer"}}}}"#.utf8)
      .write(to: URL(fileURLWithPath: path + "/s.json"))
    try? Data(#"{"keys": ["x"]}"#.utf8).write(to: URL(fileURLWithPath: path + "/p.json"))
    return path
  }()

  static var data: String { dir + "/d.json" }
  static var schema: String { dir + "/s.json" }
  static var policy: String { dir + "/p.json" }
  static let missing = "/nonexistent-sift-dir/missing.json"

  /// Missing arguments, option values that do not parse, and failures at run time, per command.
  static var rows: [String: Row] {
    [
      "repl": Row(
        usage: [["--db"], ["--engine", "oracle"], ["stray"]],
        failure: [["--db", "/nonexistent-sift-dir/x.sqlite"], ["--no-sample", "-c", "x =="]]),
      "parse": Row(
        usage: [[], ["a", "b"], ["x == 1", "--arg", "{"]],
        failure: [["x =="], ["x == %@"]]),
      "eval": Row(
        usage: [
          ["x == 1"], ["x == 1", "--data"], ["x == 1", "--data", data, "--arg", "{"],
          ["x == 1", "--data", data, "--var", "novalue"], ["x == 1", "--data", data, "--dates", "fortnights"],
        ],
        failure: [["x ==", "--data", data], ["x == 1", "--data", missing], ["x == 1", "--data", dir]]),
      "expr": Row(
        usage: [
          [], ["x", "--data", data, "--schema", schema], ["x", "--data", data, "--limit", "-1"],
          ["x", "--data", data, "--arg", "{"],
        ],
        failure: [["x +", "--data", data], ["x", "--data", missing], ["x", "--schema", missing, "--entity", "E"]]),
      "fetch": Row(
        usage: [
          [], ["--data", data, "--limit", "-1"], ["--data", data, "--result", "rows"], ["--db", dir + "/x.sqlite"],
          ["x == 1", "--data", data],
        ],
        failure: [["--data", missing], ["--data", data, "--where", "x =="]]),
      "sql": Row(
        usage: [
          ["x == 1"], ["x == 1", "--schema", schema, "--entity", "E", "--dialect", "oracle"],
          ["x == 1", "--schema", schema, "--entity", "E", "--arg", "{"],
        ],
        failure: [["x ==", "--schema", schema, "--entity", "E"], ["x == 1", "--schema", missing, "--entity", "E"]]),
      "batch": Row(
        usage: [
          ["x == 1"], ["--db", dir + "/x.sqlite"], ["--data", data, "--dates", "fortnights"],
          ["--data", data, "--schema", schema],
        ],
        failure: [["--data", missing], ["--policy", missing]]),
      "load": Row(
        usage: [[], ["--data", data, "--schema", schema, "--into", dir + "/no.sqlite", "--dates", "fortnights"]],
        failure: [
          ["--data", missing, "--schema", schema, "--into", dir + "/no.sqlite"],
          ["--data", data, "--schema", missing, "--into", dir + "/no.sqlite"],
        ]),
      "index": Row(
        usage: [
          [], ["--db", dir + "/x.sqlite", "--fold", "nodot"],
          [
            "--db", dir + "/x.sqlite", "--fold", "t.c",
            "--options", "z",
          ],
        ],
        failure: [["--db", "/nonexistent-sift-dir/x.sqlite", "--fold", "t.c"]]),
      "setup-sql": Row(
        usage: [[], ["--dialect", "oracle"]],
        failure: [["--dialect", "postgres", "--postgres", "host=/nonexistent-sift-dir connect_timeout=2"]]),
      "schema": Row(
        usage: [[], ["stray"], ["--pg-schema", "x"]],
        failure: [["--model", "/nonexistent-sift-dir/M.xcdatamodeld"], ["--db", "/nonexistent-sift-dir/x.sqlite"]]),
      "watch": Row(
        usage: [
          [], ["x == 1"], ["x == 1", "--data", data, "--dates", "fortnights"], ["x == 1", "--data", data, "--write"],
          ["x == 1", "--postgres", "host=/nonexistent-sift-dir"], ["x == 1", "--data", data, "--pg-schema", "s"],
          ["x == 1", "--postgres", "host=/nonexistent-sift-dir", "--entity", "t", "--mode", "fast"],
          ["x == 1", "--postgres", "host=/nonexistent-sift-dir", "--entity", "t", "--interval", "0"],
        ],
        failure: [
          ["x ==", "--data", data], ["x == 1", "--data", missing],
          ["x == 1", "--postgres", "host=/nonexistent-sift-dir connect_timeout=2", "--entity", "t"],
          ["x == 1", "--postgres", "host=/nonexistent-sift-dir", "--entity", "t", "--mode", "push"],
        ]),
      "check": Row(
        usage: [
          ["x == 1"], ["x == 1", "--policy", policy, "--var", "novalue"],
          [
            "x == 1", "--policy", policy,
            "--arg", "{",
          ],
        ],
        failure: [["x == 1", "--policy", missing], ["y == 1", "--policy", policy]]),
      "help": Row(usage: [["nosuchcommand"], ["eval", "extra"]], failure: []),
    ]
  }

  static var names: [String] { SiftCommandLine.commands.map { $0.name } }

  @Test func everyCommandHasARow() {
    #expect(Set(Self.rows.keys) == Set(Self.names))
  }

  /// `sift COMMAND --help`, `-h`, `sift help COMMAND` and `sift --help COMMAND`: the page, exit 0.
  @Test(arguments: names) func helpPrintsThePage(_ name: String) throws {
    let command = try #require(SiftCommandLine.command(named: name))
    for args in [[name, "--help"], [name, "-h"], ["help", name], ["--help", name], [name, "x", "-h"]] {
      let r = try SiftProcess.run(args, stdin: "")
      #expect(r.status == 0, "\(args): \(r.stderr)")
      #expect(r.stdout == command.help + "\n", "\(args)")
      #expect(r.stderr.isEmpty, "\(args)")
    }
  }

  /// The page lists each option the command takes on a line of its own, and gives an example.
  @Test(arguments: names) func helpListsEveryOption(_ name: String) throws {
    let command = try #require(SiftCommandLine.command(named: name))
    let listed = Set(command.help.split(separator: "\n").flatMap { Self.optionsListed(by: String($0)) })
    for option in command.options.all {
      #expect(listed.contains(option), "'sift help \(name)' has no line for \(option)")
    }
    let lines = command.help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let examples = try #require(lines.firstIndex { $0.uppercased().hasPrefix("EXAMPLE") }, "\(name): no EXAMPLE")
    #expect(lines[(examples + 1)...].contains { $0.hasPrefix("sift ") || $0.hasPrefix("echo ") }, "\(name)")
  }

  /// The options a help line describes: `--data FILE  …`, `-c, --command INPUT  …`.
  static func optionsListed(by line: String) -> [String] {
    var rest = Substring(line.drop { $0 == " " })
    var out: [String] = []
    while rest.hasPrefix("-") {
      let word = rest.prefix { $0 != " " && $0 != "," && $0 != "=" }
      out.append(String(word))
      rest = rest.dropFirst(word.count)
      guard rest.hasPrefix(", -") else { break }
      rest = rest.dropFirst(2)
    }
    return out
  }

  /// An unknown option, a missing argument or a value that does not parse: exit 2, and the
  /// message says where the usage is. Nothing on standard output.
  @Test(arguments: names) func usageErrorsExit2(_ name: String) throws {
    let row = try #require(Self.rows[name])
    for args in row.usage + [["--no-such-option"]] {
      let r = try SiftProcess.run([name] + args, stdin: "")
      #expect(r.status == 2, "sift \(name) \(args): \(r.stderr)")
      #expect(r.stderr.contains("sift help") || r.stderr.contains("--help"), "sift \(name) \(args): \(r.stderr)")
    }
  }

  /// A predicate that fails, a file or database that cannot be read: exit 1.
  @Test(arguments: names) func failuresExit1(_ name: String) throws {
    let row = try #require(Self.rows[name])
    for args in row.failure {
      let r = try SiftProcess.run([name] + args, stdin: "")
      #expect(r.status == 1, "sift \(name) \(args): \(r.stderr)")
      #expect(!r.stderr.isEmpty, "sift \(name) \(args)")
    }
  }

  /// A failure whose message happens to start with `--` (a data file named `--bad.json` that
  /// holds bad JSON) is still a failure, 1: `sift eval` once took 2 from the message's text.
  @Test func evalStatusDoesNotComeFromTheMessage() throws {
    try Data("[{".utf8).write(to: URL(fileURLWithPath: Self.dir + "/--bad.json"))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try #require(TmuxHarness.siftBinary))
    p.arguments = ["eval", "x == 1", "--data=--bad.json"]
    p.currentDirectoryURL = URL(fileURLWithPath: Self.dir)
    let errors = Pipe()
    p.standardError = errors
    try p.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 1, "\(text)")
    #expect(text.hasPrefix("sift eval: --bad.json:"), "\(text)")
  }

  /// `sift --version` prints the one version constant, which the REPL's banner shows too.
  @Test func versionIsPrinted() throws {
    let r = try SiftProcess.run(["--version"], stdin: "")
    #expect(r.status == 0 && r.stdout == "sift \(SiftCommandLine.version)\n")
    #expect(REPLSession().banner.contains(SiftCommandLine.version))
  }

  /// `--help` after a lone `--`, or as an option's value, is not a request for help.
  @Test func helpAfterDoubleDashIsAnArgument() {
    #expect(!ParseCommand.options.asksForHelp(["--", "--help"]))
    #expect(!ParseCommand.options.asksForHelp(["x", "--arg", "-h"]))
    #expect(ParseCommand.options.asksForHelp(["x", "--arg", "1", "-h"]))
    #expect(SiftCommandLine.status(["parse", "--", "-h"]) == .failure)  // the predicate "-h" does not parse
  }

  /// `sift` and `sift help` list every command.
  @Test func overviewNamesEveryCommand() {
    for name in Self.names where name != "repl" {
      #expect(HelpCommand.overview.contains("sift \(name)"), "\(name)")
    }
  }
}
