import Foundation
import Testing

/// The tests assert the contract: an error's id, not only its type. At most 10% of the error
/// expectations under Tests/ are a bare `#expect(throws: T.self)` whose result is not kept
/// for further checks; the rest use `expectSiftError(id:stage:at:)` (SiftTestSupport) or check
/// the error `#expect(throws:)` returns.
@Suite("Error expectations check the id")
struct ErrorExpectationTests {
  @Test func typeOnlyExpectationsAreAtMostATenth() throws {
    let tests = ReadmeSnippetTests.root.appendingPathComponent("Tests")
    let files = try #require(FileManager.default.enumerator(atPath: tests.path))
    let typeOnly = try NSRegularExpression(
      pattern: #"^\s*#expect\(throws: [\w.() ]+\.self"#, options: .anchorsMatchLines)
    // An error expectation as a statement (not a mention in a comment); `throws: Never.self` is not one.
    let expectation = try NSRegularExpression(
      pattern: #"^\s*(let \w+ = )?(await )?(#expect\(throws: (?!Never\.self)|expectSiftError\(id:)"#,
      options: .anchorsMatchLines)
    var total = 0
    var bare: [String] = []
    for case let file as String in files
    where file.hasSuffix(".swift") && !file.hasPrefix("SiftTestSupport/")
      && !file.hasSuffix("ExpectSiftErrorTests.swift")
    {
      let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      let range = NSRange(text.startIndex..., in: text)
      total += expectation.matches(in: text, range: range).count
      for m in typeOnly.matches(in: text, range: range) {
        guard let r = Range(m.range, in: text), !text[r].contains("Never.self") else { continue }
        bare.append("\(file): \(text[r].trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(total > 100, "error expectations found: \(total)")
    #expect(bare.count * 10 <= total, "\(bare.count) of \(total) check only the type:\n\(bare.joined(separator: "\n"))")
  }
}
