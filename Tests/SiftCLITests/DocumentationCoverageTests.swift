import Foundation
import Testing

/// Every public symbol a library module declares carries a doc comment: the symbol graph
/// `swift-symbolgraph-extract` reads from the built module lists no declaration of ours without
/// one (members the compiler synthesizes, such as `Equatable`'s `!=`, have no source location and
/// are left out). `.ci/docs` builds the same graphs into DocC documentation, warnings as errors.
@Suite("Every public symbol is documented")
struct DocumentationCoverageTests {
  static let modules = PublicAPITests.modules + ["SiftCLI"]

  /// `Module: Type.member (File.swift:line)` for each public declaration without a doc comment.
  static func undocumented(in module: String) throws -> [String] {
    let modules = try #require(ReadmeSnippetTests.modules, "no built modules found beside the test binary")
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("sift-symbols-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: out) }
    let sources = ReadmeSnippetTests.root.appendingPathComponent("Sources")
    let result = try ReadmeSnippetTests.run([
      "swift-symbolgraph-extract", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
      "-I", modules.path, "-I", sources.appendingPathComponent("CSQLite").path,
      "-I", sources.appendingPathComponent("CLibPQ").path, "-Xcc", "-I/usr/include/postgresql",
      "-I", sources.appendingPathComponent("CMariaDB").path, "-Xcc", "-I/usr/include/mariadb",
      "-minimum-access-level", "public", "-skip-inherited-docs", "-output-dir", out.path,
    ])
    #expect(result.status == 0, "\(result.output)")
    let data = try Data(contentsOf: out.appendingPathComponent("\(module).symbols.json"))
    let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let symbols = try #require(graph?["symbols"] as? [[String: Any]])
    return symbols.compactMap { symbol in
      guard symbol["docComment"] == nil, let location = symbol["location"] as? [String: Any] else { return nil }
      let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
      let file = (location["uri"] as? String ?? "").split(separator: "/").last ?? ""
      let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? -1) + 1
      return "\(module): \(path) (\(file):\(line))"
    }.sorted()
  }

  @Test(arguments: modules)
  func everyPublicSymbolHasADocComment(_ module: String) throws {
    #if arch(x86_64) && os(Linux)
      let missing = try Self.undocumented(in: module)
      #expect(missing.isEmpty, "public symbols without a doc comment:\n\(missing.joined(separator: "\n"))")
    #endif
  }
}
