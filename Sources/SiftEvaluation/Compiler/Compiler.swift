import Foundation
import SiftSyntax

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
  var freeVariableRanges: [String: SiftSourceRange] = [:]
  /// SUBQUERY iterators in scope: name → slot (innermost wins).
  var scope: [String: Int] = [:]
  var slotCount = 0
  /// SUBQUERYs around the one being compiled.
  var subqueryNesting = 0
  /// Use the specialized closures (off only to test them against the generic ones).
  let fastPaths: Bool

  init(functions: FunctionRegistry, fastPaths: Bool = true) {
    self.functions = functions
    self.fastPaths = fastPaths
  }

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
      let generic = try Compiler.chain(predicates(terms), and: true)
      if fastPaths, let fused = try Compiler.sameKeyConjunction(terms, generic) { return fused }
      if fastPaths, let fused = try variablePair(terms, generic) { return fused }
      return generic
    case .or(let terms):
      let merged = fastPaths ? SiftOrMerging.merged(terms) : terms
      if merged.count == 1 { return try predicate(merged[0]) }
      return try Compiler.chain(predicates(merged), and: false)
    case .comparison(let c): return try comparison(c)
    }
  }

  /// A compiled predicate in a box, so that arrays of them hold the closures as they are
  /// (an array of bare closures stores them re-abstracted behind thunks).
  struct PredicateBox {
    let run: PredicateFn
  }

  mutating func predicates(_ terms: [PredicateNode]) throws(EvalFailure) -> [PredicateBox] {
    var out: [PredicateBox] = []
    out.reserveCapacity(terms.count)
    for t in terms { out.append(PredicateBox(run: try predicate(t))) }
    return out
  }

  /// AND (`and`) or OR of the terms, short-circuiting left to right: nested two-term closures
  /// for short lists (no loop, no array), one loop for long ones (no deep call chains).
  static func chain(_ fs: [PredicateBox], and: Bool) -> PredicateFn {
    guard let lastTerm = fs.last else { return { _ in and } }
    if fs.count > 8 {
      return { ctx throws(EvalFailure) in
        for f in fs {
          if try f.run(ctx) != and { return !and }
        }
        return and
      }
    }
    var f = lastTerm.run
    for t in fs.dropLast().reversed() {
      let a = t.run, b = f
      if and {
        f = { ctx throws(EvalFailure) in
          if try !a(ctx) { return false }
          return try b(ctx)
        }
      } else {
        f = { ctx throws(EvalFailure) in
          if try a(ctx) { return true }
          return try b(ctx)
        }
      }
    }
    return f
  }

  mutating func comparison(_ c: SiftComparison) throws(EvalFailure) -> PredicateFn {
    let rhs = try expression(c.rhs)
    let test = try PreparedComparison(c, constantRHS: rhs.constant, fastPaths: fastPaths)
    if let q = c.quantifier {
      let elements = try elementsOf(c.lhs, quantifier: q)
      let r = rhs.function
      let generic: PredicateFn
      switch q {
      case .any:
        generic = { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try elements(ctx) { e throws(EvalFailure) in try test.test(e, rv) }
        }
      case .all:
        generic = { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try !test.test(e, rv) }
        }
      case .none:
        generic = { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try test.test(e, rv) }
        }
      }
      if fastPaths, let k = rhs.constant, case .keyPath(nil, let kp) = c.lhs.kind, kp.components.count == 1,
        let path = PlainPath(kp, range: c.lhs.range)
      {
        return ConstantTest(test, k).specialized(QuantifiedKeyBuilder(path: path, quantifier: q, generic: generic))
      }
      return generic
    }
    if let k = rhs.constant {
      let ct = ConstantTest(test, k, fastPaths: fastPaths)
      if fastPaths, case .keyPath(nil, let kp) = c.lhs.kind, let path = PlainPath(kp, range: c.lhs.range) {
        return ct.specialized(KeyTestBuilder(path: path))
      }
      if fastPaths, let fused = try countComparison(c.lhs, ct) { return fused }
      if fastPaths, case .keyPath(let base?, let kp) = c.lhs.kind, case .subquery(let coll, let v, let p) = base.kind,
        kp.components.count == 1, case .operator(.count) = kp.components[0]
      {
        // `SUBQUERY(…).@count op constant`: count and compare in one closure.
        let run = try subquery(coll, v, p)
        return { ctx throws(EvalFailure) in
          var n: Int64 = 0
          try run(ctx, false) { _ in n &+= 1 }
          return try ct.run(.int(n))
        }
      }
      if fastPaths, case .keyPath(let base?, let kp) = c.lhs.kind, case .variable(let name) = base.kind,
        let path = PlainPath(kp, range: c.lhs.range)
      {
        // `$x.key op constant` (SUBQUERY's usual test): one closure, the element read in place.
        let slot = variableSlot(name, at: base.range)
        return ct.specialized(VariableKeyTestBuilder(path: path, slot: slot))
      }
      let l = try expression(c.lhs).function
      return { ctx throws(EvalFailure) in try ct.run(l(ctx)) }
    }
    let lhs = try expression(c.lhs)
    let l = lhs.function, r = rhs.function
    return { ctx throws(EvalFailure) in try test.test(l(ctx), r(ctx)) }
  }

  /// `key.@count op constant`: counts the record's array in place and compares the count in
  /// the same closure; anything else (and every error) through the compiled left side.
  mutating func countComparison(_ lhs: ExpressionNode, _ ct: ConstantTest) throws(EvalFailure) -> PredicateFn? {
    guard case .keyPath(nil, let kp) = lhs.kind, kp.components.count == 2, case .key(let name) = kp.components[0],
      name != "self", case .operator(.count) = kp.components[1]
    else { return nil }
    let generic = try expression(lhs).function
    return ct.specialized(CountTestBuilder(id: KeyTable.shared.id(for: name), name: name, generic: generic))
  }

  /// The elements the left side of ANY/ALL/NONE ranges over. Nil is empty; a non-collection
  /// is the error `quantifier-needs-collection`.
  mutating func elementsOf(_ e: ExpressionNode, quantifier q: SiftQuantifier) throws(EvalFailure) -> ElementsFn {
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
