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
  ///   MATCHES pattern, an unregistered `FUNCTION`, `ANYKEY`, UTI operators, unbound `%@`.
  public func compile(_ options: EvaluationOptions = EvaluationOptions()) throws(SiftError) -> SiftMatcher {
    try compile(options, fastPaths: true)
  }

  /// `compile(_:)`, optionally without the specialized closures (tests compare both).
  func compile(_ options: EvaluationOptions, fastPaths: Bool) throws(SiftError) -> SiftMatcher {
    var compiler = Compiler(functions: options.functions, fastPaths: fastPaths)
    do {
      let root = try compiler.predicate(self.root)
      let free = compiler.freeVariables.map { (name: $0.key, slot: $0.value, range: compiler.freeVariableRanges[$0.key] ?? .at(0)) }
        .sorted { $0.range.start < $1.range.start }
      let program = Program(
        root: root, slotCount: compiler.slotCount, freeVariables: free, policy: options.policy, source: source)
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
  let freeVariables: [(name: String, slot: Int, range: SourceRange)]
  let policy: ErrorPolicy
  let source: String

  init(
    root: @escaping PredicateFn, slotCount: Int, freeVariables: [(name: String, slot: Int, range: SourceRange)],
    policy: ErrorPolicy, source: String
  ) {
    self.root = root
    self.slotCount = slotCount
    self.freeVariables = freeVariables
    self.policy = policy
    self.source = source
  }

  /// Binds the variables for one call; an unbound one is an error naming it.
  @usableFromInline
  func start(_ variables: [String: SiftValue]) throws(SiftError) -> Run {
    let frame = Frame(slotCount: slotCount)
    for v in freeVariables {
      guard let value = variables[v.name] else {
        throw EvalDiagnostics.unboundVariable(v.name, at: v.range).error(source: source)
      }
      frame.slots[v.slot] = EvalValue(value)
    }
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

  /// Evaluates one record under the program's error policy.
  /// Takes the root as its own (`consuming`), so it moves into the context without a retain.
  @usableFromInline
  func test(_ root: consuming SiftRecordRoot, index: Int?) throws(SiftError) -> Bool {
    do {
      return try predicate(Ctx(root: root.value, frame: frame))
    } catch {
      if program.policy == .treatAsNoMatch { return false }
      var failure = error
      if let index { failure.diagnostic.notes.append(.init("while evaluating record \(index)")) }
      throw failure.error(source: program.source)
    }
  }
}
