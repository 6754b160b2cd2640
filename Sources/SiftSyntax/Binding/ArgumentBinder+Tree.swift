extension ArgumentBinder {
  // Binding walks the whole tree in the same order as `ASTWalker.rewrite` (children before
  // their node, left to right) and applies the same per-node step (`bind`), but rebuilds only
  // the nodes on a path to a change: `nil` means "unchanged", so the subtrees without a
  // specifier are shared with the template instead of being copied node by node.

  /// `p` with its specifiers bound and the nodes above them normalized; nil when nothing changed.
  static func bindTree(_ p: PredicateNode, _ arguments: [SiftValue]) throws(ArgumentFailure) -> PredicateNode? {
    switch p.kind {
    case .constant:
      return nil
    case .and(let terms):
      guard let out = try bindTrees(terms, arguments) else { return nil }
      return PredicateNode(.and(out), range: p.range)
    case .or(let terms):
      guard let out = try bindTrees(terms, arguments) else { return nil }
      return PredicateNode(.or(out), range: p.range)
    case .not(let inner):
      guard let out = try bindTree(inner, arguments) else { return nil }
      return PredicateNode(.not(out), range: p.range)
    case .comparison(var c):
      let lhs = try bindTree(c.lhs, arguments)
      let rhs = try bindTree(c.rhs, arguments)
      if lhs == nil && rhs == nil { return nil }
      if let lhs { c.lhs = lhs }
      if let rhs { c.rhs = rhs }
      return PredicateNode(.comparison(c), range: p.range)
    }
  }

  static func bindTrees(_ terms: [PredicateNode], _ arguments: [SiftValue]) throws(ArgumentFailure) -> [PredicateNode]?
  {
    var out: [PredicateNode] = []
    for i in terms.indices {
      let t = try bindTree(terms[i], arguments)
      if out.isEmpty {
        guard let t else { continue }
        // The first change: the unchanged terms before it, then this one.
        out.reserveCapacity(terms.count)
        out.append(contentsOf: terms[..<i])
        out.append(t)
      } else {
        out.append(t ?? terms[i])
      }
    }
    return out.isEmpty ? nil : out
  }

  /// `e` with its specifiers bound and the nodes above them normalized (see `normalize`); nil
  /// when nothing changed.
  static func bindTree(_ e: ExpressionNode, _ arguments: [SiftValue]) throws(ArgumentFailure) -> ExpressionNode? {
    func r(_ x: ExpressionNode) throws(ArgumentFailure) -> ExpressionNode? { try bindTree(x, arguments) }
    func rs(_ xs: [ExpressionNode]) throws(ArgumentFailure) -> [ExpressionNode]? {
      var out: [ExpressionNode] = []
      for i in xs.indices {
        let x = try r(xs[i])
        if out.isEmpty {
          guard let x else { continue }
          out.reserveCapacity(xs.count)
          out.append(contentsOf: xs[..<i])
          out.append(x)
        } else {
          out.append(x ?? xs[i])
        }
      }
      return out.isEmpty ? nil : out
    }
    let kind: ExpressionNode.Kind?
    switch e.kind {
    case .argument:
      return try bind(e, arguments)
    case .constant, .evaluatedObject, .variable, .anyKey:
      kind = nil
    case .keyPath(let base, let kp):
      if let base, let b = try r(base) { kind = .keyPath(base: b, kp) } else { kind = nil }
    case .index(let b, let i):
      let nb = try r(b)
      if case .expression(let x) = i, let nx = try r(x) {
        if case .argument(let spec, _) = x.kind, spec.expects == .keyPath {
          // `a.%K` / `a[%K]`: the key path the argument names, applied to `a`.
          let applied = applyKey(nx, to: nb ?? b, range: e.range)
          return normalized(applied) ?? applied
        }
        kind = .index(nb ?? b, .expression(nx))
      } else {
        kind = nb.map { .index($0, i) }
      }
    case .aggregate(let items):
      kind = try rs(items).map { .aggregate($0) }
    case .unary(let op, let x):
      kind = try r(x).map { .unary(op, $0) }
    case .binary(let op, let a, let b):
      let na = try r(a)
      let nb = try r(b)
      kind = na == nil && nb == nil ? nil : .binary(op, na ?? a, nb ?? b)
    case .function(let f, let args):
      kind = try rs(args).map { .function(f, $0) }
    case .customFunction(let recv, let sel, let args):
      let nr = try r(recv)
      let na = try rs(args)
      kind = nr == nil && na == nil ? nil : .customFunction(receiver: nr ?? recv, selector: sel, arguments: na ?? args)
    case .subquery(let c, let v, let p):
      let nc = try r(c)
      let np = try bindTree(p, arguments)
      kind = nc == nil && np == nil ? nil : .subquery(collection: nc ?? c, variable: v, predicate: np ?? p)
    case .cast(let x, let t):
      kind = try r(x).map { .cast($0, t) }
    case .ternary(let p, let a, let b):
      let np = try bindTree(p, arguments)
      let na = try r(a)
      let nb = try r(b)
      kind = np == nil && na == nil && nb == nil ? nil : .ternary(np ?? p, na ?? a, nb ?? b)
    case .assignment(let v, let x):
      kind = try r(x).map { .assignment(variable: v, $0) }
    }
    guard let kind else { return normalized(e) }
    let rebuilt = ExpressionNode(kind, range: e.range)
    return normalized(rebuilt) ?? rebuilt
  }
}

extension ArgumentBinder {
  /// `base.key` where `key` is what a `%K` stands for: a key path (merged into a key path
  /// `base`), `SELF` (`base` itself), or, while unbound, the `.argument` node kept as the
  /// subscript `base[%K]` until binding comes back here.
  static func applyKey(_ key: ExpressionNode, to base: ExpressionNode, range: SiftSourceRange) -> ExpressionNode {
    switch key.kind {
    case .keyPath(nil, let kp):
      switch base.kind {
      case .keyPath(let b, let inner):
        return ExpressionNode(.keyPath(base: b, SiftKeyPath(inner.components + kp.components)), range: range)
      case .evaluatedObject:
        return ExpressionNode(.keyPath(base: nil, kp), range: range)
      default:
        return ExpressionNode(.keyPath(base: base, kp), range: range)
      }
    case .evaluatedObject:
      var same = base
      same.range = range
      return same
    default:
      return ExpressionNode(.index(base, .expression(key)), range: range)
    }
  }
}
