import SiftSyntax

/// Reads one compiled expression (a sort key, a group key, an aggregated key path, an
/// expression column) over many records with one frame, lending Sift's own record layouts
/// in place through the matcher's `RecordArray`.
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
    let frame = try Frame(
      slotCount: e.slotCount, binding: e.freeVariables, from: variables, source: e.expression.source)
    defer { withExtendedLifetime(frame) {} }
    let f = e.function
    var out: [T] = []
    out.reserveCapacity(positions.count)
    var failure: EvalFailure?
    let layout = RecordArray(records)
    do throws(EvalFailure) {
      for i in positions {
        let v: EvalValue
        if let layout {
          v = try layout.lend(at: i) { r throws(EvalFailure) in try f(Ctx(r, frame: frame)) }
        } else {
          v = try lending(records[i].siftRecordRoot.value) { r throws(EvalFailure) in try f(Ctx(r, frame: frame)) }
        }
        out.append(transform(v))
      }
    } catch {
      failure = error
    }
    if let failure { throw failure.error(source: e.expression.source) }
    return out
  }
}
