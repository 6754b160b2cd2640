import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC articles (`Sources/*/*.docc/*.md`) compiles as
/// written: each is type-checked on its own by the toolchain's `swiftc` against the modules this
/// test run was built with, and README's manifest fragment is resolved in a throwaway package that
/// depends on this checkout by path.
@Suite("README's and the articles' Swift snippets compile")
struct ReadmeSnippetTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and the DocC catalogs' articles, relative to the package root.
  static func documents() throws -> [String] {
    let sources = root.appendingPathComponent("Sources")
    var paths = ["README.md"]
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let catalog = sources.appendingPathComponent("\(module)/\(module).docc")
      guard let files = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
      paths += files.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/\(module)/\(module).docc/\($0)" }
    }
    return paths
  }

  /// The text of a document `documents()` lists.
  static func text(of document: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
  }

  /// The ```swift blocks of README.md (or of `document`), with the line each starts on.
  static func snippets(in document: String = "README.md") throws -> [(line: Int, code: String)] {
    let text = try Self.text(of: document)
    var out: [(Int, String)] = []
    var current: [String]?
    var start = 0
    for (n, line) in text.components(separatedBy: "\n").enumerated() {
      if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
        current = []
        start = n + 2
      } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
        out.append((start, current!.joined(separator: "\n")))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return out
  }

  /// The directory holding the built `.swiftmodule`s of this test run.
  static let modules: URL? = {
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = dir.appendingPathComponent("Modules")
      if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("SiftSyntax.swiftmodule").path) {
        return candidate
      }
      dir.deleteLastPathComponent()
    }
    let fallback = root.appendingPathComponent(".build/debug/Modules")
    return FileManager.default.fileExists(atPath: fallback.path) ? fallback : nil
  }()

  static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    if let directory { p.currentDirectoryURL = directory }
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func thereAreSnippets() throws {
    let documents = try Self.documents()
    #expect(documents.count >= 10, "README and the articles: \(documents)")
    #expect(try documents.flatMap { try Self.snippets(in: $0) }.count >= 8)
    #expect(try Self.snippets().contains { $0.code.contains(".package(path:") }, "the manifest fragment")
  }

  @Test func swiftSnippetsTypeCheck() throws {
    let modules = try #require(Self.modules, "no built modules found beside the test binary")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let snippets = try Self.documents().flatMap { document in
      try Self.snippets(in: document).map { (document: document, line: $0.line, code: $0.code) }
    }
    for (document, line, code) in snippets where !code.contains(".package(") {
      let file = dir.appendingPathComponent("main.swift")
      try Data(code.utf8).write(to: file)
      let sources = Self.root.appendingPathComponent("Sources")
      let result = try Self.run([
        "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
        "-I", sources.appendingPathComponent("CSQLite").path, "-I", sources.appendingPathComponent("CLibPQ").path,
        "-Xcc", "-I/usr/include/postgresql", "-I", sources.appendingPathComponent("CMariaDB").path,
        "-Xcc", "-I/usr/include/mariadb", file.path,
      ])
      #expect(result.status == 0, "\(document) snippet at line \(line) does not compile:\n\(result.output)")
    }
  }

  /// The manifest lines, pasted into a package beside a checkout named `sift`, resolve.
  @Test func manifestFragmentResolves() throws {
    guard let fragment = try Self.snippets().first(where: { $0.code.contains(".package(") }) else {
      Issue.record("no manifest fragment in README.md")
      return
    }
    let lines = fragment.code.components(separatedBy: "\n").map { $0.components(separatedBy: "//")[0] }
    let dependency = lines.filter { $0.contains(".package(") }.joined()
    let products = lines.filter { $0.contains(".product(") }.joined(separator: "\n")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-manifest-\(UUID().uuidString)")
    let app = dir.appendingPathComponent("app")
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // The README's path is "../sift": a checkout named sift beside the app.
    try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("sift"), withDestinationURL: Self.root)
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "App",
        dependencies: [\(dependency)],
        targets: [.executableTarget(name: "App", dependencies: [
      \(products)
        ])])
      """
    try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
    try Data("import SiftSyntax\n".utf8).write(to: app.appendingPathComponent("Sources/App/main.swift"))
    let result = try Self.run(["swift", "package", "show-dependencies"], in: app)
    #expect(result.status == 0, "the README's manifest lines do not resolve:\n\(manifest)\n\(result.output)")
    #expect(!result.output.contains("warning"), "\(result.output)")
  }
}
