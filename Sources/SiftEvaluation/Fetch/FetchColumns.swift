import SiftSyntax

/// Reads one compiled expression (a sort key, a group key, an aggregated key path, an
/// expression column) over many records with one frame, lending fast records and
/// dictionaries in place as the matcher does.
struct FetchColumn {
  let evaluator: SiftExpressionEvaluator

  /// A key path of the entity, compiled once; errors point into `keyPath`.
  init(keyPath: String, options: EvaluationOptions) throws(SiftError) {
    let node = ExpressionNode.keyPath(keyPath, range: SiftSourceRange(start: 0, end: keyPath.utf8.count))
    evaluator = try SiftExpression(root: node, source: keyPath).compile(options)
  }

  init(expression: SiftExpression, options: EvaluationOptions) throws(SiftError) {
    evaluator = try expression.compile(options)
  }

  /// `transform(value)` for the records at `positions`, in that order.
  func read<R: SiftRecord, T>(
    _ records: [R], at positions: [Int], variables: [String: SiftValue],
    _ transform: (EvalValue) -> T
  ) throws(SiftError) -> [T] {
    let e = evaluator
    let frame = Frame(slotCount: e.slotCount)
    for v in e.freeVariables {
      guard let value = variables[v.name] else {
        throw EvalDiagnostics.unboundVariable(v.name, at: v.range).error(source: e.expression.source)
      }
      frame.slots[v.slot] = EvalValue(value)
    }
    defer { withExtendedLifetime(frame) {} }
    let f = e.function
    var out: [T] = []
    out.reserveCapacity(positions.count)
    do {
      if R.self == SiftObject.self {
        let objects = unsafeBitCast(records, to: [SiftObject].self)
        for i in positions {
          out.append(transform(try f(Ctx(object: Unmanaged.passUnretained(objects[i]), frame: frame))))
        }
      } else if R.self == [String: SiftValue].self {
        let dicts = unsafeBitCast(records, to: [[String: SiftValue]].self)
        try dicts.withUnsafeBufferPointer { (buffer) throws(EvalFailure) in
          guard let base = buffer.baseAddress else { return }
          for i in positions { out.append(transform(try f(Ctx(.dict(base + i), frame: frame)))) }
        }
      } else {
        for i in positions {
          var root = records[i].siftRecordRoot.value
          let v = try withUnsafePointer(to: &root) { p throws(EvalFailure) in try f(Ctx(.value(p), frame: frame)) }
          out.append(transform(v))
        }
      }
    } catch {
      throw error.error(source: e.expression.source)
    }
    return out
  }
}
