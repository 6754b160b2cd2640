import Foundation
import Testing

/// Each library module's public surface, as `swift-api-digester` reads it from the built module,
/// equals the list checked in under Tests/Fixtures/public-api: a new, renamed or removed public
/// symbol is a reviewed diff. After a deliberate change, regenerate the lists with
/// `SIFT_UPDATE_API=1 swift test --filter PublicAPITests` and read the diff.
@Suite("Public API of each library module")
struct PublicAPITests {
  static let modules = [
    "SiftSemantics", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftPostgres", "SiftCoreData",
    "SiftLive", "SiftLiveSQLite", "SiftLivePostgres", "SiftColumnar",
  ]
  static let fixtures = ReadmeSnippetTests.root.appendingPathComponent("Tests/Fixtures/public-api")

  /// Names Swift, Foundation and everyday code already use: a public type of Sift must not
  /// take one (it would shadow it in every file that imports the module).
  static let reserved: Set<String> = [
    "KeyPath", "Predicate", "Expression", "Lexer", "Parser", "Token", "Comparison", "Diagnostic", "Error", "Value",
    "Record", "Schema", "Statement", "Row", "Decoder", "Encoder", "Options", "Function", "Node", "Range", "Operator",
  ]

  /// One line per declaration: `Kind Parent.name`, sorted; implicit members left out.
  static func surface(of module: String) throws -> [String] {
    let modules = try #require(ReadmeSnippetTests.modules, "no built modules found beside the test binary")
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("sift-api-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: out) }
    let sources = ReadmeSnippetTests.root.appendingPathComponent("Sources")
    let result = try ReadmeSnippetTests.run([
      "swift-api-digester", "-dump-sdk", "-module", module, "-I", modules.path,
      "-I", sources.appendingPathComponent("CSQLite").path, "-I", sources.appendingPathComponent("CLibPQ").path,
      "-Xcc", "-I/usr/include/postgresql", "-o", out.path,
    ])
    #expect(result.status == 0, "\(result.output)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
    let root = try #require(json?["ABIRoot"] as? [String: Any])
    var lines: [String] = []
    func walk(_ node: [String: Any], parent: String) {
      let kind = node["kind"] as? String ?? ""
      if ["TypeNominal", "TypeFunc", "TypeNameAlias", "Import"].contains(kind) { return }
      // Implicit members, and `package`/internal ones (visible to the package's own modules only).
      if node["implicit"] as? Bool == true || node["isInternal"] as? Bool == true { return }
      // Another module's type extended with nothing public (an internal conformance, such as
      // the typed-predicate converter's on `PredicateExpressions`) adds no surface.
      if node["isExternal"] as? Bool == true, (node["children"] as? [Any] ?? []).isEmpty { return }
      let name = node["printedName"] as? String ?? ""
      let path = parent.isEmpty ? name : "\(parent).\(name)"
      if kind != "Root" {
        var line = "\(node["declKind"] as? String ?? kind) \(path)"
        if node["static"] as? Bool == true { line = "static " + line }
        lines.append(line)
      }
      for child in node["children"] as? [[String: Any]] ?? [] {
        walk(child, parent: kind == "Root" ? "" : path)
      }
    }
    walk(root, parent: "")
    return lines.sorted()
  }

  @Test(arguments: modules)
  func surfaceMatchesTheCheckedInList(_ module: String) throws {
    let lines = try Self.surface(of: module)
    let file = Self.fixtures.appendingPathComponent("\(module).txt")
    if ProcessInfo.processInfo.environment["SIFT_UPDATE_API"] != nil {
      try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
      try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    let added = Set(lines).subtracting(expected).sorted()
    let removed = Set(expected).subtracting(lines).sorted()
    #expect(
      added.isEmpty && removed.isEmpty,
      "\(module)'s public surface changed (SIFT_UPDATE_API=1 rewrites the list):\nadded:\n\(added.joined(separator: "\n"))\nremoved:\n\(removed.joined(separator: "\n"))"
    )
  }

  @Test(arguments: modules)
  func noPublicTypeTakesAReservedName(_ module: String) throws {
    let types = try Self.surface(of: module).compactMap { line -> String? in
      let parts = line.split(separator: " ")
      // Top-level types only: a nested name (`PostgresDatabase.Schema`) shadows nothing.
      guard parts.count == 2, ["Struct", "Enum", "Class", "Protocol", "TypeAlias"].contains(parts[0]),
        !parts[1].contains(".")
      else { return nil }
      return String(parts[1])
    }
    #expect(types.filter(Self.reserved.contains).isEmpty, "\(module) exports \(types.filter(Self.reserved.contains))")
  }
}
