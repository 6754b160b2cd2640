/// `x == c1 OR x == c2 OR …`: a run of equalities of one operand with constants, next to each
/// other in an OR, means `x IN {c1, c2, …}` (same equality, same options, never an error), so
/// engines can test it with one set lookup (memory) or one list (SQL) instead of a chain of
/// thousands of terms. Only contiguous runs merge, so what is evaluated before what — and so
/// which error a strict evaluation reports — stays as written; an OR of nothing but
/// equalities of plain keys, where no term can raise, gathers each key's equalities wherever
/// they stand.
///
/// ```swift
/// let p = try SiftPredicate(format: (0..<20).map { "x == \($0)" }.joined(separator: " OR "))
/// if case .or(let terms) = p.root.kind { SiftOrMerging.merged(terms).count }   // 1: x IN {0, …, 19}
/// ```
package enum SiftOrMerging {
  /// Runs shorter than this stay as they are.
  public static let minimumRun = 8

  /// `terms` with each run of at least `minimumRun` mergeable equalities replaced by one IN.
  public static func merged(_ terms: [PredicateNode]) -> [PredicateNode] {
    parts(terms).map { part in
      switch part {
      case .term(let i): return terms[i]
      case .merged(let node, _): return node
      }
    }
  }

  /// One term of `merged(_:)`'s result.
  package enum Part: Equatable {
    /// `terms[i]`, as it is.
    case term(Int)
    /// An IN comparison standing for equalities whose operand is that of `terms[first]`.
    case merged(PredicateNode, first: Int)
  }

  /// `merged(_:)`, saying which of `terms` each result stands for (so an engine that has
  /// prepared the terms can keep what it prepared).
  package static func parts(_ terms: [PredicateNode]) -> [Part] {
    guard terms.count >= minimumRun else { return terms.indices.map { .term($0) } }
    if let grouped = grouped(terms) { return grouped }
    var out: [Part] = []
    var i = 0
    while i < terms.count {
      guard let first = equality(terms[i]) else {
        out.append(.term(i))
        i += 1
        continue
      }
      var values = [first.value]
      var j = i + 1
      while j < terms.count, let next = equality(terms[j]), next.c.lhs == first.c.lhs, next.c.options == first.c.options
      {
        values.append(next.value)
        j += 1
      }
      if values.count >= minimumRun {
        let range = terms[i].range.union(terms[j - 1].range)
        var c = first.c
        c.op = .in
        c.rhs = ExpressionNode(.constant(.array(values)), range: range)
        out.append(.merged(PredicateNode(.comparison(c), range: range), first: i))
      } else {
        out += (i..<j).map { .term($0) }
      }
      i = j
    }
    return out
  }

  /// An OR made only of equalities of plain keys (`a == 1 OR b == 'x' OR a == 2 …`): no term
  /// can raise, so their order does not matter; the equalities of each key (and options)
  /// gather into one IN, keys in order of first appearance. Nil for any other OR.
  static func grouped(_ terms: [PredicateNode]) -> [Part]? {
    struct Key: Hashable {
      let lhs: ExpressionNode
      let options: ComparisonOptions
    }
    var order: [Key] = []
    var groups: [Key: (first: SiftComparison, values: [SiftValue], terms: [Int])] = [:]
    for (i, t) in terms.enumerated() {
      guard let (c, v) = equality(t), case .keyPath(nil, let kp) = c.lhs.kind, kp.components.count == 1 else {
        return nil
      }
      let key = Key(lhs: c.lhs, options: c.options)
      if groups[key] == nil {
        order.append(key)
        groups[key] = (c, [], [])
      }
      groups[key]?.values.append(v)
      groups[key]?.terms.append(i)
    }
    guard order.count > 1 else { return nil }  // one key: the contiguous run below
    var out: [Part] = []
    for key in order {
      guard let g = groups[key], let first = g.terms.first else { continue }
      if g.values.count < minimumRun {
        out += g.terms.map { .term($0) }
        continue
      }
      var c = g.first
      c.op = .in
      c.rhs = ExpressionNode(.constant(.array(g.values)), range: g.first.rhs.range)
      out.append(.merged(PredicateNode(.comparison(c), range: terms[first].range), first: first))
    }
    return out
  }

  /// `operand == constant` with a pure operand (a key path of the record or of a variable).
  static func equality(_ p: PredicateNode) -> (c: SiftComparison, value: SiftValue)? {
    guard case .comparison(let c) = p.kind, c.quantifier == nil, c.op == .equal, case .constant(let v) = c.rhs.kind,
      case .keyPath(let base, let kp) = c.lhs.kind,
      kp.components.allSatisfy({ if case .key = $0 { true } else { false } })
    else { return nil }
    if let base, case .variable = base.kind {} else if base != nil { return nil }
    return (c, v)
  }
}
