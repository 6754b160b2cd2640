import Foundation

/// What reading one line produced.
enum REPLLineResult: Sendable, Hashable {
  /// A line (without its newline).
  case line(String)
  /// Ctrl-C: the current input is dropped.
  case interrupted
  /// Ctrl-D or end of file.
  case endOfInput
}

/// Where the loop gets lines from: the line editor, a script on stdin, or a test's list.
protocol REPLLineSource: AnyObject {
  /// Reads one line, showing `prompt` if interactive.
  func readLine(prompt: String) -> REPLLineResult
  /// Records a complete input in the history.
  func add(toHistory entry: String)
}

/// Lines from an array, for tests and `-c`.
///
/// ```swift
/// let source = ScriptedLineSource([".limit 3", "distance < 1"])
/// ```
final class ScriptedLineSource: REPLLineSource {
  private var lines: [String]
  /// Creates a source.
  init(_ lines: [String]) { self.lines = lines }
  /// The next line, or end of input.
  func readLine(prompt: String) -> REPLLineResult {
    lines.isEmpty ? .endOfInput : .line(lines.removeFirst())
  }
  /// No history.
  func add(toHistory entry: String) {}
}

/// Lines from a file handle (stdin in script mode), without prompts.
final class FileLineSource: REPLLineSource {
  func readLine(prompt: String) -> REPLLineResult {
    guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
    return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
  }
  func add(toHistory entry: String) {}
}

/// The read–execute–print loop over a session, a line source and an output function.
///
/// ```swift
/// var out = ""
/// let status = REPLLoop(session: session, source: ScriptedLineSource(["a == 1"]),
///                       options: .init(echo: true)) { text, _ in out += text }.run()
/// ```
struct REPLLoop {
  /// Loop behaviour.
  struct Options: Sendable {
    /// Print the prompt and each input line before its output (transcripts).
    var echo: Bool
    /// Stop at the first failed input with status 1 (scripts); a refused command (one that
    /// does not apply to the data source) never stops the run.
    var stopOnError: Bool
    /// Creates options.
    init(echo: Bool = false, stopOnError: Bool = false) {
      self.echo = echo
      self.stopOnError = stopOnError
    }
  }

  let session: REPLSession
  let source: REPLLineSource
  let options: Options
  let write: (String, Bool) -> Void

  /// Creates a loop; `write` receives output text and whether it reports an error.
  init(
    session: REPLSession, source: REPLLineSource, options: Options, write: @escaping (String, Bool) -> Void
  ) {
    self.session = session
    self.source = source
    self.options = options
    self.write = write
  }

  /// Runs until `.quit`, end of input, or (with `stopOnError`) the first error that is not a
  /// refusal.
  /// Returns `.success`, or `.failure` when any input failed in a non-interactive run.
  func run() -> ExitStatus {
    var buffer: [String] = []
    var failures = 0
    while true {
      let prompt = buffer.isEmpty ? session.prompt : session.continuationPrompt
      let result = source.readLine(prompt: prompt)
      var input: String
      switch result {
      case .interrupted:
        buffer = []
        continue
      case .endOfInput:
        guard !buffer.isEmpty else { return failures > 0 ? .failure : .success }
        input = buffer.joined(separator: "\n")
        buffer = []
      case .line(let line):
        if options.echo { write(prompt + line + "\n", false) }
        buffer.append(line)
        input = buffer.joined(separator: "\n")
        if InputScanner.needsContinuation(input) { continue }
        buffer = []
      }
      let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.isEmpty {
        session.history.append(trimmed)
        source.add(toHistory: trimmed)
      }
      let response = session.execute(input)
      write(response.text, response.status == .failed || response.status == .refused)
      switch response.status {
      case .quit: return failures > 0 ? .failure : .success
      case .failed:
        failures += 1
        if options.stopOnError { return .failure }
      case .refused:
        // A command that does not apply here (it said why): the script goes on.
        failures += 1
      case .ok: break
      }
      if case .endOfInput = result { return failures > 0 ? .failure : .success }
    }
  }
}

/// Decides whether an input is complete or continues on the next line: it continues while
/// a `(`, `{` or `[` is open or a quote is unterminated (backslash escapes honoured).
///
/// ```swift
/// InputScanner.needsContinuation("name IN {'a',")   // true
/// InputScanner.needsContinuation("name == 'x'")     // false
/// ```
enum InputScanner {
  /// True when `text` has an open bracket or an unterminated quote.
  static func needsContinuation(_ text: String) -> Bool {
    var depth = 0
    var quote: Unicode.Scalar?
    var escaped = false
    for s in text.unicodeScalars {
      if let q = quote {
        if escaped {
          escaped = false
        } else if s == "\\" {
          escaped = true
        } else if s == q {
          quote = nil
        }
        continue
      }
      switch s {
      case "'", "\"": quote = s
      case "(", "{", "[": depth += 1
      case ")", "}", "]": depth -= 1
      default: break
      }
    }
    return quote != nil || depth > 0
  }
}
