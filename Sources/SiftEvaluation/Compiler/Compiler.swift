import Foundation
import SiftSyntax

/// Mutable state of one evaluation call: the current record and the variable slots
/// (free `$VARIABLES` first, then one slot per SUBQUERY iterator). Made once per
/// `matches`/`filter` call and reused for every record, so records cost no allocation.
@usableFromInline
final class Frame {
  var slots: [EvalValue]

  init(slotCount: Int) { slots = Array(repeating: .null, count: slotCount) }
}

/// What compiled code receives per record: the record (by value, so reading it costs no
/// exclusivity check) and the call's ctx.
struct Ctx {
  let root: EvalValue
  let frame: Frame
}

typealias PredicateFn = @Sendable (Ctx) throws(EvalFailure) -> Bool
typealias ExpressionFn = @Sendable (Ctx) throws(EvalFailure) -> EvalValue
typealias Visitor = (EvalValue) throws(EvalFailure) -> Bool
/// Visits a collection's elements until `body` returns true; returns whether it did.
typealias ElementsFn = @Sendable (Ctx, Visitor) throws(EvalFailure) -> Bool

/// A compiled expression: a constant (folded at compile time) or code to run per record.
enum CompiledExpression {
  case constant(EvalValue)
  case dynamic(ExpressionFn)

  var function: ExpressionFn {
    switch self {
    case .constant(let v): return { _ in v }
    case .dynamic(let f): return f
    }
  }

  var constant: EvalValue? {
    if case .constant(let v) = self { return v }
    return nil
  }
}

/// Turns a predicate tree into closures. Everything that does not depend on the record is done
/// here once: key paths split and interned, constants folded, string needles folded, LIKE and
/// MATCHES patterns compiled, variables resolved to slots, custom functions looked up.
struct Compiler {
  let functions: FunctionRegistry
  /// Free variables: name → slot, and where each is first used.
  var freeVariables: [String: Int] = [:]
  var freeVariableRanges: [String: SourceRange] = [:]
  /// SUBQUERY iterators in scope: name → slot (innermost wins).
  var scope: [String: Int] = [:]
  var slotCount = 0

  init(functions: FunctionRegistry) { self.functions = functions }

  mutating func newSlot() -> Int {
    defer { slotCount += 1 }
    return slotCount
  }

  // MARK: Predicates

  mutating func predicate(_ p: PredicateNode) throws(EvalFailure) -> PredicateFn {
    switch p.kind {
    case .constant(let b): return { _ in b }
    case .not(let inner):
      let f = try predicate(inner)
      return { ctx throws(EvalFailure) in try !f(ctx) }
    case .and(let terms):
      let fs = try predicates(terms)
      if fs.isEmpty { return { _ in true } }
      if fs.count == 2 {
        let a = fs[0], b = fs[1]
        return { ctx throws(EvalFailure) in
          if try !a(ctx) { return false }
          return try b(ctx)
        }
      }
      return { ctx throws(EvalFailure) in
        for f in fs {
          if try !f(ctx) { return false }
        }
        return true
      }
    case .or(let terms):
      let fs = try predicates(terms)
      if fs.isEmpty { return { _ in false } }
      if fs.count == 2 {
        let a = fs[0], b = fs[1]
        return { ctx throws(EvalFailure) in
          if try a(ctx) { return true }
          return try b(ctx)
        }
      }
      return { ctx throws(EvalFailure) in
        for f in fs {
          if try f(ctx) { return true }
        }
        return false
      }
    case .comparison(let c): return try comparison(c)
    }
  }

  mutating func predicates(_ terms: [PredicateNode]) throws(EvalFailure) -> [PredicateFn] {
    var out: [PredicateFn] = []
    out.reserveCapacity(terms.count)
    for t in terms { out.append(try predicate(t)) }
    return out
  }

