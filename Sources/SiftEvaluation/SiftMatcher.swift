import Foundation
import SiftSyntax

extension SiftPredicate {
  /// Compiles the predicate for in-memory evaluation, once; the result is reusable and safe to
  /// share across threads.
  ///
  /// ```swift
  /// let m = try SiftPredicate(format: "name BEGINSWITH[c] %@", "blue").compile()
  /// let hits = try m.filter(try JSONRecords.load(contentsOf: url))
  /// ```
  /// - Throws: `SiftError` at stage `.evaluate` for what can never evaluate: an invalid constant
  ///   MATCHES pattern, an unregistered `FUNCTION`, `ANYKEY`, unbound `%@`.
  public func compile(_ options: EvaluationOptions = EvaluationOptions()) throws(SiftError) -> SiftMatcher {
    try compile(options, fastPaths: true)
  }

  /// `compile(_:)`, optionally without the pass that chooses fast paths (`Specializer`): every
  /// node's generic closure (tests compare both).
  func compile(_ options: EvaluationOptions, fastPaths: Bool) throws(SiftError) -> SiftMatcher {
    var compiler = Compiler(functions: options.functions)
    do {
      let plan = try compiler.predicate(self.root)
      let root = fastPaths ? Specializer().predicate(plan) : GenericLowering().predicate(plan)
      let free = compiler.freeVariables.map {
        (name: $0.key, slot: $0.value, range: compiler.freeVariableRanges[$0.key] ?? .at(0))
      }
      .sorted { $0.range.start < $1.range.start }
      let program = Program(
        root: root, slotCount: compiler.slotCount, freeVariables: free, policy: options.policy, source: source,
        timeLimit: options.timeLimit)
      return SiftMatcher(program: program, predicate: self)
    } catch {
      throw error.error(source: source)
    }
  }
}

/// A compiled predicate: Sift's `NSPredicate.evaluate(with:)` and `filtered(using:)`.
/// Immutable and `Sendable`; every call keeps its own state, so one matcher can serve many
/// threads at once.
///
/// ```swift
/// let m = try SiftPredicate(format: "ANY tags == %@ AND distance < $MAX", "wifi").compile()
/// let near = try m.filter(venues, variables: ["MAX": 2.5])
/// let rows = try m.matchingIndices(venues, variables: ["MAX": 2.5])   // positions
/// ```
///
/// Errors (`SiftError`, stage `.evaluate`) point at the offending node. Under
/// `ErrorPolicy.strict` the first failing record stops the call; under `.treatAsNoMatch` a
/// failing record simply does not match. A free `$VARIABLE` without a value in `variables`
/// always throws `unbound-variable`, whatever the policy.
public struct SiftMatcher: Sendable {
  @usableFromInline let program: Program
  /// The predicate this matcher was compiled from.
  public let predicate: SiftPredicate

  init(program: Program, predicate: SiftPredicate) {
    self.program = program
    self.predicate = predicate
  }

  /// Names of the `$VARIABLES` that must be given at evaluation.
  ///
  /// ```swift
  /// try SiftPredicate(format: "a == $X").compile().variables   // ["X"]
  /// ```
  public var variables: Set<String> { Set(program.freeVariables.map(\.name)) }

  /// The error policy the matcher was compiled with.
  public var policy: ErrorPolicy { program.policy }

  /// Does `record` match? (`NSPredicate.evaluate(with:substitutionVariables:)`)
  ///
  /// ```swift
  /// try m.matches(SiftValue.dictionary(["name": "Blue Cafe"]))
  /// ```
  public func matches(_ record: some SiftRecord, variables: [String: SiftValue] = [:]) throws(SiftError) -> Bool {
    let run = try program.start(variables)
    return try run.test(record.siftRecordRoot, index: nil)
  }

  /// The matching records, in order (`filtered(using:)`).
  ///
  /// ```swift
  /// let cheap = try m.filter(venues)
  /// ```
  @inlinable
  public func filter<S: Sequence>(_ records: S, variables: [String: SiftValue] = [:]) throws(SiftError)
    -> [S.Element] where S.Element: SiftRecord
  {
    let run = try program.start(variables)
    var out: [S.Element] = []
    // Sift's own layouts in an array are read in place (no per-record wrapping).
    if let rows = exactArray(records), let layout = RecordArray(rows) {
      try run.each(layout) { i in out.append(rows[i]) }
      return out
    }
    var i = 0
    for r in records {
      if try run.test(r.siftRecordRoot, index: i) { out.append(r) }
      i &+= 1
    }
    return out
  }

  /// Offsets (0-based, in iteration order) of the matching records.
  ///
  /// ```swift
  /// try m.matchingIndices(venues)   // [2, 17, 40]
  /// ```
  @inlinable
  public func matchingIndices<C: Collection>(_ records: C, variables: [String: SiftValue] = [:]) throws(SiftError)
    -> [Int] where C.Element: SiftRecord
  {
    let run = try program.start(variables)
    var out: [Int] = []
    if let rows = exactArray(records), let layout = RecordArray(rows) {
      try run.each(layout) { i in out.append(i) }
      return out
    }
    var i = 0
    for r in records {
      if try run.test(r.siftRecordRoot, index: i) { out.append(i) }
      i &+= 1
    }
    return out
  }
}

