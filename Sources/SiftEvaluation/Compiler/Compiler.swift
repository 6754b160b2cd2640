import Foundation
import SiftSyntax

typealias PredicateFn = @Sendable (Ctx) throws(EvalFailure) -> Bool
typealias ExpressionFn = @Sendable (Ctx) throws(EvalFailure) -> EvalValue
typealias Visitor = (EvalValue) throws(EvalFailure) -> Bool
/// Visits a collection's elements until `body` returns true; returns whether it did.
typealias ElementsFn = @Sendable (Ctx, Visitor) throws(EvalFailure) -> Bool

/// Plans a predicate tree (`PredicatePlan`). Everything that does not depend on the record is
/// done here once: key paths split and interned, constants folded, string needles folded, LIKE
/// and MATCHES patterns compiled, variables resolved to slots, custom functions looked up; and
/// everything that can never evaluate is reported. Which closures run is decided later, when
/// the plan is lowered (`Specializer`, or `GenericLowering` without fast paths).
struct Compiler {
  let functions: FunctionRegistry
  /// Free variables: name → slot, and where each is first used.
  var freeVariables: [String: Int] = [:]
  var freeVariableRanges: [String: SiftSourceRange] = [:]
  /// SUBQUERY iterators in scope: name → slot (innermost wins).
  var scope: [String: Int] = [:]
  var slotCount = 0
  /// SUBQUERYs around the one being planned.
  var subqueryNesting = 0

  init(functions: FunctionRegistry) {
    self.functions = functions
  }

  mutating func newSlot() -> Int {
    defer { slotCount += 1 }
    return slotCount
  }

  // MARK: Predicates

  mutating func predicate(_ p: PredicateNode) throws(EvalFailure) -> PredicatePlan {
    switch p.kind {
    case .constant(let b): return .constant(b)
    case .not(let inner): return .not(try predicate(inner))
    case .and(let terms): return .and(try predicates(terms), terms)
    case .or(let terms): return .or(try predicates(terms), terms)
    case .comparison(let c): return .comparison(try comparison(c))
    }
  }

  mutating func predicates(_ terms: [PredicateNode]) throws(EvalFailure) -> [PredicatePlan] {
    var out: [PredicatePlan] = []
    out.reserveCapacity(terms.count)
    for t in terms { out.append(try predicate(t)) }
    return out
  }

  /// The right side first, then the operator (prepared for a constant right side), then the
  /// left side: the order in which compile-time errors are reported.
  mutating func comparison(_ c: SiftComparison) throws(EvalFailure) -> ComparisonPlan {
    let rhs = try expression(c.rhs)
    let test = try PreparedComparison(c, constantRHS: rhs.constant)
    if let q = c.quantifier {
      return ComparisonPlan(node: c, test: test, lhs: .elements(try elementsOf(c.lhs, quantifier: q)), rhs: rhs)
    }
    return ComparisonPlan(node: c, test: test, lhs: .value(try expression(c.lhs)), rhs: rhs)
  }

  /// The elements the left side of ANY/ALL/NONE ranges over.
  mutating func elementsOf(_ e: ExpressionNode, quantifier q: SiftQuantifier) throws(EvalFailure) -> ElementsPlan {
    if case .keyPath(let base, let kp) = e.kind {
      let reader = KeyPathReader(kp, range: e.range)
      return .keyPath(base: try base.map { x throws(EvalFailure) in try expression(x) }, reader)
    }
    return .value(try expression(e))
  }
}
