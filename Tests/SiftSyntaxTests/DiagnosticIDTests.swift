import Foundation
import Testing

@testable import SiftSyntax

/// Ids come from one list (Grammar/notes/errors.md): every id a source file spells as a string
/// is a case of `DiagnosticID`, and the list holds only well-formed, used ids.
@Suite("Diagnostic ids: one list")
struct DiagnosticIDTests {
  /// The places an id is written as a string literal: `id: "…"`, `id = "…"`, and the first
  /// argument of `fail("…"`, `EvalFailure("…"`, `refuse("…"`, `SQLDiagnostics.error("…"`.
  static let idPattern = try! NSRegularExpression(
    pattern: #"(?:\bid: |\bid = |\bfail\(|EvalFailure\(|\brefuse\(|SQLDiagnostics\.error\()"#
      + #""([a-z0-9]+(?:-[a-z0-9]+)+)""#)

  /// `(file, id)` for every id literal in `Sources/`, doc comments left out.
  static func idLiterals() throws -> [(file: String, id: String)] {
    let sources = Repo.url("Sources")
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    var found: [(String, String)] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        let s = String(line)
        for m in idPattern.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
          if let r = Range(m.range(at: 1), in: s) { found.append((file.lastPathComponent, String(s[r]))) }
        }
      }
    }
    return found
  }

  @Test func everyIdWrittenInTheSourcesIsOnTheList() throws {
    let known = Set(DiagnosticID.allCases.map(\.rawValue))
    let literals = try Self.idLiterals()
    #expect(literals.count > 20, "the scan found too few ids to mean anything")
    let unknown = literals.filter { !known.contains($0.id) }
    #expect(unknown.isEmpty, "ids missing from DiagnosticID: \(unknown.map { "\($0.file): \($0.id)" })")
  }

  @Test func theListIsKebabCaseAndNamesEachCaseForItsId() {
    for id in DiagnosticID.allCases {
      let kebab = id.rawValue.range(of: #"^[a-z0-9]+(-[a-z0-9]+)+$|^[a-z]+$"#, options: .regularExpression)
      #expect(kebab != nil, "\(id)")
      let words = id.rawValue.split(separator: "-").map(String.init)
      let camel = words[0] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      #expect("\(id)" == camel, "case \(id) spells \(id.rawValue)")
    }
  }

  @Test func idsRetiredForOneConditionStayRetired() {
    // Memory and SQL named these conditions differently; errors.md's table gives the one id.
    for old in [
      "string-operator-needs-strings", "string-function-needs-string", "arithmetic-needs-numbers",
      "aggregate-needs-numbers", "in-needs-collection", "subquery-needs-collection",
      "collection-operator-needs-collection", "index-needs-collection",
    ] {
      #expect(DiagnosticID(rawValue: old) == nil, "\(old)")
    }
  }

  @Test func theParseCatalogUsesTheList() {
    let end = Token(.end, range: .at(3))
    let d = DiagnosticCatalog.expectedPunctuation(.rightParen, "to close '('", found: end, opening: nil)
    #expect(d.id == DiagnosticID.expectedClosingParen.rawValue)
  }
}
