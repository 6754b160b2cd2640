import Dispatch
import Foundation

/// A compiled `MATCHES` pattern: an ICU regular expression (NSRegularExpression syntax) that
/// must match the whole string. `[c]` makes it case-insensitive; `[d]` folds diacritics out
/// of both the pattern and the subject first.
///
/// Shared by in-memory evaluation and the `REGEXP`/`sift_matches` SQLite functions.
///
/// ```swift
/// let r = try RegexPattern("(Blue|Red) .*", options: [])
/// r.matches("Red bar")   // true
/// r.matches("A Red bar") // false: whole-string
/// ```
package struct RegexPattern: @unchecked Sendable {
  /// The pattern as written.
  package let pattern: String
  /// The options it was compiled with.
  package let options: ComparisonOptions
  // NSRegularExpression is immutable and documented thread-safe for matching.
  let regex: NSRegularExpression
  /// The linear-time matcher, when the pattern is in its subset (no backreferences,
  /// lookaround, …): it answers instead of ICU, in time linear in the subject.
  let automaton: RegexAutomaton?
  /// Why `automaton` is nil (nil when it is not): what a `LimitExceeded` says.
  package let backtrackingReason: BacktrackingReason?

  /// Why a pattern runs on ICU's backtracking matcher instead of the linear-time automaton.
  package enum BacktrackingReason: Sendable, Hashable {
    /// It uses a construct outside the automaton's subset (a backreference, lookaround, an
    /// atomic group, a possessive quantifier, `\b`, `\p{…}`, inline flags, …).
    case construct
    /// It is in the subset, but once its counted repetitions are expanded it has this many
    /// terms (`RegexPattern.expandedSize(_:)`), more than the automaton takes.
    case expandedSize(Int)
  }

  /// Why a pattern could not be compiled.
  package struct InvalidPattern: Error, Sendable, CustomStringConvertible {
    /// The pattern.
    package var pattern: String
    /// ICU's explanation.
    package var reason: String
    /// "invalid regular expression …: reason".
    package var description: String { "invalid regular expression \"\(pattern)\": \(reason)" }
  }

  /// Compiles a pattern; an invalid one throws instead of crashing. The empty pattern (also
  /// one that `[d]` folds to nothing) matches exactly the empty string.
  ///
  /// ```swift
  /// try RegexPattern("").matches("")    // true
  /// try RegexPattern("").matches("a")   // false
  /// ```
  package init(_ pattern: String, options: ComparisonOptions = []) throws(InvalidPattern) {
    self.pattern = pattern
    self.options = options
    let source =
      options.contains(.diacriticInsensitive)
      ? TextFolding.fold(pattern, [.diacriticInsensitive]) : pattern
    var nsOptions: NSRegularExpression.Options = []
    if options.contains(.caseInsensitive) { nsOptions.insert(.caseInsensitive) }
    do {
      // An empty pattern matches exactly the empty string (Foundation on Linux rejects an
      // empty pattern, so it is not validated on its own).
      if source.isEmpty {
        regex = try NSRegularExpression(pattern: "\\A\\z", options: nsOptions)
        automaton = RegexAutomaton("", caseInsensitive: false)
        backtrackingReason = nil
        return
      }
      // Validate the pattern on its own first, so wrapping cannot change what it means.
      _ = try NSRegularExpression(pattern: source, options: nsOptions)
      regex = try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: nsOptions)
      let caseInsensitive = options.contains(.caseInsensitive)
      automaton = RegexAutomaton(source, caseInsensitive: caseInsensitive)
      if automaton != nil {
        backtrackingReason = nil
      } else {
        var parser = RegexAutomaton.Parser(source, caseInsensitive: caseInsensitive)
        backtrackingReason =
          parser.parse() == nil ? .construct : .expandedSize(RegexPattern.expandedSize(source))
      }
    } catch {
      throw InvalidPattern(pattern: pattern, reason: (error as NSError).localizedDescription)
    }
  }

  /// True when the whole of `text` matches. A pattern without backreferences or lookaround
  /// runs in linear time (`RegexAutomaton`); for the others, a match that would need more than
  /// the step limit counts as no match here — use `match(_:)`, which says so instead.
  ///
  /// ```swift
  /// try RegexPattern("(a+)+$").matches(String(repeating: "a", count: 40) + "b")   // false, at once
  /// ```
  package func matches(_ text: String) -> Bool {
    (try? match(text)) ?? false
  }

  // One matcher beside ICU. `SimpleRegex` (a Glushkov bit-set matcher for literals, `.`,
  // groups, `|`, `?` and one `*`/`+`) used to answer the evaluator's constant MATCHES before
  // this automaton existed; re-measured against it (`sift-bench --data
  // Tests/Fixtures/conformance/venues.json --format P`, 1,000 venues, release, ns/record, three
  // interleaved runs on a shared 2-core machine, min-max): on its own shapes it was as fast or a
  // little faster — `(Blue|Red) .*` 18-48 vs 21-57, `Red Caf.` 15-31 vs 37-50, `v0x..` 37-59
  // vs 27-76, `\+1-555-.*` 45-94 vs 61-185 — and every pattern outside them (a class, a counted
  // repeat, an anchor) went to the generic path with the clock: `v0x[0-9a-f]{2}` 166-293 vs
  // 27-92, `[A-Z][a-z]+ .*` 140-401 vs 38-105. The automaton covers both, so it stayed and
  // `SimpleRegex` went; its DFA reads non-ASCII scalars by piece (`wideStarts`), without which
  // `.*(bar|Café)` took 470 ns (37-102 with `SimpleRegex`, 74-109 now).
  /// Whether `quickMatch(_:)` decides this pattern: no `[c]`/`[d]`, and an automaton small
  /// enough (`RegexAutomaton.isQuick`) to run without reading a clock.
  package var hasQuickMatch: Bool { options.isEmpty && automaton?.isQuick == true }

  /// The whole-string answer without a clock, for the evaluator's fast paths (which have
  /// none): nil unless `hasQuickMatch` and `text` has at most
  /// `RegexAutomaton.quickSubjectBytes` UTF-8 bytes — then `match(_:deadline:)` decides.
  ///
  /// ```swift
  /// try RegexPattern("(Blue|Red) .*").quickMatch("Red bar")   // true
  /// ```
  package func quickMatch(_ text: String) -> Bool? {
    // Optional chaining reads the automaton in place (`if let` would copy its arrays out).
    options.isEmpty ? automaton?.quickMatches(text) : nil
  }

  /// Thrown by `match(_:)` when ICU's matcher used up its step budget.
  package struct LimitExceeded: Error, Sendable, CustomStringConvertible {
    /// The pattern.
    package var pattern: String
    /// The budget that ran out, in ICU progress units (about 10,000 matcher steps each).
    package var units: Int
    /// Why the pattern ran on the backtracking matcher.
    package var reason: BacktrackingReason = .construct
    /// "regular expression … needs more than … steps" and why it backtracks.
    package var description: String {
      "regular expression \"\(pattern)\" needs more than \(units * 10_000) matching steps (\(why))"
    }

    /// Why the pattern backtracks, in words: what is true of it, never "it backtracks" alone.
    package var why: String {
      switch reason {
      case .construct:
        return "it uses a construct the linear-time matcher does not run, such as a backreference or lookaround, "
          + "so ICU's backtracking matcher ran it"
      case .expandedSize(let n):
        return "once its counted repetitions are expanded it has \(n) terms, more than the "
          + "\(RegexAutomaton.maxInstructions) the linear-time matcher takes, so ICU's backtracking matcher ran it"
      }
    }
  }

  /// Why `match(_:deadline:)` stopped without an answer.
  package enum Stop: Error, Sendable {
    /// ICU's step budget ran out.
    case steps(LimitExceeded)
    /// The clock passed the deadline while matching.
    case deadline
  }

  /// True once `DispatchTime.now()` is past `deadline` (uptime nanoseconds); never for 0.
  @inline(__always)
  package static func passed(_ deadline: UInt64) -> Bool {
    deadline != 0 && DispatchTime.now().uptimeNanoseconds > deadline
  }

  /// ICU progress units (each about 10,000 matcher steps) a match may use on a subject of
  /// `length` UTF-16 units: 20 (200,000 steps) plus one per 1,000 units of subject — about
  /// ten times what a linear scan needs, and at most ~10 ms of backtracking on short strings.
  ///
  /// ```swift
  /// RegexPattern.stepBudget(forLength: 10)          // 20
  /// RegexPattern.stepBudget(forLength: 1_000_000)   // 1020
  /// ```
  package static func stepBudget(forLength length: Int) -> Int {
    20 &+ length / 1_000
  }

  /// Like `matches(_:)`, but says when the step budget (`stepBudget(forLength:)`) ran out
  /// instead of answering `false`. Patterns the linear-time automaton takes never run out;
  /// for the others the budget counts matcher steps, not wall-clock time, so the answer is
  /// the same on every run and machine.
  ///
  /// ```swift
  /// let r = try RegexPattern("(a+)+$")
  /// try r.match(String(repeating: "a", count: 40) + "b")   // false, in linear time
  /// try RegexPattern("(a+)+\\1").match(String(repeating: "a", count: 40) + "b")   // throws LimitExceeded
  /// ```
  package func match(_ text: String) throws(LimitExceeded) -> Bool {
    do { return try match(text, deadline: 0) } catch {
      switch error {
      case .steps(let e): throw e
      case .deadline: throw LimitExceeded(pattern: pattern, units: 0, reason: backtrackingReason ?? .construct)
      }
    }
  }

  /// `match(_:)` that also reads the clock while matching, in the automaton and in ICU's
  /// progress callback: past `deadline` (`DispatchTime` uptime nanoseconds; 0 for none) it
  /// throws `.deadline` — a time limit stops one costly subject too, not only between
  /// records.
  ///
  /// ```swift
  /// let soon = DispatchTime.now().uptimeNanoseconds + 200_000_000
  /// try RegexPattern("(.*a){1000}b").match(String(repeating: "xa", count: 1000), deadline: soon)
  /// // throws .deadline after ~0.2 s instead of answering after ~0.4 s
  /// ```
  package func match(_ text: String, deadline: UInt64) throws(Stop) -> Bool {
    let subject =
      options.contains(.diacriticInsensitive)
      ? TextFolding.fold(text, [.diacriticInsensitive]) : text
    if let automaton {
      switch automaton.matches(subject, deadline: deadline) {
      case .answer(let a): return a
      case .deadlinePassed: throw .deadline
      case .undecided: break
      }
    }
    return try backtrackingMatch(subject, deadline: deadline)
  }

  /// ICU's answer under the step budget, whatever the pattern (the matcher before
  /// `RegexAutomaton`), for `sift-bench --suite hostile` to compare against.
  package func backtrackingMatchForBench(_ text: String) throws(LimitExceeded) -> Bool {
    let subject = options.contains(.diacriticInsensitive) ? TextFolding.fold(text, [.diacriticInsensitive]) : text
    do { return try backtrackingMatch(subject, deadline: 0) } catch {
      switch error {
      case .steps(let e): throw e
      case .deadline: throw LimitExceeded(pattern: pattern, units: 0)
      }
    }
  }

  /// Whether the linear-time automaton decides this pattern.
  package var isLinearForBench: Bool { automaton != nil }

  /// ICU's answer under the step budget and the deadline (what `match(_:deadline:)` does for
  /// patterns outside the automaton's subset); the subject is already folded.
  func backtrackingMatch(_ subject: String, deadline: UInt64 = 0) throws(Stop) -> Bool {
    let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
    let budget = RegexPattern.stepBudget(forLength: range.length)
    var matched = false
    var units = 0
    var late = false
    // With `.reportProgress` ICU calls back every ~10,000 steps (uregex_setMatchCallback);
    // stopping there abandons the match. Portable: Darwin and swift-corelibs-foundation.
    regex.enumerateMatches(in: subject, options: [.reportProgress], range: range) { result, _, stop in
      if result != nil {
        matched = true
        stop.pointee = true
        return
      }
      units &+= 1
      if units > budget { stop.pointee = true }
      if RegexPattern.passed(deadline) {
        late = true
        stop.pointee = true
      }
    }
    if matched { return true }
    if late { throw .deadline }
    if units > budget {
      throw .steps(LimitExceeded(pattern: pattern, units: budget, reason: backtrackingReason ?? .construct))
    }
    return false
  }
}
