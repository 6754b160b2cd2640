import Foundation
import Testing

/// `Package.swift` declares every edge the imports use: each `import Sift…`/`import C…` of a
/// target's sources names a target that target lists in its `dependencies`. (An undeclared edge
/// builds only by luck of the build order, and hides the module map from its reader.)
@Suite("Package.swift declares every import")
struct PackageEdgesTests {
  /// Each target's name, directory and declared dependencies, read from the manifest's text.
  static func targets() throws -> [(name: String, path: String, dependencies: Set<String>)] {
    let url = ReadmeSnippetTests.root.appendingPathComponent("Package.swift")
    let manifest = try String(contentsOf: url, encoding: .utf8)
    var out: [(String, String, Set<String>)] = []
    // `.target(`, `.executableTarget(`, `.testTarget(` and `.systemLibrary(` declarations, in order.
    let pattern = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\("#)
    let text = manifest as NSString
    let starts = pattern.matches(in: manifest, range: NSRange(location: 0, length: text.length))
    for (i, match) in starts.enumerated() {
      let end = i + 1 < starts.count ? starts[i + 1].range.location : text.length
      let body = text.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
      func strings(after label: String) -> [String] {
        guard let r = body.range(of: label + ": [") else { return [] }
        let list = body[r.upperBound...].prefix { $0 != "]" }
        let pieces = list.split(separator: "\"", omittingEmptySubsequences: false)
        return pieces.enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
      }
      func string(after label: String) -> String? {
        guard let r = body.range(of: label + ": \"") else { return nil }
        return String(body[r.upperBound...].prefix { $0 != "\"" })
      }
      guard let name = string(after: "name") else { continue }
      let kind = text.substring(with: match.range(at: 1))
      let path = string(after: "path") ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
      out.append((name, path, Set(strings(after: "dependencies"))))
    }
    return out
  }

  @Test func everyImportIsADeclaredDependency() throws {
    let targets = try Self.targets()
    #expect(targets.count >= 20, "\(targets.map(\.name))")
    let names = Set(targets.map(\.name))
    let importLine = try NSRegularExpression(
      pattern: #"^\s*(?:@[\w()]+\s+)*import\s+(\w+)"#, options: .anchorsMatchLines)
    for target in targets {
      let dir = ReadmeSnippetTests.root.appendingPathComponent(target.path)
      guard let files = FileManager.default.enumerator(atPath: dir.path) else { continue }
      var imported: Set<String> = []
      for case let file as String in files where file.hasSuffix(".swift") {
        let source = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        for m in importLine.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
          guard let r = Range(m.range(at: 1), in: source), names.contains(String(source[r])) else { continue }
          imported.insert(String(source[r]))
        }
      }
      let missing = imported.subtracting(target.dependencies).subtracting([target.name]).sorted()
      #expect(missing.isEmpty, "\(target.name) imports \(missing) without declaring them in Package.swift")
    }
  }
}
