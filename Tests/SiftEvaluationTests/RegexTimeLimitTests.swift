import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// Issue 35, item 2: a time limit stops a costly MATCHES inside one subject, in the automaton
/// and in ICU, with `time-limit` — never a late answer, never a silent "no match". The bounds
/// asserted are generous (a 200 ms limit must stop in under 5 s; before the fix these ran for
/// minutes); speed itself is measured with `sift-bench`.
@Suite("MATCHES under a time limit")
struct RegexTimeLimitTests {
  /// 13 bytes, no backreferences, ~3,000 automaton instructions: about 0.4 s per 2 KB subject
  /// in a release build, far more in a debug one.
  static let costly = "(.*a){1000}b"
  static let subject = String(repeating: "xa", count: 4000)

  static func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
  }

  static func expectTimeLimit(_ label: String, _ body: () throws(SiftError) -> Void) {
    let t = timed {
      do throws(SiftError) {
        try body()
        Issue.record("\(label): finished")
      } catch {
        #expect(error.diagnostic.id == "time-limit", "\(label): \(error)")
      }
    }
    #expect(t < 5, "\(label): \(t) s")
  }

  @Test func theAutomatonReadsTheClock() throws {
    let r = try RegexPattern(Self.costly)
    #expect(r.backtrackingReason == nil, "the linear-time automaton runs it")
    // A deadline already past: the match stops at its first look at the clock.
    #expect(throws: RegexPattern.Stop.self) { try r.match(Self.subject, deadline: 1) }
    // The DFA reads the clock too (a long subject of a small pattern).
    let small = try RegexPattern("[a-z]+")
    let long = String(repeating: "a", count: 1 << 18)
    #expect(throws: RegexPattern.Stop.self) { try small.match(long, deadline: 1) }
    #expect(try small.match(long, deadline: 0))
    #expect(try r.match(String(repeating: "a", count: 1000) + "b"))
  }

  @Test func icuReadsTheClock() throws {
    let r = try RegexPattern(#"(a+)+\1$"#)
    #expect(r.backtrackingReason == .construct)
    do {
      _ = try r.match(String(repeating: "a", count: 40) + "b", deadline: 1)
      Issue.record("answered")
    } catch {
      guard case .deadline = error else {
        Issue.record("\(error)")
        return
      }
    }
  }

  @Test func oneCostlyRecordStopsAtTheLimit() throws {
    let records = try JSONRecords.records(
      from: .array([["body": .string(Self.subject), "tags": [.string(Self.subject)]]]))
    let formats = [
      "body MATCHES '\(Self.costly)'",
      "body MATCHES '\(Self.costly)' AND body BEGINSWITH 'x'",  // a fused conjunction
      "ANY tags MATCHES '\(Self.costly)'",  // a quantified key
      "SUBQUERY(tags, $t, $t MATCHES '\(Self.costly)').@count > 0",
      "body MATCHES[c] '\(Self.costly)'",
    ]
    for format in formats {
      for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
        var options = EvaluationOptions(policy: policy)
        options.timeLimit = 200
        let m = try SiftPredicate(format: format).compile(options)
        Self.expectTimeLimit("\(format) \(policy)") { () throws(SiftError) in _ = try m.matchingIndices(records) }
        Self.expectTimeLimit("\(format) \(policy), one record") { () throws(SiftError) in
          _ = try m.matches(["body": .string(Self.subject), "tags": [.string(Self.subject)]] as SiftValue)
        }
      }
    }
    // A pattern read from the record (not a constant) too.
    var options = EvaluationOptions()
    options.timeLimit = 200
    let m = try SiftPredicate(format: "body MATCHES pattern").compile(options)
    Self.expectTimeLimit("a computed pattern") { () throws(SiftError) in
      _ = try m.matches(["body": .string(Self.subject), "pattern": .string(Self.costly)] as SiftValue)
    }
  }

  @Test func manyCostlyRecordsStopAtTheLimit() throws {
    let records = try JSONRecords.records(from: .array((0..<600).map { _ in ["body": .string(Self.subject)] }))
    var options = EvaluationOptions()
    options.timeLimit = 200
    let m = try SiftPredicate(format: "body MATCHES '\(Self.costly)'").compile(options)
    Self.expectTimeLimit("600 records") { () throws(SiftError) in _ = try m.matchingIndices(records) }
    Self.expectTimeLimit("600 records, two workers") { () throws(SiftError) in
      _ = try m.matchingIndices(records, in: 0..<records.count, workers: 2)
    }
  }

  @Test func withoutALimitTheAnswerIsKept() throws {
    let m = try SiftPredicate(format: "body MATCHES '(.*a){3}b'").compile()
    #expect(try m.matches(["body": "xaxaxab"] as SiftValue))
    #expect(try !m.matches(["body": "xaxab"] as SiftValue))
  }

  /// Item 9: a pattern without backreferences that ICU runs only because it is too large
  /// once expanded is not said to "backtrack" by nature; the note says what is true.
  @Test func theStepErrorSaysWhyThePatternBacktracks() throws {
    let big = try RegexPattern("((.*a){50}){50}b")
    #expect(big.backtrackingReason == .expandedSize(7501))
    let m = try SiftPredicate(format: "body MATCHES '((.*a){50}){50}b'").compile()
    do {
      _ = try m.matches(["body": .string(String(repeating: "xa", count: 200))] as SiftValue)
      Issue.record("answered")
    } catch {
      #expect(error.diagnostic.id == "regex-limit")
      let note = error.diagnostic.notes.map(\.message).joined(separator: " ")
      #expect(note.contains("7501 terms"), "\(note)")
      #expect(!note.contains("this one backtracks"), "\(note)")
    }
    let back = try SiftPredicate(format: #"body MATCHES '(a+)+\\1b'"#).compile()
    do {
      _ = try back.matches(["body": .string(String(repeating: "a", count: 40) + "c")] as SiftValue)
      Issue.record("answered")
    } catch {
      #expect(error.diagnostic.id == "regex-limit")
      #expect(error.diagnostic.notes.map(\.message).joined().contains("backreference"))
    }
  }
}
