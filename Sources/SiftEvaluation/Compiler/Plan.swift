import SiftSyntax

// A predicate as the compiler plans it (`Compiler`): everything that does not depend on the
// record resolved once — constants folded, key paths split and interned, variables bound to
// slots, operators prepared, custom functions looked up — with no fast path chosen. Closures
// come from lowering the plan: `GenericLowering` builds every node's generic closure (what the
// tests compare against); `Specializer`, the one pass that chooses fast paths, builds a
// specialized or fused closure where a node's shape allows and the generic one elsewhere.

/// A planned predicate (other engines lower it too: `Plan+Engines.swift`).
package indirect enum PredicatePlan {
  case constant(Bool)
  case not(PredicatePlan)
  /// The terms, planned, beside the terms as written.
  case and([PredicatePlan], [PredicateNode])
  case or([PredicatePlan], [PredicateNode])
  case comparison(ComparisonPlan)
}

/// A planned comparison.
package struct ComparisonPlan {
  /// The comparison as written.
  package let node: SiftComparison
  /// The operator, prepared for the constant right side if there is one.
  var test: PreparedComparison
  let lhs: Left
  let rhs: ExpressionPlan

  enum Left {
    /// No quantifier: the left side's value.
    case value(ExpressionPlan)
    /// ANY/ALL/NONE: the elements the left side ranges over.
    case elements(ElementsPlan)
  }
}

/// What ANY/ALL/NONE ranges over: a key path read element-wise from `base` (nil: the record),
/// or any other expression's value.
enum ElementsPlan {
  case keyPath(base: ExpressionPlan?, KeyPathReader)
  case value(ExpressionPlan)
}

/// A planned expression, with the node it came from.
struct ExpressionPlan {
  let node: ExpressionNode
  let kind: Kind

  indirect enum Kind {
    /// Known before any record is seen (a literal, or pure operations on constants, folded).
    case constant(EvalValue)
    /// `$name`'s slot.
    case variable(Int)
    /// `kp` read from the record (`base` nil) or from a dynamic base's value.
    case keyPath(base: ExpressionPlan?, SiftKeyPath, KeyPathReader)
    /// SUBQUERY's accepted elements.
    case subquery(SubqueryPlan)
    /// `SUBQUERY(…).@count`, then the rest of the key path applied to the count.
    case subqueryCount(SubqueryPlan, rest: KeyPathReader)
    case ternary(PredicatePlan, ExpressionPlan, ExpressionPlan)
    /// Any other node: its operands, planned, and how its closure is built from theirs.
    case composite([ExpressionPlan], build: ([ExpressionBox]) -> ExpressionFn)
  }

  var constant: EvalValue? {
    if case .constant(let v) = kind { return v }
    return nil
  }
}

/// A planned SUBQUERY: the collection, the iterator's slot and the predicate.
struct SubqueryPlan {
  let collection: ExpressionPlan
  let slot: Int
  /// The outermost SUBQUERY starts each record's step count (`WorkMeter`).
  let outermost: Bool
  let test: PredicatePlan
}

/// A compiled expression in a box (arrays of bare closures hold them behind thunks).
struct ExpressionBox {
  let run: ExpressionFn
}

/// Builds closures from a plan, node by node.
///
/// Every function that builds a per-record closure is `@inline(never)` and not generic, so
/// that each closure has one creation site. A builder inlined into (or specialized for) two
/// callers makes two identical copies of the closure's entry, which LLVM's function merging
/// turns into one entry jumping to the other: an extra call on every evaluation (measured,
/// callgrind: evaluate.subquery 548 → 558 instructions per record with two such jumps).
protocol PlanLowering {
  func predicate(_ p: PredicatePlan) -> PredicateFn
  func expression(_ e: ExpressionPlan) -> ExpressionFn
}

/// Every node's generic closure (the pass that chooses fast paths not run).
struct GenericLowering: PlanLowering {
  @inline(never) func predicate(_ p: PredicatePlan) -> PredicateFn { p.generic(self) }
  @inline(never) func expression(_ e: ExpressionPlan) -> ExpressionFn { e.generic(self) }
}

extension PredicatePlan {
  /// This node's generic closure, its parts lowered by `l`.
  @inline(never)
  func generic(_ l: any PlanLowering) -> PredicateFn {
    switch self {
    case .constant(let b): return { _ in b }
    case .not(let inner):
      let f = l.predicate(inner)
      return { ctx throws(EvalFailure) in try !f(ctx) }
    case .and(let terms, _): return PredicatePlan.chain(terms.map { PredicateBox(run: l.predicate($0)) }, and: true)
    case .or(let terms, _): return PredicatePlan.chain(terms.map { PredicateBox(run: l.predicate($0)) }, and: false)
    case .comparison(let c): return c.generic(l)
    }
  }

  /// AND (`and`) or OR of the terms, short-circuiting left to right: nested two-term closures
  /// for short lists (no loop, no array), one loop for long ones (no deep call chains).
  @inline(never)
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
}

