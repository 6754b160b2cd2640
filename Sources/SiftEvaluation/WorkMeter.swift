import Dispatch
import SiftSyntax

/// What one evaluation call may spend beyond reading a record: SUBQUERY steps per record
/// (nested SUBQUERYs multiply, so 20 levels over two elements would be 2^20 inner tests per
/// record) and an optional wall-clock deadline (`EvaluationOptions.timeLimit`). Exceeding
/// either is an error whatever the error policy: a query that runs out of budget is stopped,
/// never answered as "no match".
///
/// The outermost SUBQUERY of a record starts a fresh count; every element tested by any
/// SUBQUERY inside it counts one step.
struct WorkMeter {
  /// SUBQUERY elements one outermost SUBQUERY may test for one record (nested ones included).
  static let subquerySteps = 1_000_000
  /// Steps between two looks at the clock.
  static let clockInterval = 1024

  var steps = 0
  /// `DispatchTime.now().uptimeNanoseconds` after which the call stops; 0 for none.
  var deadline: UInt64 = 0
  /// The limit the deadline came from, for the message.
  var milliseconds = 0

  /// Counts one SUBQUERY element; throws when the budget or the deadline is exceeded.
  @inline(__always)
  mutating func step(at range: SiftSourceRange) throws(EvalFailure) {
    steps &+= 1
    if steps & (WorkMeter.clockInterval &- 1) == 0 {
      if steps > WorkMeter.subquerySteps { throw EvalDiagnostics.workLimit(at: range) }
      try checkClock(at: range)
    }
  }

  /// Throws `time-limit` once the deadline has passed.
  func checkClock(at range: SiftSourceRange) throws(EvalFailure) {
    if deadline != 0 && DispatchTime.now().uptimeNanoseconds > deadline {
      throw EvalDiagnostics.timeLimit(milliseconds, at: range)
    }
  }

  /// Starts the deadline `milliseconds` from now (nil: none).
  mutating func start(milliseconds: Int?) {
    guard let milliseconds else { return }
    self.milliseconds = milliseconds
    deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, milliseconds)) &* 1_000_000
  }
}

extension EvalFailure {
  /// Errors no error policy turns into "no match": the query ran out of its budget.
  var stopsTheCall: Bool {
    [DiagnosticID.timeLimit, .workLimit, .regexLimit].contains { diagnostic.id == $0.rawValue }
  }
}

extension EvalDiagnostics {
  static func timeLimit(_ milliseconds: Int, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.timeLimit, "the query ran longer than its time limit of \(milliseconds) ms", at: r)
  }

  static func workLimit(at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .workLimit, "SUBQUERY needs more than \(WorkMeter.subquerySteps) steps for one record", at: r,
      notes: [.init("nest fewer SUBQUERYs or narrow their collections")])
  }

  static func regexLimit(_ e: RegexPattern.LimitExceeded, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .regexLimit, "regular expression \"\(e.pattern)\" needs more than \(e.units * 10_000) matching steps", at: r,
      notes: [.init(e.why)])
  }
}

/// The time limit of one scan that runs outside the evaluator (the columnar kernels), read
/// between its parts: the same deadline and the same `time-limit` error as the evaluator's.
package struct ScanDeadline: Sendable {
  let deadline: UInt64
  let milliseconds: Int
  let source: String

  /// True once the deadline has passed.
  package var passed: Bool { DispatchTime.now().uptimeNanoseconds > deadline }

  /// The evaluator's `time-limit` error, over the whole predicate.
  package var error: SiftError {
    EvalDiagnostics.timeLimit(milliseconds, at: SiftSourceRange(start: 0, end: source.utf8.count))
      .error(source: source)
  }
}

extension SiftMatcher {
  /// This matcher's `EvaluationOptions.timeLimit` as a deadline starting now; nil for none.
  package func scanDeadline() -> ScanDeadline? {
    guard let m = program.deadlineFromNow() else { return nil }
    return ScanDeadline(deadline: m.deadline, milliseconds: m.milliseconds, source: program.source)
  }
}
