/// One walk of a client's tree under a policy: every key path, however written, resolved to
/// the entity's key path it reads (`%K` is already a key path; a SUBQUERY variable stands for
/// its collection's path; `x[“k”]` for `x.k`), every construct against `deny`, and the sizes
/// against `limits`. The first problem is thrown, pointing into the client's text.
struct PolicyCheck {
  let policy: SiftQueryPolicy
  let source: String
  var nodes = 0
  /// SUBQUERY variables in force: their collection's key path, or nil when the collection
  /// is not a key path of the entity (a computed value).
  var scope: [String: [String]?] = [:]

  init(_ policy: SiftQueryPolicy, source: String) {
    self.policy = policy
    self.source = source
  }

  func refuse(_ id: DiagnosticID, _ message: String, at range: SiftSourceRange, notes: [SiftDiagnostic.Note] = [])
    -> SiftError
  {
    SiftError(
      stage: .policy, diagnostic: SiftDiagnostic(id: id, message: message, range: range, notes: notes), source: source)
  }

  /// Counts a node and checks its depth.
  mutating func enter(_ range: SiftSourceRange, depth: Int) throws(SiftError) {
    nodes += 1
    if let limit = policy.limits.nodes, nodes > limit {
      throw refuse(.tooManyNodes, "the filter has more than \(limit) terms", at: range)
    }
    if let limit = policy.limits.depth, depth > limit {
      throw refuse(.tooDeep, "the filter nests deeper than \(limit) levels", at: range)
    }
  }

  func deny(_ range: SiftSourceRange, _ names: String...) throws(SiftError) {
    for n in names where policy.deny.contains(n.uppercased()) {
      throw refuse(.operatorNotAllowed, "'\(n)' is not allowed in this filter", at: range)
    }
  }

  mutating func predicate(_ p: PredicateNode, depth: Int) throws(SiftError) {
    try enter(p.range, depth: depth)
    switch p.kind {
    case .constant: break
    case .and(let terms):
      for t in terms { try predicate(t, depth: depth + 1) }
    case .or(let terms):
      try deny(p.range, "OR")
      for t in terms { try predicate(t, depth: depth + 1) }
    case .not(let inner):
      try deny(p.range, "NOT")
      try predicate(inner, depth: depth + 1)
    case .comparison(let c):
      try deny(c.operatorRange, c.op.keyword)
      if let q = c.quantifier { try deny(p.range, q.keyword) }
      _ = try reach(c.lhs, depth: depth + 1, extending: false)
      _ = try reach(c.rhs, depth: depth + 1, extending: false)
      if c.op == .matches, case .constant(.string(let pattern)) = c.rhs.kind {
        try count(pattern: pattern, at: c.rhs.range)
      }
    }
  }

  /// A constant MATCHES pattern counts against `limits.nodes` as the terms it stands for once
  /// its counted repetitions are expanded (`RegexPattern.expandedSize`), less the one its
  /// constant already counted: `(.*a){1000}b` is 13 bytes but 3,001 terms of matching work.
  mutating func count(pattern: String, at range: SiftSourceRange) throws(SiftError) {
    guard let limit = policy.limits.nodes else { return }
    let size = RegexPattern.expandedSize(pattern)
    nodes = min(RegexPattern.maxExpandedSize, nodes &+ max(0, size - 1))
    if nodes > limit {
      throw refuse(
        .tooManyNodes,
        "the pattern \"\(pattern)\" stands for \(size) terms once its counted repetitions are expanded; "
          + "the filter may have at most \(limit) terms", at: range)
    }
  }