/// A compiled predicate in a box, so that arrays of them hold the closures as they are
/// (an array of bare closures stores them re-abstracted behind thunks).
struct PredicateBox {
  let run: PredicateFn
}

extension ComparisonPlan {
  /// The comparison's generic closure: both sides evaluated, then `test` (with the call's
  /// work meter, whose deadline MATCHES reads while matching).
  @inline(never)
  func generic(_ l: any PlanLowering) -> PredicateFn {
    let test = self.test
    switch lhs {
    case .elements(let e):
      let elements = e.generic(l, quantifier: node.quantifier ?? .any)
      let r = l.expression(rhs)
      switch node.quantifier ?? .any {
      case .any:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try elements(ctx) { e throws(EvalFailure) in try test.test(e, rv, clock: ctx.frame.meter.pointee) }
        }
      case .all:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try !test.test(e, rv, clock: ctx.frame.meter.pointee) }
        }
      case .none:
        return { ctx throws(EvalFailure) in
          let rv = try r(ctx)
          return try !elements(ctx) { e throws(EvalFailure) in try test.test(e, rv, clock: ctx.frame.meter.pointee) }
        }
      }
    case .value(let left):
      let f = l.expression(left)
      if let k = rhs.constant {
        return { ctx throws(EvalFailure) in try test.test(f(ctx), k, clock: ctx.frame.meter.pointee) }
      }
      let r = l.expression(rhs)
      return { ctx throws(EvalFailure) in try test.test(f(ctx), r(ctx), clock: ctx.frame.meter.pointee) }
    }
  }
}

extension ElementsPlan {
  /// Visits the elements; nil is empty, a non-collection the error `quantifier-needs-collection`.
  @inline(never)
  func generic(_ l: any PlanLowering, quantifier q: SiftQuantifier) -> ElementsFn {
    switch self {
    case .keyPath(let base, let reader):
      let range = reader.range
      let notCollection: @Sendable (EvalValue) throws(EvalFailure) -> Void = { v throws(EvalFailure) in
        throw EvalDiagnostics.quantifierNeedsCollection(q, v, at: range)
      }
      let b = base.map { l.expression($0) }
      return { ctx, body throws(EvalFailure) in
        let start = try b?(ctx) ?? ctx.root
        return try reader.visit(start, body, notCollection: notCollection)
      }
    case .value(let e):
      let range = e.node.range
      let notCollection: @Sendable (EvalValue) throws(EvalFailure) -> Void = { v throws(EvalFailure) in
        throw EvalDiagnostics.quantifierNeedsCollection(q, v, at: range)
      }
      let f = l.expression(e)
      return { ctx, body throws(EvalFailure) in
        try KeyPathReader.visitElements(try f(ctx), body, notCollection: notCollection)
      }
    }
  }
}

extension ExpressionPlan {
  /// This node's generic closure, its parts lowered by `l`.
  @inline(never)
  func generic(_ l: any PlanLowering) -> ExpressionFn {
    switch kind {
    case .constant(let v): return { _ in v }
    case .variable(let slot): return { ctx in ctx.frame.value(slot) }
    case .keyPath(nil, _, let reader):
      if reader.plainFrom == 0, case .key(_, let id)? = reader.steps.first, reader.steps.count == 1 {
        return { ctx throws(EvalFailure) in
          if case .object(let o) = ctx.root { return o.value(id: id) }
          return try reader.read(ctx.root)
        }
      }
      return { ctx throws(EvalFailure) in try reader.read(ctx.root) }
    case .keyPath(let base?, _, let reader):
      let b = l.expression(base)
      return { ctx throws(EvalFailure) in try reader.read(b(ctx)) }
    case .subquery(let s):
      let run = s.loop(l)
      return { ctx throws(EvalFailure) in
        var out: [EvalValue] = []
        try run(ctx, true) { e in out.append(e) }
        return .array(out)
      }
    case .subqueryCount(let s, let rest):
      // Counts without building the filtered array.
      let run = s.loop(l)
      return { ctx throws(EvalFailure) in
        var n: Int64 = 0
        try run(ctx, false) { _ in n &+= 1 }
        return try rest.apply(.int(n), from: 0)
      }
    case .ternary(let p, let a, let b):
      let test = l.predicate(p)
      let fa = l.expression(a), fb = l.expression(b)
      return { ctx throws(EvalFailure) in try test(ctx) ? fa(ctx) : fb(ctx) }
    case .composite(let parts, let build):
      return build(parts.map { ExpressionBox(run: l.expression($0)) })
    }
  }
}

extension SubqueryPlan {
  /// Calls `yield` for each element the predicate accepts, with the element when asked to
  /// (`.null` otherwise, for counting).
  @inline(never)
  func loop(_ l: any PlanLowering) -> @Sendable (Ctx, Bool, (EvalValue) -> Void) throws(EvalFailure) -> Void {
    Compiler.subqueryLoop(
      l.expression(collection), range: collection.node.range, slot: slot, outermost: outermost,
      test: l.predicate(test))
  }
}
