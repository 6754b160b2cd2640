// Owned by the REPL work (issue 5). Entry point called by `sift` with no arguments or `sift repl …`.
import Foundation

/// Runs the interactive REPL (or the script mode when stdin is not a TTY).
///
/// ```swift
/// let status = runREPL(arguments: ["--keep-going"])
/// ```
/// - Returns: the process exit status.
public func runREPL(arguments: [String]) -> Int32 {
  FileHandle.standardError.write(Data("sift: the REPL is not implemented yet\n".utf8))
  return 1
}
