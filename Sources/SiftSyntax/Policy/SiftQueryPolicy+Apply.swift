extension SiftQueryPolicy {
  /// Checks a client's predicate (bound: `%K` already names its key) against `keys`, `deny`
  /// and the size limits. `require` is not part of it.
  ///
  /// ```swift
  /// try policy.check(try SiftPredicate(format: "author.password_hash BEGINSWITH 'a'"))
  /// // throws: key-not-allowed, pointing at author.password_hash
  /// ```
  /// - Throws: `SiftError` at stage `.policy` (ids in `refusalIDs`), safe to show the client.
  public func check(_ predicate: SiftPredicate) throws(SiftError) {
    var walk = PolicyCheck(self, source: predicate.source)
    try walk.predicate(predicate.root, depth: 1)
  }

  /// Checks a client's expression (a column of a fetch) as `check(_:)` checks a predicate.
  ///
  /// ```swift
  /// try policy.check(try SiftExpression(format: "title"))
  /// ```
  public func check(_ expression: SiftExpression) throws(SiftError) {
    var walk = PolicyCheck(self, source: expression.source)
    try walk.reach(expression.root, depth: 1, extending: false)
  }

  /// The client's predicate checked, with `require` (its `$VARIABLES` replaced by
  /// `variables`) ANDed around it as a tree: `require AND (client)`. The client's text
  /// cannot widen `require`; a free variable of the client's text is refused.
  /// `allowingMissing` keeps `require`'s unsupplied variables as they are (for display).
  ///
  /// ```swift
  /// try policy.applying(to: try SiftPredicate(format: "pinned == 1 OR title == 'x'"), variables: ["USER": 7])
  /// // owner_id == 7 AND (pinned == 1 OR title == "x")
  /// ```
  /// - Throws: a refusal (stage `.policy`), or `unbound-variable` when `require` needs a
  ///   variable the server did not supply (the message names the variable, not a value).
  public func applying(
    to predicate: SiftPredicate, variables: [String: SiftValue] = [:], allowingMissing: Bool = false
  ) throws(SiftError) -> SiftPredicate {
    try check(predicate)
    guard let required = try requirement(variables, allowingMissing: allowingMissing) else { return predicate }
    let root = PredicateNode(.and([required, predicate.root]), range: predicate.root.range)
    return SiftPredicate(root: root, source: predicate.source, warnings: predicate.warnings)
  }

  /// `require` with `variables` substituted, its source positions cleared (they belong to
  /// the policy, not the client's text); nil when there is none. `allowingMissing` leaves
  /// variables without a value in the tree (to show the effective predicate) instead of failing.
  ///
  /// ```swift
  /// try policy.requirement(["USER": 7])?.root   // owner_id == 7
  /// ```
  public func requirement(_ variables: [String: SiftValue], allowingMissing: Bool = false) throws(SiftError)
    -> PredicateNode?
  {
    guard let require else { return nil }
    let bound = require.substituting(variables)
    if !allowingMissing, let missing = bound.variables.sorted().first {
      throw SiftError(
        stage: .policy,
        diagnostic: SiftDiagnostic(
          id: .unboundVariable, message: "the policy's required filter needs the server variable '$\(missing)'",
          range: .at(0)),
        source: "")
    }
    return SiftQueryPolicy.detached(bound.root)
  }

  /// The request a client asked for, made safe: its predicate checked and `require`
  /// applied (a request without a predicate gets `require` alone), sort keys checked
  /// against `sortKeys`, the key paths and expressions of its result checked against
  /// `keys`, and its limit lowered to `limits.rows`.
  ///
  /// ```swift
  /// let safe = try policy.applying(to: clientRequest, variables: ["USER": 7])
  /// ```
  public func applying(to request: SiftFetchRequest, variables: [String: SiftValue] = [:]) throws(SiftError)
    -> SiftFetchRequest
  {
    var out = request
    if let p = request.predicate {
      out.predicate = try applying(to: p, variables: variables)
    } else if let required = try requirement(variables) {
      out.predicate = SiftPredicate(root: required)
    }
    let sortable = sortKeys ?? keys
    for s in request.sortDescriptors where !sortable.contains(SiftQueryPolicy.plainPath(s.keyPath)) {
      throw SiftError(
        stage: .policy,
        diagnostic: SiftDiagnostic(
          id: .sortKeyNotAllowed, message: "sorting by '\(s.keyPath)' is not allowed", range: .at(0),
          notes: [.init("sort keys: " + sortable.sorted().joined(separator: ", "))]),
        source: s.keyPath)
    }
    var rowsApply = true
    switch request.resultType {
    case .records, .indices: break
    case .count: rowsApply = false
    case .distinct(let k): try checkKeyPath(k)
    case .properties(let ks): for k in ks { try checkKeyPath(k) }
    case .aggregates(let aggregates, let groupBy):
      rowsApply = !groupBy.isEmpty
      for k in groupBy { try checkKeyPath(k) }
      for a in aggregates {
        if deny.contains("AGGREGATES") || deny.contains(a.function.rawValue.uppercased()) {
          throw SiftError(
            stage: .policy,
            diagnostic: SiftDiagnostic(id: .operatorNotAllowed, message: "aggregates are not allowed", range: .at(0)),
            source: a.name)
        }
        if let k = a.keyPath { try checkKeyPath(k) }
      }
    case .expressions(let descriptions):
      for d in descriptions { try check(d.expression) }
    }
    if rowsApply, let rows = limits.rows { out.limit = min(request.limit ?? rows, rows) }
    return out
  }

  /// Checks a dotted key path given outside a predicate (properties to fetch, group-by).
  func checkKeyPath(_ dotted: String) throws(SiftError) {
    let walk = PolicyCheck(self, source: dotted)
    try walk.allow(
      SiftKeyPath(dotted: SiftQueryPolicy.plainPath(dotted)).components.compactMap {
        if case .key(let k) = $0 { return k } else { return nil }
      }, at: SiftSourceRange(start: 0, end: dotted.utf8.count))
  }

  /// A dotted path without its collection operators (`tags.@count` → `tags`).
  static func plainPath(_ dotted: String) -> String {
    SiftKeyPath(dotted: dotted).components.compactMap {
      if case .key(let k) = $0 { return k } else { return nil }
    }.joined(separator: ".")
  }

  /// `p` with every source position cleared.
  static func detached(_ p: PredicateNode) -> PredicateNode {
    let clear = { (e: ExpressionNode, _: Set<String>) -> ExpressionNode in ExpressionNode(e.kind, range: .at(0)) }
    switch p.kind {
    case .constant: return PredicateNode(p.kind)
    case .and(let terms): return PredicateNode(.and(terms.map(detached)))
    case .or(let terms): return PredicateNode(.or(terms.map(detached)))
    case .not(let inner): return PredicateNode(.not(detached(inner)))
    case .comparison(var c):
      c.lhs = ASTWalker.rewrite(c.lhs, scope: [], clear)
      c.rhs = ASTWalker.rewrite(c.rhs, scope: [], clear)
      c.operatorRange = .at(0)
      return PredicateNode(.comparison(c))
    }
  }
}
