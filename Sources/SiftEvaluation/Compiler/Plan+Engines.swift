import SiftSyntax

// What other engines read of the evaluator's plan. SiftColumnar lowers a `PredicatePlan` to
// kernels over columns: it reads each comparison's operator, its text rule's folding, its
// sides as key paths from the record or constants (folded at planning), and the evaluator's
// own answers where a key path reads nil, so that no rule is written twice.

extension SiftPredicate {
  /// The predicate as the evaluator plans it (constants folded, key paths split, operators
  /// prepared with their text rule); nil when it cannot be planned (it then cannot be compiled
  /// either).
  package func evaluationPlan(_ options: EvaluationOptions = EvaluationOptions()) -> PredicatePlan? {
    var compiler = Compiler(functions: options.functions)
    return try? compiler.predicate(root)
  }
}

extension ComparisonPlan {
  /// The `[c]`/`[d]` folding of the comparison's text rule.
  package var fold: TextFoldCode { TextFoldCode(test.rule.options) }

  /// The right side's value when it is a constant (folded at planning); nil otherwise.
  package var constantRight: SiftValue? { rhs.constant?.siftValue() }

  /// The left side's value when it is a constant (no quantifier); nil otherwise.
  package var constantLeft: SiftValue? {
    guard case .value(let e) = lhs else { return nil }
    return e.constant?.siftValue()
  }

  /// The key path the left side reads from the record (with ANY/ALL/NONE, the one whose
  /// elements it ranges over); nil for any other left side.
  package var leftKeyPath: SiftKeyPath? {
    switch lhs {
    case .value(let e): return e.recordKeyPath
    case .elements(.keyPath(base: nil, _)):
      if case .keyPath(nil, let kp) = node.lhs.kind { return kp }
      return nil
    case .elements: return nil
    }
  }

  /// The key path the right side reads from the record; nil for any other right side.
  package var rightKeyPath: SiftKeyPath? { rhs.recordKeyPath }

  /// The evaluator's answer over a record with no keys (every key path from the record reads
  /// nil): the comparison's own closure run on it. Nil when that is an error, or when a side
  /// is neither a constant nor a key path from the record.
  package var answerOverEmptyRecord: Bool? {
    switch lhs {
    case .value(let e): guard e.constant != nil || e.recordKeyPath != nil else { return nil }
    case .elements(.keyPath(base: nil, _)): break
    case .elements: return nil
    }
    guard rhs.constant != nil || rhs.recordKeyPath != nil else { return nil }
    let f = GenericLowering().predicate(.comparison(self))
    let frame = Frame(slotCount: 0)
    return lending(EvalValue.dict([:])) { root in try? f(Ctx(root, frame: frame)) }
  }

  /// The answer for a nil element of the collection the comparison ranges over: with
  /// ANY/ALL/NONE, the operator applied to nil and the constant right side; for
  /// `collection CONTAINS constant` (and `constant IN collection`), whether a collection
  /// holding only nil holds the constant. Nil when that is an error or no side is constant.
  package var answerForNullElement: Bool? {
    if node.quantifier == nil, node.op == .in, let k = lhsConstant { return try? test.test(k, .array([.null])) }
    guard let k = rhs.constant else { return nil }
    if node.quantifier == nil, node.op == .contains { return try? test.test(.array([.null]), k) }
    return try? test.test(.null, k)
  }

  private var lhsConstant: EvalValue? {
    guard case .value(let e) = lhs else { return nil }
    return e.constant
  }
}

extension ExpressionPlan {
  /// The key path when this reads one from the record itself (no base expression).
  var recordKeyPath: SiftKeyPath? {
    if case .keyPath(nil, let kp, _) = kind { return kp }
    return nil
  }
}
