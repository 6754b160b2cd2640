import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Drives the built `sift` binary in a real pseudo-terminal through tmux: types keys, reads
/// the screen with `capture-pane`, and checks line editing, history recall, Ctrl-R, Ctrl-C,
/// multi-line input and the history file. Skipped (visibly) when tmux or the binary is missing.
enum TmuxHarness {
  static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// The `sift` executable in the build directory that holds this test bundle.
  static let siftBinary: String? = {
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = dir.appendingPathComponent("sift").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir.deleteLastPathComponent()
    }
    return nil
  }()

  static var available: Bool { tmux != nil && siftBinary != nil }

  /// A tmux server of our own (its own socket), with one 120×40 window running `command`.
  final class Session {
    let socket = "sift-e2e-\(UUID().uuidString.prefix(8))"
    let tmux: String

    init(command: String) throws {
      guard let tmux = TmuxHarness.tmux else { throw Failure("tmux missing") }
      self.tmux = tmux
      try run(["new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command])
      try run(["set-option", "-t", "t", "remain-on-exit", "on"])
    }

    deinit { _ = try? run(["kill-server"]) }

    struct Failure: Error, CustomStringConvertible {
      var description: String
      init(_ d: String) { description = d }
    }

    /// Runs tmux with our socket. Spawned with posix_spawn, a clean signal mask and default
    /// signal actions (test runners block signals, and tmux would pass that on to `sift`);
    /// output goes through a file because the tmux server daemon inherits the client's stdout.
    @discardableResult
    func run(_ args: [String]) throws -> String {
      let out = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: out) }
      let argv = [tmux, "-L", socket, "-f", "/dev/null"] + args
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var none = sigset_t()
      sigemptyset(&none)
      var all = sigset_t()
      sigfillset(&all)
      posix_spawnattr_setsigmask(&attributes, &none)
      posix_spawnattr_setsigdefault(&attributes, &all)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
      var cArgs = argv.map { strdup($0) }
      defer { cArgs.forEach { free($0) } }
      cArgs.append(nil)
      var pid: pid_t = 0
      let rc = posix_spawn(&pid, tmux, &actions, &attributes, cArgs, environ)
      guard rc == 0 else { throw Failure("posix_spawn failed: \(rc)") }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    /// Types literal text.
    func type(_ text: String) throws { try run(["send-keys", "-t", "t", "-l", text]) }
    /// Presses named keys (`Enter`, `C-a`, `Up`, …).
    func press(_ keys: String...) throws { try run(["send-keys", "-t", "t"] + keys) }
    /// The visible screen.
    func screen() throws -> String { try run(["capture-pane", "-p", "-t", "t"]) }
    /// True once the program in the pane has exited (tmux does not always draw its
    /// "Pane is dead" line before a capture, so ask for the pane's state).
    func paneIsDead() throws -> Bool {
      try run(["list-panes", "-t", "t", "-F", "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Waits until `condition` holds for the screen (a generous deadline, not a timing test).
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 20, _ condition: (String) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(timeout)
      var last = ""
      while Date() < deadline {
        last = try screen()
        if condition(last) { return last }
        Thread.sleep(forTimeInterval: 0.05)
      }
      throw Failure("timed out waiting for \(what); screen:\n\(last)")
    }

    func waitFor(_ text: String, count: Int = 1, timeout: TimeInterval = 20) throws {
      try waitFor("'\(text)' ×\(count)", timeout: timeout) { $0.components(separatedBy: text).count - 1 >= count }
    }
  }
}

@Suite("REPL in a terminal (tmux)")
struct REPLTerminalEndToEndTests {
  @Test(
    "line editing, history recall, Ctrl-R, Ctrl-C, multi-line input, history file",
    .enabled(if: TmuxHarness.available, "skipped: tmux or the built sift binary is not available"))
  func terminalSession() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("sift-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let history = home.appendingPathComponent("history").path
    let binary = try #require(TmuxHarness.siftBinary)
    let s = try TmuxHarness.Session(command: "env NO_COLOR=1 TERM=xterm '\(binary)' --history '\(history)'")

    try s.waitFor("Type a predicate")
    try s.waitFor("venues>")

    // Plain input.
    try s.type(".canon a=1")
    try s.press("Enter")
    try s.waitFor("a == 1")

    // Ctrl-A / End editing: "canon x = 1" → ".canon x = 1 AND y = 2".
    try s.type("canon x = 1")
    try s.press("C-a")
    try s.type(".")
    try s.press("End")
    try s.type(" AND y = 2")
    try s.press("Enter")
    try s.waitFor("x == 1 AND y == 2")

    // Left arrow, Ctrl-K and Ctrl-W: ".canon b = 2 junk" → ".canon b = 2".
    try s.type(".canon zz b = 2 junk")
    try s.press("Left", "Left", "Left", "Left", "Left", "C-k")
    try s.press("C-a", "Right", "Right", "Right", "Right", "Right", "Right", "Right", "Right", "Right")
    try s.press("C-w")
    try s.press("Enter")
    try s.waitFor("b == 2")

    // History recall: Up Up Up → ".canon x = 1 AND y = 2", … Up ×3 reaches ".canon a=1".
    try s.press("Up", "Up", "Up")
    try s.waitFor("recalled line") { $0.split(separator: "\n").last?.contains("venues> .canon a=1") == true }
    try s.press("Enter")
    try s.waitFor("a == 1", count: 2)

    // Ctrl-R reverse search.
    try s.press("C-r")
    try s.type("AND y")
    try s.waitFor("(reverse-i-search)`AND y': .canon x = 1 AND y = 2")
    try s.press("Enter")
    try s.waitFor("x == 1 AND y == 2", count: 2)

    // Ctrl-C drops the line and keeps the session.
    try s.type(".canon never")
    try s.press("C-c")
    try s.waitFor("^C")
    try s.type(".canon q=3")
    try s.press("Enter")
    try s.waitFor("q == 3")
    #expect(try !s.screen().contains("never ==") && !s.screen().contains("error"))

    // Multi-line input while a parenthesis is open.
    try s.type(".canon (m = 1")
    try s.press("Enter")
    try s.waitFor("   ...>")
    try s.type("OR n = 2)")
    try s.press("Enter")
    try s.waitFor("m == 1 OR n == 2")

    // A diagnostic with a caret.
    try s.type("name BEGINSWIT 'x'")
    try s.press("Enter")
    try s.waitFor("did you mean 'BEGINSWITH'?")
    #expect(try s.screen().contains("     ^^^^^^^^^"))

    // Ctrl-D leaves; the history file holds the inputs. Wait for the fresh prompt first: a
    // Ctrl-D typed while the terminal is between lines (cooked mode) is taken by the tty as EOF.
    try s.waitFor("prompt after the diagnostic") {
      $0.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
        .hasPrefix("venues>") == true
    }
    Thread.sleep(forTimeInterval: 0.2)
    try s.press("C-d")
    try s.waitFor("the pane to close") { _ in (try? s.paneIsDead()) ?? false }
    let saved = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(saved.first == ".canon a=1")
    #expect(saved.contains(".canon x = 1 AND y = 2"))
    #expect(saved.contains(".canon (m = 1 OR n = 2)"))
    #expect(!saved.contains(".canon never"))
  }

  @Test(
    "history persists into the next session",
    .enabled(if: TmuxHarness.available, "skipped: tmux or the built sift binary is not available"))
  func historyAcrossSessions() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let history = dir.appendingPathComponent("history").path
    try ".canon from=1\n.canon last=2\n".write(toFile: history, atomically: true, encoding: .utf8)
    let binary = try #require(TmuxHarness.siftBinary)
    let s = try TmuxHarness.Session(command: "env NO_COLOR=1 '\(binary)' --history '\(history)'")
    try s.waitFor("venues>")
    try s.press("Up", "Up", "Enter")
    try s.waitFor("from == 1")
  }

  /// The REPL on the user's own SQLite file in a real terminal: the plan names the index,
  /// `.agg` and `.compare` answer from the database, a refused command leaves the session
  /// going, a typed date works, and the file is not written.
  @Test(
    "on a database: .plan names the index, .agg, .compare, refusals, typed dates",
    .enabled(if: TmuxHarness.available, "skipped: tmux or the built sift binary is not available"))
  func databaseSession() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = ExistingFixture.snapshot(path)
    let binary = try #require(TmuxHarness.siftBinary)
    let s = try TmuxHarness.Session(
      command: "env NO_COLOR=1 TERM=xterm '\(binary)' --no-history --db '\(path)' --entity note")
    // Type only at a fresh prompt: keys typed while the terminal is between lines are the tty's.
    func atPrompt() throws {
      try s.waitFor("a fresh prompt") {
        $0.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
          .trimmingCharacters(in: .whitespaces) == "note>"
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    try atPrompt()
    try s.type(".plan title == 'Groceries'")
    try s.press("Enter")
    try s.waitFor("index: note_title_idx serves the predicate on note")
    try atPrompt()
    try s.type(".agg rating author.display_name == 'Ada'")
    try s.press("Enter")
    try s.waitFor(" rating |       2 |      2 | 7.5 | 3.75 | 3.0 | 4.5")
    try atPrompt()
    try s.type(".compare created_at < CAST(\"2024-01-06\", \"NSDate\") OR ANY tag.label == 'urgent'")
    try s.press("Enter")
    try s.waitFor("agree: 3 of 4 rows")
    try atPrompt()
    try s.type(".dialect postgres")
    try s.press("Enter")
    try s.waitFor("is an SQLite database")
    try atPrompt()
    try s.type(".count created_at >= CAST('2024-01-06', 'NSDate')")
    try s.press("Enter")
    try s.waitFor("result of the typed date") { $0.split(separator: "\n").contains { $0 == "2" } }
    try atPrompt()
    try s.type(".quit")
    try s.press("Enter")
    try s.waitFor("the pane to close") { _ in (try? s.paneIsDead()) ?? false }
    #expect(ExistingFixture.snapshot(path) == before, "the file was written")
  }

  /// One million generated records in a real terminal: a long scan shows its first rows and a
  /// progress line while it runs, Ctrl-C (SIGINT) stops it, and the session answers the next
  /// input. Generating the records takes a while in a debug build, hence the long first wait.
  @Test(
    "1,000,000 records: rows stream, progress shows, Ctrl-C interrupts, the session goes on",
    .enabled(if: TmuxHarness.available, "skipped: tmux or the built sift binary is not available"))
  func millionRecordScan() throws {
    let binary = try #require(TmuxHarness.siftBinary)
    let s = try TmuxHarness.Session(
      command: "env NO_COLOR=1 TERM=xterm '\(binary)' --no-history --no-sample --generate 1000000")
    try s.waitFor("generated: 1000000 records (generated)", timeout: 300)
    try s.waitFor("generated>")
    // Several regular expressions per record: seconds over a million records, even in release.
    try s.type(".columns id, name")
    try s.press("Enter")
    try s.waitFor("columns: id, name")
    try s.type(
      "name MATCHES '.*a.*e.*' AND (city MATCHES '.*o.*' OR ANY tags MATCHES '.*i.*e.*') AND NOT name MATCHES '.*x.*'")
    try s.press("Enter")
    let running = try s.waitFor("rows and a progress line") { $0.contains(" | name") && $0.contains("; Ctrl-C stops") }
    #expect(!running.contains("rows)"), "the scan ended before Ctrl-C:\n\(running)")
    try s.press("C-c")
    let stopped = try s.waitFor("the interrupt") { $0.contains("interrupted after") && $0.contains(" rows") }
    #expect(
      stopped.range(of: #"interrupted after \d+ of 1000000 records"#, options: .regularExpression) != nil, "\(stopped)")
    #expect(stopped.contains("(first 10 of "))
    try s.waitFor("prompt after the interrupt") {
      $0.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?.hasPrefix(
        "generated>") == true
    }
    try s.type(".count id < 5")
    try s.press("Enter")
    try s.waitFor("result of the next input") { $0.split(separator: "\n").contains { $0 == "5" } }
    try s.type(".quit")
    try s.press("Enter")
    try s.waitFor("the pane to close") { _ in (try? s.paneIsDead()) ?? false }
  }
}
