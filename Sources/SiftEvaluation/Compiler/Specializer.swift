import SiftSyntax

/// The one pass that chooses fast paths. It lowers a plan node by node, bottom-up: where a
/// node has a shape below it builds a specialized or fused closure, everywhere else the node's
/// generic closure (from its parts, specialized in turn). Every specialized closure decides the
/// usual inputs inline and hands everything else — every error included — to the generic
/// code, so the answer is always the generic one: tests lower the same plan with
/// `GenericLowering` (this pass not run) and compare.
///
/// Shapes (closures in `KeyPathClosures.swift`, per-kind tests in `ConstantComparisons.swift`):
/// - `key op constant`, `ANY/ALL/NONE key op constant`, `key.@count op constant`,
///   `SUBQUERY(…).@count op constant`, `$x.key op constant`, any other `value op constant`
///   (`ConstantTest`);
/// - `key op c1 AND key op c2 …` (one read), `$x.a op c1 AND $x.b op c2` (one lookup);
/// - runs of `x == c` in an OR, as one `x IN {…}` (`SiftOrMerging`), hashed when long
///   (`ConstantSet`); MATCHES a pattern `RegexPattern.quickMatch` decides;
/// - plain key paths read by slot (`PlainPath`), `key….@count` counted in place.
struct Specializer: PlanLowering {
  @inline(never)
  func predicate(_ p: PredicatePlan) -> PredicateFn {
    switch p {
    case .and(let terms, _):
      let generic = p.generic(self)
      if let fused = sameKeyConjunction(terms, generic) { return fused }
      if let fused = variablePair(terms, generic) { return fused }
      return generic
    case .or(let terms, let nodes):
      let parts = SiftOrMerging.parts(nodes)
      if parts.count == 1, case .term(let i) = parts[0] { return predicate(terms[i]) }
      var boxes: [PredicateBox] = []
      boxes.reserveCapacity(parts.count)
      for part in parts {
        switch part {
        case .term(let i): boxes.append(PredicateBox(run: predicate(terms[i])))
        case .merged(let node, let first):
          guard case .comparison(let c) = node.kind, case .comparison(let firstPlan) = terms[first] else {
            return p.generic(self)  // not reached: merged parts stand for comparisons
          }
          boxes.append(PredicateBox(run: comparison(Specializer.membership(c, like: firstPlan))))
        }
      }
      return PredicatePlan.chain(boxes, and: false)
    case .comparison(let c): return comparison(c)
    case .constant, .not: return p.generic(self)
    }
  }

  @inline(never)
  func expression(_ e: ExpressionPlan) -> ExpressionFn {
    switch e.kind {
    case .keyPath(nil, let kp, let reader):
      if let path = PlainPath(kp, range: e.node.range) {
        return { ctx throws(EvalFailure) in try path.read(ctx) }
      }
      if let count = Specializer.countPath(kp, range: e.node.range, reader: reader) { return count }
    case .keyPath(let base?, let kp, _):
      if case .variable(let slot) = base.kind, let path = PlainPath(kp, range: e.node.range) {
        // `$x.key`: read the variable's slot directly.
        return { ctx throws(EvalFailure) in try path.read(ctx.frame, slot: slot) }
      }
    default: break
    }
    return e.generic(self)
  }

