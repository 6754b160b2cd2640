import Foundation
import Testing

@testable import SiftSyntax

/// Ids come from one list (Grammar/notes/errors.md): every id a source file spells as a string
/// is a case of `DiagnosticID`, and the list holds only well-formed, used ids.
@Suite("Diagnostic ids: one list")
struct DiagnosticIDTests {
  /// The places an id could be written as a string literal: `id: "…"`, `id = "…"`, and the first
  /// argument of `fail(`, `EvalFailure(`, `refuse(`, `error(` (`SQLDiagnostics.error`,
  /// `SiftRow.error`), also when the call breaks the line before it.
  static let idPattern = try! NSRegularExpression(
    pattern: #"(?:\bid: |\bid = |\bfail\(|\bEvalFailure\(|\brefuse\(|\berror\()\s*"#
      + #""([a-z0-9]+(?:-[a-z0-9]+)*)""#)

  /// Files another piece of work still converts (issue #24): their literals must be on the list,
  /// and a file leaves this list once it has none.
  static let pendingFiles: Set<String> = []

  /// The id literals in one source text, comment lines left out.
  static func idLiterals(in text: String) -> [String] {
    let code = text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
      .joined(separator: "\n")
    return idPattern.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap {
      Range($0.range(at: 1), in: code).map { String(code[$0]) }
    }
  }

  /// `(file, id)` for every id literal in `Sources/`.
  static func idLiterals() throws -> [(file: String, id: String)] {
    let sources = Repo.url("Sources")
    let files =
      FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    var found: [(String, String)] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      found += idLiterals(in: text).map { (file.lastPathComponent, $0) }
    }
    return found
  }

  @Test func theScanFindsIdsWrittenAsStringsAlsoAcrossLines() {
    let text = """
      throw fail("not-a-string", "x", range)
      throw SQLDiagnostics.error(
        "type-mismatch", "y", range, source: s)
      return SiftRow.error(
          "decode-mismatch", "z")
      case .cancelled: id = "cancelled"
      SiftError(stage: .data, id: "made-up-id", message: m)
      // fail("in-a-comment")
      throw fail(.notAString, range)
      throw fail("Bool")
      """
    #expect(
      Self.idLiterals(in: text) == ["not-a-string", "type-mismatch", "decode-mismatch", "cancelled", "made-up-id"])
  }

  @Test func noIdIsWrittenAsAString() throws {
    let known = Set(DiagnosticID.allCases.map(\.rawValue))
    let literals = try Self.idLiterals()
    let written = literals.filter { !Self.pendingFiles.contains($0.file) }
    let places = written.map { "\($0.file): \($0.id)" }
    #expect(written.isEmpty, "ids written as strings, not DiagnosticID cases: \(places)")
    let pending = literals.filter { Self.pendingFiles.contains($0.file) }
    let unknown = pending.filter { !known.contains($0.id) }
    #expect(unknown.isEmpty, "ids missing from DiagnosticID: \(unknown.map { "\($0.file): \($0.id)" })")
    for file in Self.pendingFiles {
      #expect(pending.contains { $0.file == file }, "\(file) has no id literal left: take it off pendingFiles")
    }
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
