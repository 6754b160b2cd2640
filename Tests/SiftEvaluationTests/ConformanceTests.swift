import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// One line of venues-cases.jsonl joined with its expected answer.
struct ConformanceCase: CustomStringConvertible, Sendable {
  var id: String
  var format: String
  var args: [SiftValue]
  var ok: Bool
  var matches: [Int]
  var description: String { id }
}

enum Conformance {
  static func lines(_ name: String) -> [SiftValue] {
    let url = fixturesDirectory.appendingPathComponent(name)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { try? SiftJSON.parse(String($0)) }
  }

  static let cases: [ConformanceCase] = {
    var expected: [String: SiftValue] = [:]
    for e in lines("venues-expected.jsonl") {
      if case .string(let id)? = e.value(forKey: "id") { expected[id] = e }
    }
    return lines("venues-cases.jsonl").compactMap { c -> ConformanceCase? in
      guard case .string(let id)? = c.value(forKey: "id"), case .string(let format)? = c.value(forKey: "format"),
        let e = expected[id], case .bool(let ok)? = e.value(forKey: "ok")
      else { return nil }
      var args: [SiftValue] = []
      if case .array(let a)? = c.value(forKey: "args") { args = a }
      var matches: [Int] = []
      if case .array(let m)? = e.value(forKey: "matches") {
        matches = m.compactMap { if case .int(let i) = $0 { return Int(i) } else { return nil } }
      }
      return ConformanceCase(id: id, format: format, args: args, ok: ok, matches: matches)
    }
  }()

  static let venues: [SiftObject] = {
    (try? JSONRecords.load(contentsOf: fixturesDirectory.appendingPathComponent("venues.json"))) ?? []
  }()

  static let venueValues: [SiftValue] = {
    guard let data = try? Data(contentsOf: fixturesDirectory.appendingPathComponent("venues.json")),
      case .array(let items) = try? SiftJSON.parse(bytes: [UInt8](data))
    else { return [] }
    return items
  }()

  /// Runs a case; nil means an error at any stage.
  static func run<R: SiftRecord>(_ c: ConformanceCase, over records: [R]) -> [Int]? {
    do {
      let m = try SiftPredicate(format: c.format, arguments: c.args).compile()
      return try m.matchingIndices(records)
    } catch {
      return nil
    }
  }
}

@Suite struct ConformanceTests {
  @Test func fixturesLoad() {
    #expect(Conformance.cases.count == 134)
    #expect(Conformance.venues.count == 1000)
    #expect(Conformance.venueValues.count == 1000)
  }

  @Test(arguments: Conformance.cases)
  func fastRecords(_ c: ConformanceCase) {
    let got = Conformance.run(c, over: Conformance.venues)
    if c.ok {
      #expect(got == c.matches, "\(c.id): \(c.format)")
    } else {
      #expect(got == nil, "\(c.id) should fail: \(c.format)")
    }
  }

  /// The same answers over plain `SiftValue` dictionaries (the slow, generic record path).
  @Test(arguments: Conformance.cases)
  func dictionaryRecords(_ c: ConformanceCase) {
    let got = Conformance.run(c, over: Conformance.venueValues)
    #expect(got == (c.ok ? c.matches : nil), "\(c.id): \(c.format)")
  }
}
