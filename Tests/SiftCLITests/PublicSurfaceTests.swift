import Foundation
import Testing

/// SiftCLI is not a library product: its only public declarations are what the `sift`
/// executable calls (`SiftCommandLine.run`). Everything else is internal, and the tests reach
/// it through `@testable import`. This fails when a `public` or `open` creeps back in.
@Suite("SiftCLI public surface")
struct PublicSurfaceTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/SiftCLI")

  /// Declarations starting with `public` or `open` (after attributes), as `file: line`.
  static func publicDeclarations() throws -> [String] {
    let declaration = try Regex(#"^(@[\w.]+(\([^)]*\))?\s+)*(public|open)(\s|\()"#)
    let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
      .filter { $0.hasSuffix(".swift") }
    #expect(files.count > 10, "no SiftCLI sources found at \(sources.path)")
    var found: [String] = []
    for file in files.sorted() {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.prefixMatch(of: declaration) != nil { found.append("\(file): \(code)") }
      }
    }
    return found
  }

  @Test func onlyTheEntryPointIsPublic() throws {
    #expect(
      try Self.publicDeclarations() == [
        "SiftCommandLine.swift: public enum SiftCommandLine {",
        "SiftCommandLine.swift: public static func run(_ arguments: [String]) -> Int32 {",
      ])
  }
}
