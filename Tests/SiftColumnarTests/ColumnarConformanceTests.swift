import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// The shared conformance sample (Tests/Fixtures/conformance) over columns: every case's
/// expected positions, or its error, on one thread and on two.
@Suite struct ColumnarConformanceTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

  struct Case: CustomStringConvertible, Sendable {
    var id: String
    var format: String
    var args: [SiftValue]
    var expected: [Int]?
    var description: String { id }
  }

  static func lines(_ name: String) -> [SiftValue] {
    guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { try? SiftJSON.parse(String($0)) }
  }

  static let cases: [Case] = {
    var expected: [String: SiftValue] = [:]
    for e in lines("venues-expected.jsonl") {
      if case .string(let id)? = e.value(forKey: "id") { expected[id] = e }
    }
    return lines("venues-cases.jsonl").compactMap { c in
      guard case .string(let id)? = c.value(forKey: "id"), case .string(let format)? = c.value(forKey: "format"),
        let e = expected[id], case .bool(let ok)? = e.value(forKey: "ok")
      else { return nil }
      var args: [SiftValue] = []
      if case .array(let a)? = c.value(forKey: "args") { args = a }
      var matches: [Int] = []
      if case .array(let m)? = e.value(forKey: "matches") {
        matches = m.compactMap { if case .int(let i) = $0 { Int(i) } else { nil } }
      }
      return Case(id: id, format: format, args: args, expected: ok ? matches : nil)
    }
  }()

  static let venues: SiftColumnarRecords? = try? SiftColumnarRecords(
    contentsOf: directory.appendingPathComponent("venues.json"))

  @Test func fixturesLoad() {
    #expect(Self.cases.count == 134)
    #expect(Self.venues?.count == 1000)
  }

  @Test(arguments: cases)
  func columns(_ c: Case) throws {
    let venues = try #require(Self.venues)
    for workers in [1, 2] {
      let got: [Int]?
      do {
        let m = try SiftPredicate(format: c.format, arguments: c.args).compile()
        got = try m.matchingIndices(venues, workers: workers)
      } catch {
        got = nil
      }
      #expect(got == c.expected, "\(c.id): \(c.format)")
    }
  }

  /// Most of the sample runs as kernels (the rest is the row evaluator's).
  @Test func mostCasesRunAsKernels() throws {
    let venues = try #require(Self.venues)
    var kernels = 0
    for c in Self.cases where c.expected != nil {
      guard let m = try? SiftPredicate(format: c.format, arguments: c.args).compile() else { continue }
      if m.columnarFallback(for: venues) == nil { kernels += 1 }
    }
    #expect(kernels >= 40, "\(kernels) cases ran as kernels")
  }
}