/// The compiled program behind a matcher.
@usableFromInline
final class Program: Sendable {
  let root: PredicateFn
  let slotCount: Int
  let freeVariables: [(name: String, slot: Int, range: SiftSourceRange)]
  let policy: ErrorPolicy
  let source: String
  /// `EvaluationOptions.timeLimit`, in milliseconds.
  let timeLimit: Int?

  init(
    root: @escaping PredicateFn, slotCount: Int, freeVariables: [(name: String, slot: Int, range: SiftSourceRange)],
    policy: ErrorPolicy, source: String, timeLimit: Int? = nil
  ) {
    self.root = root
    self.slotCount = slotCount
    self.freeVariables = freeVariables
    self.policy = policy
    self.source = source
    self.timeLimit = timeLimit
  }

  /// Binds the variables for one call; an unbound one is an error naming it.
  @usableFromInline
  func start(_ variables: [String: SiftValue]) throws(SiftError) -> Run {
    try start(variables, deadline: nil)
  }

  /// The time limit as a deadline (`DispatchTime` nanoseconds) starting now; nil for none.
  func deadlineFromNow() -> WorkMeter? {
    guard timeLimit != nil else { return nil }
    var m = WorkMeter()
    m.start(milliseconds: timeLimit)
    return m
  }

  /// `start(_:)` with the deadline of a call that runs in parts (a parallel or async scan),
  /// so every part stops at the same instant.
  func start(_ variables: [String: SiftValue], deadline: WorkMeter?) throws(SiftError) -> Run {
    let frame = try Frame(slotCount: slotCount, binding: freeVariables, from: variables, source: source)
    if let deadline { frame.workMeter = deadline } else { frame.workMeter.start(milliseconds: timeLimit) }
    return Run(program: self, frame: frame)
  }
}

/// One evaluation call's state (not shared between threads).
@usableFromInline
struct Run {
  let program: Program
  let frame: Frame
  /// `program.root`, held here so each call needs no load through the program.
  let predicate: PredicateFn

  init(program: Program, frame: Frame) {
    self.program = program
    self.frame = frame
    self.predicate = program.root
  }

  /// Evaluates the records of `rows` in `range` (all of them when nil) in order, calling `hit`
  /// with the position (in `rows`) of each match. Errors follow the policy, as `test` does.
  /// Records are read where they are stored: a fast record is lent to the predicate without a
  /// retain, and nothing is wrapped per record.
  @usableFromInline
  func each(_ rows: RecordArray, in range: Range<Int>? = nil, _ hit: (Int) -> Void) throws(SiftError) {
    let meter = frame.workMeter
    guard meter.deadline != 0 else { return try eachRecord(rows, in: range, hit) }
    // Under a time limit: small runs of records, the clock read between them.
    let whole = (range ?? 0..<rows.count).clamped(to: 0..<rows.count)
    var start = whole.lowerBound
    while start < whole.upperBound {
      let end = min(whole.upperBound, start + 256)
      try eachRecord(rows, in: start..<end, hit)
      do throws(EvalFailure) { try frame.workMeter.checkClock(at: .at(0)) } catch { throw fail(error, index: end - 1) }
      start = end
    }
  }

  func eachRecord(_ rows: RecordArray, in range: Range<Int>?, _ hit: (Int) -> Void) throws(SiftError) {
    let frame = self.frame
    let predicate = self.predicate
    let strict = program.policy == .strict
    var failure: (EvalFailure, Int)?
    rows.lend(range ?? 0..<rows.count) { i, record in
      do throws(EvalFailure) {
        if try predicate(Ctx(record, frame: frame)) { hit(i) }
      } catch {
        if strict || error.stopsTheCall {
          failure = (error, i)
          return false
        }
      }
      return true
    }
    if let (error, index) = failure { throw fail(error, index: index) }
  }

  /// The error reported for a record that failed under `.strict`.
  func fail(_ error: EvalFailure, index: Int?) -> SiftError {
    var failure = error
    if let index { failure.diagnostic.notes.append(.init("while evaluating record \(index)")) }
    return failure.error(source: program.source)
  }

  /// Evaluates one record under the program's error policy.
  /// Takes the root as its own (`consuming`), so it moves into the context without a retain.
  @usableFromInline
  func test(_ root: consuming SiftRecordRoot, index: Int?) throws(SiftError) -> Bool {
    do {
      return try lending(root.value) { r throws(EvalFailure) in try predicate(Ctx(r, frame: frame)) }
    } catch {
      if program.policy == .treatAsNoMatch && !error.stopsTheCall { return false }
      throw fail(error, index: index)
    }
  }
}