  @inline(never)
  func comparison(_ plan: ComparisonPlan) -> PredicateFn {
    var plan = plan
    plan.test = plan.test.specialized(constantRHS: plan.rhs.constant)
    // A MATCHES `RegexPattern.quickMatch` does not decide reads the deadline while matching: generic.
    guard let k = plan.rhs.constant, !plan.test.needsClock else { return plan.generic(self) }
    let ct = ConstantTest(plan.test, k)
    switch plan.lhs {
    case .elements(.keyPath(nil, let reader)):
      let generic = plan.generic(self)
      guard let q = plan.node.quantifier, case .keyPath(nil, let kp) = plan.node.lhs.kind, kp.components.count == 1,
        let path = PlainPath(kp, range: reader.range)
      else { return generic }
      return ct.specialized(QuantifiedKeyBuilder(path: path, quantifier: q, generic: generic))
    case .elements: return plan.generic(self)
    case .value(let lhs):
      switch lhs.kind {
      case .keyPath(nil, let kp, _):
        if let path = PlainPath(kp, range: lhs.node.range) { return ct.specialized(KeyTestBuilder(path: path)) }
        if let fused = countComparison(lhs, kp, ct) { return fused }
      case .subqueryCount(let s, _):
        if case .keyPath(_, let kp) = lhs.node.kind, kp.components.count == 1 {
          // `SUBQUERY(…).@count op constant`: count and compare in one closure.
          let run = s.loop(self)
          return { ctx throws(EvalFailure) in
            var n: Int64 = 0
            try run(ctx, false) { _ in n &+= 1 }
            return try ct.run(.int(n))
          }
        }
      case .keyPath(let base?, let kp, _):
        if case .variable(let slot) = base.kind, let path = PlainPath(kp, range: lhs.node.range) {
          // `$x.key op constant` (SUBQUERY's usual test): one closure, the element read in place.
          return ct.specialized(VariableKeyTestBuilder(path: path, slot: slot))
        }
      default: break
      }
      let l = expression(lhs)
      return { ctx throws(EvalFailure) in try ct.run(l(ctx)) }
    }
  }

  /// `key.@count op constant`: counts the record's array in place and compares the count in
  /// the same closure; anything else (and every error) through the lowered left side.
  @inline(never)
  func countComparison(_ lhs: ExpressionPlan, _ kp: SiftKeyPath, _ ct: ConstantTest) -> PredicateFn? {
    guard kp.components.count == 2, case .key(let name) = kp.components[0], name != "self",
      case .operator(.count) = kp.components[1]
    else { return nil }
    let generic = expression(lhs)
    return ct.specialized(CountTestBuilder(id: KeyTable.shared.id(for: name), name: name, generic: generic))
  }

  /// `key.key….@count` on the record: counts the array in place; anything else (and every
  /// error) through `reader`.
  @inline(never)
  static func countPath(_ kp: SiftKeyPath, range: SiftSourceRange, reader: KeyPathReader) -> ExpressionFn? {
    guard kp.components.count >= 2, case .operator(.count)? = kp.components.last,
      let prefix = PlainPath(SiftKeyPath(Array(kp.components.dropLast())), range: range)
    else { return nil }
    let single = prefix.ids.count == 1
    return { ctx throws(EvalFailure) in
      if single, let u = ctx.object, let n = u.arrayCount(id: prefix.firstID) {
        return .int(Int64(n))
      }
      if ctx.isKeyed {
        switch try prefix.read(ctx) {
        case .array(let items): return .int(Int64(items.count))
        case .values(let items): return .int(Int64(items.count))
        default: break
        }
      }
      return try reader.read(ctx.root)
    }
  }

  /// The IN comparison `c` that `SiftOrMerging` made of a run of equalities, planned from the
  /// first of them (same operand, same options).
  static func membership(_ c: SiftComparison, like first: ComparisonPlan) -> ComparisonPlan {
    let rhs: ExpressionPlan
    if case .constant(let list) = c.rhs.kind {
      rhs = ExpressionPlan(node: c.rhs, kind: .constant(EvalValue(list)))
    } else {
      rhs = ExpressionPlan(node: c.rhs, kind: .constant(.null))  // not reached: the list is a constant
    }
    return ComparisonPlan(
      node: c, test: PreparedComparison(preparing: c, constantRHS: rhs.constant), lhs: first.lhs, rhs: rhs)
  }
}

extension PreparedComparison {
  /// With the constants the fast paths use: a MATCHES pattern `RegexPattern.quickMatch`
  /// decides (no `[c]`/`[d]`), an IN list of at least `ConstantSet.minimumCount` elements hashed.
  func specialized(constantRHS: EvalValue?) -> PreparedComparison {
    var t = self
    if let regex, case .string? = constantRHS { t.quickRegex = regex.hasQuickMatch }
    if op == .in, let list = constantRHS?.list, list.count >= ConstantSet.minimumCount {
      t.constantSet = ConstantSet(list, rule: rule)
    }
    return t
  }
}
