import SiftSyntax

// The conjunctions `Specializer` fuses: two or more tests of one value, read once.

extension Specializer {
  /// A term `key op constant` (no quantifier): the left side's plan, its key path and the test.
  struct KeyTerm {
    let lhs: ExpressionPlan
    let base: ExpressionPlan?
    let kp: SiftKeyPath
    let test: ConstantTest
  }

  /// `term` as a `KeyTerm`, or nil.
  static func keyTerm(_ term: PredicatePlan) -> KeyTerm? {
    guard case .comparison(let c) = term, case .value(let lhs) = c.lhs, case .keyPath(let base, let kp, _) = lhs.kind,
      let k = c.rhs.constant
    else { return nil }
    let test = c.test.specialized(constantRHS: k)
    if test.needsClock { return nil }  // see `Specializer.comparison`
    return KeyTerm(lhs: lhs, base: base, kp: kp, test: ConstantTest(test, k))
  }

  /// `key op c1 AND key op c2 …` (one plain key path, constants): reads the key once per
  /// record and runs the tests in order, stopping at the first false. Reading is pure on
  /// records and dictionaries, so this is the chain's answer (and error) exactly; other roots
  /// go to `generic`.
  @inline(never)
  func sameKeyConjunction(_ terms: [PredicatePlan], _ generic: @escaping PredicateFn) -> PredicateFn? {
    guard terms.count >= 2, terms.count <= 8, let first = Specializer.keyTerm(terms[0]), first.base == nil,
      let path = PlainPath(first.kp, range: first.lhs.node.range)
    else { return nil }
    var tests = [first.test]
    for t in terms.dropFirst() {
      guard let term = Specializer.keyTerm(t), term.base == nil, term.kp == first.kp else { return nil }
      tests.append(term.test)
    }
    if tests.count == 2 {
      return tests[0].specialized(and: tests[1], KeyTestBuilder(path: path, generic: generic))
    }
    let all = tests
    return { ctx throws(EvalFailure) in
      guard ctx.isKeyed else { return try generic(ctx) }
      let v = try path.read(ctx)
      for t in all {
        if try !t.run(v) { return false }
      }
      return true
    }
  }

  /// `$x.a op c1 AND $x.b op c2` (single keys, constants; SUBQUERY's usual test): see
  /// `VariablePairBuilder`.
  @inline(never)
  func variablePair(_ terms: [PredicatePlan], _ generic: @escaping PredicateFn) -> PredicateFn? {
    guard terms.count == 2, let a = Specializer.variableTerm(terms[0]), let b = Specializer.variableTerm(terms[1]),
      a.slot == b.slot
    else { return nil }
    let builder = VariablePairBuilder(first: a.path, second: b.path, slot: a.slot, generic: generic)
    return a.term.test.specialized(pair: b.term.test, builder)
  }

  /// `term` as `$x.key op constant` (one key): the term, the key's path and `$x`'s slot.
  static func variableTerm(_ term: PredicatePlan) -> (term: KeyTerm, path: PlainPath, slot: Int)? {
    guard let t = keyTerm(term), case .variable(let slot)? = t.base?.kind, t.kp.components.count == 1,
      let path = PlainPath(t.kp, range: t.lhs.node.range)
    else { return nil }
    return (t, path, slot)
  }
}
