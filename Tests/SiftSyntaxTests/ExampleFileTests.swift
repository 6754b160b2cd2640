import Testing

@testable import SiftSyntax

@Suite("Grammar example files and the conformance sample")
struct ExampleFileTests {
  @Test func everyValidLineParsesAndRoundTrips() throws {
    let lines = try Repo.lines("Grammar/examples/valid.txt").filter { !$0.isEmpty }
    #expect(lines.count > 80)
    for line in lines {
      do {
        try assertParses(line)
      } catch {
        Issue.record("valid.txt line failed: \(line)\n\(error)")
      }
    }
  }

  @Test func everyInvalidLineGetsADiagnostic() throws {
    let lines = try Repo.lines("Grammar/examples/invalid.txt")
    #expect(lines.count > 40)
    for line in lines.dropLast() {  // the file ends with a newline
      guard let e = parseError(line) else {
        Issue.record("invalid.txt line parsed: \(line)")
        continue
      }
      #expect(!e.diagnostic.id.isEmpty)
      #expect(e.diagnostic.range.start <= line.utf8.count)
    }
  }

  /// Every conformance case that is `ok` parses with its arguments; every `ok: false` case is
  /// either a parse/argument error here or one for the evaluator.
  @Test func conformanceCasesParse() throws {
    let expected = try Self.expectedResults()
    var parsed = 0
    for line in try Repo.lines("Tests/Fixtures/conformance/venues-cases.jsonl") where !line.isEmpty {
      guard case .dictionary(let c) = try SiftJSON.parse(line), case .string(let id)? = c["id"],
        case .string(let format)? = c["format"], case .array(let args)? = c["args"]
      else {
        Issue.record("bad case line \(line)")
        continue
      }
      let ok = expected[id] ?? true
      let error = parseError(format, args)
      if ok {
        #expect(error == nil, "\(id): \(format)\n\(error.map(String.init(describing:)) ?? "")")
        if error == nil { try assertParses(format, args) }
        parsed += 1
      } else if id.hasPrefix("bad.") {
        #expect(error != nil, "\(id) should fail at parse or argument binding: \(format)")
      }
    }
    #expect(parsed >= 100)
  }

  static func expectedResults() throws -> [String: Bool] {
    var out: [String: Bool] = [:]
    for line in try Repo.lines("Tests/Fixtures/conformance/venues-expected.jsonl") where !line.isEmpty {
      if case .dictionary(let d) = try SiftJSON.parse(line), case .string(let id)? = d["id"],
        case .bool(let ok)? = d["ok"]
      {
        out[id] = ok
      }
    }
    return out
  }
}