  mutating func comparison(_ c: Comparison) throws(EvalFailure) -> PredicateFn {
    let rhs = try expression(c.rhs)
    let test = try CompareTest(c, constantRHS: rhs.constant)
    if let q = c.quantifier {
      let elements = try elementsOf(c.lhs, quantifier: q)
      let r = rhs.function
      switch q {
      case .any:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try elements(ctx) { e throws(EvalFailure) in try test.test(e, rv) }
        }
      case .all:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try !test.test(e, rv) }
        }
      case .none:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try test.test(e, rv) }
        }
      }
    }
    if let k = rhs.constant, let fast = Compiler.rootKeyComparison(c.lhs, test, k) { return fast }
    let lhs = try expression(c.lhs)
    if let k = rhs.constant {
      if let fast = Compiler.fastComparison(lhs, test, k) { return fast }
      let l = lhs.function
      return { ctx throws(EvalFailure) in try test.test(l(ctx), k) }
    }
    let l = lhs.function, r = rhs.function
    return { ctx throws(EvalFailure) in try test.test(l(ctx), r(ctx)) }
  }

  /// Specialized closures for the most common shape: a key path compared with a constant.
  static func fastComparison(_ lhs: CompiledExpression, _ test: CompareTest, _ k: EvalValue) -> PredicateFn? {
    guard case .dynamic(let l) = lhs, test.op == .equal || test.op == .notEqual else { return nil }
    let negate = test.op == .notEqual
    switch k {
    case .string(let s) where !test.rule.folds:
      return { ctx throws(EvalFailure) in
        if case .string(let v) = try l(ctx) { return Bytes.equal(v, s) != negate }
        return negate
      }
    case .int(let i):
      return { ctx throws(EvalFailure) in
        switch try l(ctx) {
        case .int(let v): return (v == i) != negate
        case let other: return ValueComparison.equal(other, k, test.rule) != negate
        }
      }
    default: return nil
    }
  }

  /// `key op constant` on the record itself, fused into one closure: a slot read on fast
  /// records, then the comparison, with no intermediate calls.
  static func rootKeyComparison(_ lhs: ExpressionNode, _ test: CompareTest, _ k: EvalValue) -> PredicateFn? {
    guard case .keyPath(nil, let kp) = lhs.kind, kp.components.count == 1,
      case .key(let name) = kp.components[0], name != "self" else { return nil }
    let reader = KeyPathReader(kp, range: lhs.range)
    guard case .key(_, let id) = reader.steps[0] else { return nil }
    switch (test.op, k) {
    case (.equal, .string(let s)) where !test.rule.folds, (.notEqual, .string(let s)) where !test.rule.folds:
      let negate = test.op == .notEqual
      return { ctx throws(EvalFailure) in
        let v: EvalValue
        if case .object(let o) = ctx.root { v = o.value(id: id) } else { v = try reader.read(ctx.root) }
        if case .string(let x) = v { return Bytes.equal(x, s) != negate }
        return negate
      }
    case (.lessThan, .int), (.lessThanOrEqual, .int), (.greaterThan, .int), (.greaterThanOrEqual, .int),
      (.lessThan, .double), (.lessThanOrEqual, .double), (.greaterThan, .double), (.greaterThanOrEqual, .double):
      guard let kn = k.number else { return nil }
      let op = test.op
      return { ctx throws(EvalFailure) in
        let v: EvalValue
        if case .object(let o) = ctx.root { v = o.value(id: id) } else { v = try reader.read(ctx.root) }
        guard let n = v.number, let c = NumericOrder.compare(n, kn) else { return try test.test(v, k) }
        switch op {
        case .lessThan: return c < 0
        case .lessThanOrEqual: return c <= 0
        case .greaterThan: return c > 0
        default: return c >= 0
        }
      }
    default:
      return { ctx throws(EvalFailure) in
        let v: EvalValue
        if case .object(let o) = ctx.root { v = o.value(id: id) } else { v = try reader.read(ctx.root) }
        return try test.test(v, k)
      }
    }
  }

  /// The elements the left side of ANY/ALL/NONE ranges over. Nil is empty; a non-collection
  /// is the error `quantifier-needs-collection`.
  mutating func elementsOf(_ e: ExpressionNode, quantifier q: Quantifier) throws(EvalFailure) -> ElementsFn {
    let range = e.range
    let notCollection: @Sendable (EvalValue) throws(EvalFailure) -> Void = { v throws(EvalFailure) in
      throw EvalDiagnostics.quantifierNeedsCollection(q, v, at: range)
    }
    if case .keyPath(let base, let kp) = e.kind {
      let reader = KeyPathReader(kp, range: e.range)
      let b = try base.map { x throws(EvalFailure) in try expression(x).function }
      return { ctx, body throws(EvalFailure) in
        let start = try b?(ctx) ?? ctx.root
        return try reader.visit(start, body, notCollection: notCollection)
      }
    }
    let f = try expression(e).function
    return { ctx, body throws(EvalFailure) in
      try KeyPathReader.visitElements(try f(ctx), body, notCollection: notCollection)
    }
  }
}
