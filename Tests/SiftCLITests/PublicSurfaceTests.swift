import Foundation
import Testing

/// SiftCLI is not a library product: its only public declarations are what the `sift`
/// executable calls (`SiftCommandLine.run`), and `sift-bench`'s probe of the REPL, which is
/// SPI (`@_spi(Bench)`: invisible without `@_spi(Bench) import SiftCLI`; its members are listed
/// as the type). Everything else is internal, and the tests reach it through `@testable
/// import`. This fails when a `public` or `open` creeps back in.
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
      var insideSPI = false
      for line in text.split(separator: "\n") {
        // The members of an SPI type (indented, up to its closing brace) are SPI too.
        if line.hasPrefix("}") { insideSPI = false }
        if insideSPI && line.hasPrefix(" ") { continue }
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.prefixMatch(of: declaration) != nil { found.append("\(file): \(code)") }
        if line.hasPrefix("@_spi(") { insideSPI = true }
      }
    }
    return found
  }

  @Test func onlyTheEntryPointIsPublic() throws {
    #expect(
      try Self.publicDeclarations() == [
        "REPL/REPLBenchProbe.swift: @_spi(Bench) public final class REPLBenchProbe {",
        "SiftCommandLine.swift: public enum SiftCommandLine {",
        "SiftCommandLine.swift: public static func run(_ arguments: [String]) -> Int32 {",
      ])
  }
}
