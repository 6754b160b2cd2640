import SiftSyntax

/// What happens when evaluating a record fails (a type error such as `BEGINSWITH` on a number,
/// `ANY` over a non-collection, integer division by zero).
///
/// ```swift
/// var options = EvaluationOptions()
/// options.policy = .treatAsNoMatch
/// ```
public enum ErrorPolicy: Sendable, Hashable {
  /// The whole `matches`/`filter` call throws the first error (the default).
  case strict
  /// The failing record counts as not matching, even under `NOT`; other records go on.
  /// Running out of a budget (`time-limit`, `work-limit`, `regex-limit`) still stops the call:
  /// that is never an answer.
  case treatAsNoMatch
}

/// Settings for `SiftPredicate.compile(_:)`.
///
/// ```swift
/// var functions = FunctionRegistry()
/// functions.register("double:") { receiver, _ in
///   if case .int(let i) = receiver { return .int(i &* 2) }
///   return .null
/// }
/// let m = try SiftPredicate(format: "FUNCTION(tipCount, 'double:') > 100")
///   .compile(EvaluationOptions(policy: .treatAsNoMatch, functions: functions))
/// ```
public struct EvaluationOptions: Sendable {
  /// Strict (throw) or lenient (a failing record does not match).
  public var policy: ErrorPolicy
  /// Functions callable with `FUNCTION(receiver, 'name', args…)`.
  public var functions: FunctionRegistry
  /// Wall-clock milliseconds one call (`filter`, `matchingIndices`, `execute`) may run before
  /// it stops with the error `time-limit` (stage `.evaluate`); nil for no limit. Checked
  /// between small runs of records, inside SUBQUERY loops and while MATCHES matches one
  /// value (so a single costly subject stops at the limit too).
  ///
  /// ```swift
  /// var options = EvaluationOptions()
  /// options.timeLimit = 2000   // 2 s
  /// ```
  public var timeLimit: Int? = nil

  /// Creates options; the defaults are strict with no custom functions.
  public init(policy: ErrorPolicy = .strict, functions: FunctionRegistry = FunctionRegistry()) {
    self.policy = policy
    self.functions = functions
  }
}

/// Named Swift closures that `FUNCTION(receiver, 'selector', args…)` may call, besides the
/// selectors of `SiftSelector`'s table (`uppercaseString`, `length`, `intValue`, …), which run
/// without registration in memory and SQL. A registered name wins over the table in memory only:
/// SQL never sees registrations (Grammar/notes/evaluation.md). A name neither registered nor in
/// the table is the compile error `unknown-function`.
///
/// ```swift
/// var registry = FunctionRegistry()
/// registry.register("reversed") { receiver, _ in
///   guard case .string(let s) = receiver else { return .null }
///   return .string(String(s.reversed()))
/// }
/// ```
public struct FunctionRegistry: Sendable {
  /// A registered function: the receiver and the other arguments, evaluated; its result.
  /// A thrown error becomes the evaluation error `function-failed`.
  public typealias Function = @Sendable (_ receiver: SiftValue, _ arguments: [SiftValue]) throws -> SiftValue

  var functions: [String: Function] = [:]

  /// An empty registry.
  public init() {}

  /// Registers (or replaces) a function under its selector name, as written in the predicate.
  ///
  /// ```swift
  /// registry.register("isEven") { r, _ in if case .int(let i) = r { return .bool(i % 2 == 0) }; return .null }
  /// ```
  public mutating func register(_ name: String, _ function: @escaping Function) {
    functions[name] = function
  }

  /// The names registered.
  ///
  /// ```swift
  /// registry.names   // ["isEven"]
  /// ```
  public var names: [String] { functions.keys.sorted() }

  func lookup(_ name: String) -> Function? { functions[name] }
}
