// Entry point called by `sift` with no arguments or `sift repl …`.
import Foundation

/// Runs the interactive REPL (or the script mode when stdin is not a TTY).
///
/// ```swift
/// let status = runREPL(arguments: ["--keep-going"])
/// ```
/// - Returns: the process exit status (0 ok, 1 an input failed, 2 usage error).
func runREPL(arguments: [String]) -> ExitStatus {
  let options: REPLOptions
  do {
    options = try REPLOptions.parse(arguments)
  } catch {
    FileHandle.standardError.write(Data("sift repl: \(error.message)\n  run 'sift repl --help' for usage\n".utf8))
    return .usage
  }
  if options.help {
    print(REPLOptions.helpText)
    return .success
  }
  let interactive = options.commands.isEmpty && isatty(0) != 0 && isatty(1) != 0
  let colors = !options.noColor && isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  let session: REPLSession
  do {
    session = try REPLStartup.makeSession(options, style: REPLStyle(colors: colors))
  } catch {
    FileHandle.standardError.write(
      Data((TerminalText.escaped("sift repl: \(error)", keeping: ["\n", "\t"]) + "\n").utf8))
    return .failure
  }
  let stdout = FileHandle.standardOutput
  let stderr = FileHandle.standardError
  if !interactive {
    let source: REPLLineSource = options.commands.isEmpty ? FileLineSource() : ScriptedLineSource(options.commands)
    let loop = REPLLoop(
      session: session, source: source,
      options: .init(echo: options.echo, stopOnError: !options.keepGoing)
    ) { text, isError in
      (isError && !options.echo ? stderr : stdout).write(Data(text.utf8))
    }
    return loop.run()
  }
  let interrupt = session.interrupt
  interrupt.installSIGINTHandler()
  session.progress = { line in stderr.write(Data(("\r\u{1B}[K" + line).utf8)) }
  session.stream = { text in stdout.write(Data(("\r\u{1B}[K" + text).utf8)) }
  stdout.write(Data(session.banner.utf8))
  let historyPath =
    options.noHistory
    ? nil : (options.historyPath ?? (NSHomeDirectory() as NSString).appendingPathComponent(".sift_history"))
  let editor = LineEditor(history: REPLHistory(path: historyPath), style: session.style)
  let loop = REPLLoop(session: session, source: editor, options: .init()) { text, _ in
    stdout.write(Data(("\r\u{1B}[K" + text).utf8))
  }
  _ = loop.run()
  return .success
}

/// Builds the session the command line asked for.
enum REPLStartup {
  static func makeSession(_ options: REPLOptions, style: REPLStyle) throws -> REPLSession {
    let onDatabase = options.database.namesDatabase
    let session =
      options.noSample || onDatabase ? REPLSession(style: style) : try REPLSession.withSampleData(style: style)
    for file in options.loads {
      let r = session.execute(".load " + quoted(file))
      if r.status != .ok { throw REPLDataError(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    if let n = options.generate {
      let r = session.execute(".generate " + n)
      if r.status != .ok { throw REPLDataError(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    if onDatabase {
      _ = session.attach(try options.database.open())
      session.sql.writable = options.write
    } else if let pg = options.postgres {
      let r = session.execute(".connect " + pg)
      if r.status != .ok { throw REPLDataError(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    if let entity = options.entity {
      let r = session.execute(".use " + entity)
      if r.status != .ok { throw REPLDataError(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    if let engine = options.engine {
      let r = session.execute(".engine " + engine)
      if r.status != .ok { throw REPLDataError(r.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    return session
  }

  static func quoted(_ s: String) -> String { "\"" + s + "\"" }
}
