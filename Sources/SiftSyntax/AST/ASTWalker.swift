/// Generic traversal and rewriting of predicate trees, used by binding, substitution and
/// analyses. Recursion depth equals tree height, which the parser bounds.
enum ASTWalker {
  /// Calls `visit` on every expression node, outer first.
  static func forEachExpression(in p: PredicateNode, _ visit: (ExpressionNode) -> Void) {
    switch p.kind {
    case .constant: break
    case .and(let terms), .or(let terms):
      for t in terms { forEachExpression(in: t, visit) }
    case .not(let inner): forEachExpression(in: inner, visit)
    case .comparison(let c):
      forEachExpression(in: c.lhs, visit)
      forEachExpression(in: c.rhs, visit)
    }
  }

  static func forEachExpression(in e: ExpressionNode, _ visit: (ExpressionNode) -> Void) {
    visit(e)
    for child in children(of: e) { forEachExpression(in: child, visit) }
    switch e.kind {
    case .subquery(_, _, let p), .ternary(let p, _, _): forEachExpression(in: p, visit)
    default: break
    }
  }

  /// Direct expression children of an expression (predicates inside are not included).
  static func children(of e: ExpressionNode) -> [ExpressionNode] {
    switch e.kind {
    case .constant, .evaluatedObject, .variable, .anyKey, .argument: return []
    case .keyPath(let base, _): return base.map { [$0] } ?? []
    case .index(let b, let i):
      if case .expression(let x) = i { return [b, x] }
      return [b]
    case .aggregate(let items): return items
    case .unary(_, let x): return [x]
    case .binary(_, let a, let b): return [a, b]
    case .function(_, let args): return args
    case .customFunction(let r, _, let args): return [r] + args
    case .subquery(let c, _, _): return [c]
    case .cast(let x, _): return [x]
    case .ternary(_, let a, let b): return [a, b]
    case .assignment(_, let x): return [x]
    }
  }

  /// Rebuilds a predicate bottom-up, letting `transform` replace expression nodes after their
  /// children were rebuilt. `scope` tracks subquery iterator variables in force.
  static func rewrite<E: Error>(
    _ p: PredicateNode, scope: Set<String> = [],
    _ transform: (ExpressionNode, Set<String>) throws(E) -> ExpressionNode
  ) throws(E) -> PredicateNode {
    switch p.kind {
    case .constant: return p
    case .and(let terms):
      var out: [PredicateNode] = []
      out.reserveCapacity(terms.count)
      for t in terms { out.append(try rewrite(t, scope: scope, transform)) }
      return PredicateNode(.and(out), range: p.range)
    case .or(let terms):
      var out: [PredicateNode] = []
      out.reserveCapacity(terms.count)
      for t in terms { out.append(try rewrite(t, scope: scope, transform)) }
      return PredicateNode(.or(out), range: p.range)
    case .not(let inner):
      return PredicateNode(.not(try rewrite(inner, scope: scope, transform)), range: p.range)
    case .comparison(var c):
      c.lhs = try rewrite(c.lhs, scope: scope, transform)
      c.rhs = try rewrite(c.rhs, scope: scope, transform)
      return PredicateNode(.comparison(c), range: p.range)
    }
  }

  static func rewrite<E: Error>(
    _ e: ExpressionNode, scope: Set<String>,
    _ transform: (ExpressionNode, Set<String>) throws(E) -> ExpressionNode
  ) throws(E) -> ExpressionNode {
    func r(_ x: ExpressionNode) throws(E) -> ExpressionNode { try rewrite(x, scope: scope, transform) }
    func rs(_ xs: [ExpressionNode]) throws(E) -> [ExpressionNode] {
      var out: [ExpressionNode] = []
      out.reserveCapacity(xs.count)
      for x in xs { out.append(try r(x)) }
      return out
    }
    let kind: ExpressionNode.Kind
    switch e.kind {
    case .constant, .evaluatedObject, .variable, .anyKey, .argument:
      return try transform(e, scope)  // a leaf: nothing to rebuild
    case .keyPath(let base, let kp):
      guard let base else { return try transform(e, scope) }
      kind = .keyPath(base: try r(base), kp)
    case .index(let b, let i):
      if case .expression(let x) = i {
        kind = .index(try r(b), .expression(try r(x)))
      } else {
        kind = .index(try r(b), i)
      }
    case .aggregate(let items): kind = .aggregate(try rs(items))
    case .unary(let op, let x): kind = .unary(op, try r(x))
    case .binary(let op, let a, let b): kind = .binary(op, try r(a), try r(b))
    case .function(let f, let args): kind = .function(f, try rs(args))
    case .customFunction(let recv, let sel, let args):
      kind = .customFunction(receiver: try r(recv), selector: sel, arguments: try rs(args))
    case .subquery(let c, let v, let p):
      kind = .subquery(
        collection: try r(c), variable: v,
        predicate: try rewrite(p, scope: scope.union([v]), transform))
    case .cast(let x, let t): kind = .cast(try r(x), t)
    case .ternary(let p, let a, let b):
      kind = .ternary(try rewrite(p, scope: scope, transform), try r(a), try r(b))
    case .assignment(let v, let x): kind = .assignment(variable: v, try r(x))
    }
    return try transform(ExpressionNode(kind, range: e.range), scope)
  }
}

/// Finds free `$VARIABLES`.
enum VariableCollector {
  static func freeVariables(of p: PredicateNode) -> Set<String> {
    var found: Set<String> = []
    _ = ASTWalker.rewrite(p) { (e: ExpressionNode, scope: Set<String>) -> ExpressionNode in
      if case .variable(let name) = e.kind, !scope.contains(name) { found.insert(name) }
      return e
    }
    return found
  }

  static func freeVariables(of e: ExpressionNode) -> Set<String> {
    var found: Set<String> = []
    _ = ASTWalker.rewrite(e, scope: []) { (e: ExpressionNode, scope: Set<String>) -> ExpressionNode in
      if case .variable(let name) = e.kind, !scope.contains(name) { found.insert(name) }
      return e
    }
    return found
  }
}

extension PredicateNode {
  /// The keys the predicate reads from the record itself (the first key of each key path with
  /// no base); nil when it reads the record in any other way (`SELF`, `ANYKEY`, a key path of
  /// the record that starts with an operator).
  package var recordKeys: Set<String>? {
    var keys: Set<String> = []
    var whole = false
    ASTWalker.forEachExpression(in: self) { e in
      switch e.kind {
      case .keyPath(nil, let kp):
        if case .key(let name)? = kp.components.first { keys.insert(name) } else { whole = true }
      case .evaluatedObject, .anyKey: whole = true
      default: break
      }
    }
    return whole ? nil : keys
  }
}