  /// Checks an expression and returns the key path it denotes (nil for a computed value or a
  /// constant). The path is checked against `keys` unless the parent will extend it
  /// (`extending`: a key path or subscript applied to it).
  @discardableResult
  mutating func reach(_ e: ExpressionNode, depth: Int, extending: Bool) throws(SiftError) -> [String]? {
    try enter(e.range, depth: depth)
    let path: [String]?
    switch e.kind {
    case .constant(let v):
      try constant(v, at: e.range)
      return nil
    case .evaluatedObject:
      path = []
    case .variable(let name):
      guard let bound = scope[name] else {
        throw refuse(
          .variableNotAllowed, "variables such as '$\(name)' are not allowed in this filter; write the value",
          at: e.range)
      }
      return bound  // the collection's path, already checked
    case .keyPath(let base, let kp):
      var prefix: [String]? = []
      if let base { prefix = try reach(base, depth: depth + 1, extending: true) }
      var keys: [String] = []
      for component in kp.components {
        switch component {
        case .key(let k): keys.append(k)
        case .operator(let op): try deny(e.range, "AGGREGATES", op.spelling)
        }
      }
      guard let prefix else {
        if !keys.isEmpty {
          throw refuse(.keyNotAllowed, "keys may only be read from the record, not from a computed value", at: e.range)
        }
        return nil
      }
      path = prefix + keys
    case .index(let base, let index):
      let b = try reach(base, depth: depth + 1, extending: true)
      switch index {
      case .first, .last, .size: path = b
      case .expression(let x):
        if case .constant(.string(let k)) = x.kind {
          try enter(x.range, depth: depth + 1)
          guard let b else {
            throw refuse(
              .keyNotAllowed, "keys may only be read from the record, not from a computed value", at: x.range)
          }
          path = b + [k]
        } else if case .constant(.int) = x.kind {
          try enter(x.range, depth: depth + 1)
          path = b
        } else {
          try reach(x, depth: depth + 1, extending: false)
          if b != nil { throw refuse(.keyNotAllowed, "a subscript must be a constant", at: x.range) }
          path = nil
        }
      }
      guard path != nil else { return nil }
    case .aggregate(let items):
      if let limit = policy.limits.inList, items.count > limit {
        throw refuse(.listTooLong, "a list has \(items.count) elements; at most \(limit) are allowed", at: e.range)
      }
      for x in items { try reach(x, depth: depth + 1, extending: false) }
      return nil
    case .unary(let op, let x):
      try deny(e.range, "ARITHMETIC", op == .negate ? "-" : op.symbol)
      try reach(x, depth: depth + 1, extending: false)
      return nil
    case .binary(let op, let a, let b):
      if op.isSetOperator { try deny(e.range, op.symbol) } else { try deny(e.range, "ARITHMETIC", op.symbol) }
      try reach(a, depth: depth + 1, extending: false)
      try reach(b, depth: depth + 1, extending: false)
      return nil
    case .function(let f, let args):
      if SiftQueryPolicy.aggregateFunctions.contains(f) { try deny(e.range, "AGGREGATES") }
      if SiftQueryPolicy.arithmeticFunctions.contains(f) { try deny(e.range, "ARITHMETIC") }
      try deny(e.range, f.shortName)
      for x in args { try reach(x, depth: depth + 1, extending: false) }
      return nil
    case .customFunction(let receiver, _, let args):
      try deny(e.range, "FUNCTION")
      try reach(receiver, depth: depth + 1, extending: false)
      for x in args { try reach(x, depth: depth + 1, extending: false) }
      return nil
    case .subquery(let collection, let variable, let p):
      try deny(e.range, "SUBQUERY")
      let c = try reach(collection, depth: depth + 1, extending: false)
      let saved = scope[variable]
      scope[variable] = .some(c)
      try predicate(p, depth: depth + 1)
      scope[variable] = saved
      return nil
    case .cast(let x, _):
      try deny(e.range, "CAST")
      try reach(x, depth: depth + 1, extending: false)
      return nil
    case .ternary(let p, let a, let b):
      try deny(e.range, "TERNARY")
      try predicate(p, depth: depth + 1)
      try reach(a, depth: depth + 1, extending: false)
      try reach(b, depth: depth + 1, extending: false)
      return nil
    case .assignment:
      throw refuse(.operatorNotAllowed, "assignments are not allowed in this filter", at: e.range)
    case .anyKey:
      throw refuse(.keyNotAllowed, "ANYKEY reads every key; name the keys instead", at: e.range)
    case .argument:
      throw refuse(.unboundArgument, "a format argument was never bound", at: e.range)
    }
    if !extending, let path { try allow(path, at: e.range) }
    return path
  }

  /// Checks that `path` is one of the policy's keys.
  func allow(_ path: [String], at range: SiftSourceRange) throws(SiftError) {
    if path.isEmpty {
      // The whole record (plain-value records: the value) only when the policy lists "SELF".
      if policy.keys.contains("SELF") { return }
      throw refuse(.keyNotAllowed, "SELF (the whole record) is not allowed here; name a key", at: range)
    }
    let dotted = path.joined(separator: ".")
    if !policy.keys.contains(dotted) {
      throw refuse(
        .keyNotAllowed, "key '\(dotted)' is not allowed", at: range,
        notes: [.init("allowed keys: " + policy.keys.sorted().joined(separator: ", "))])
    }
  }

  /// Size limits of a constant: elements of every list, bytes of every string.
  func constant(_ v: SiftValue, at range: SiftSourceRange) throws(SiftError) {
    switch v {
    case .string(let s):
      if let limit = policy.limits.stringBytes, s.utf8.count > limit {
        throw refuse(.stringTooLong, "a string has \(s.utf8.count) bytes; at most \(limit) are allowed", at: range)
      }
    case .array(let items):
      if let limit = policy.limits.inList, items.count > limit {
        throw refuse(.listTooLong, "a list has \(items.count) elements; at most \(limit) are allowed", at: range)
      }
      if policy.limits.stringBytes != nil || policy.limits.inList != nil {
        for x in items { try constant(x, at: range) }
      }
    case .dictionary(let d):
      if let limit = policy.limits.inList, d.count > limit {
        throw refuse(.listTooLong, "a dictionary has \(d.count) entries; at most \(limit) are allowed", at: range)
      }
      for (k, x) in d {
        try constant(.string(k), at: range)
        try constant(x, at: range)
      }
    default: break
    }
  }
}
