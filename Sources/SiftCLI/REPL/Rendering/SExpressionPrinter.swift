import SiftSyntax

/// Prints a predicate tree as an indented S-expression, one node per line, for `.ast`.
///
/// ```swift
/// let p = try SiftPredicate(format: "ANY tags == 'wifi' AND distance < 5")
/// print(SExpressionPrinter().print(p.root))
/// // (and
/// //   (== ANY (key tags) "wifi")
/// //   (< (key distance) 5))
/// ```
/// Leaves and small nodes stay on one line when they fit in 60 columns.
struct SExpressionPrinter: Sendable {
  /// The S-expression of a predicate.
  func print(_ p: PredicateNode) -> String { layout(tree(p), indent: 0) }

  /// The S-expression of an expression.
  func print(_ e: ExpressionNode) -> String { layout(tree(e), indent: 0) }

  /// A node: an atom or a list with a head.
  indirect enum Tree {
    case atom(String)
    case list(String, [Tree])
  }

  func tree(_ p: PredicateNode) -> Tree {
    switch p.kind {
    case .constant(let b): return .atom(b ? "TRUEPREDICATE" : "FALSEPREDICATE")
    case .and(let terms): return .list("and", terms.map(tree))
    case .or(let terms): return .list("or", terms.map(tree))
    case .not(let inner): return .list("not", [tree(inner)])
    case .comparison(let c):
      var head = c.op.keyword
      if !c.options.isEmpty { head += c.options.description }
      var items: [Tree] = []
      if let q = c.quantifier { items.append(.atom(q.keyword)) }
      items.append(tree(c.lhs))
      items.append(tree(c.rhs))
      return .list(head, items)
    }
  }

  func tree(_ e: ExpressionNode) -> Tree {
    switch e.kind {
    case .constant(let v): return .atom(CanonicalPrinter().print(ExpressionNode(.constant(v))))
    case .evaluatedObject: return .atom("SELF")
    case .variable(let n): return .atom("$" + n)
    case .keyPath(let base, let kp):
      let key = Tree.atom(kp.description)
      if let base { return .list("key", [tree(base), key]) }
      return .list("key", [key])
    case .index(let b, let i):
      switch i {
      case .first: return .list("index", [tree(b), .atom("FIRST")])
      case .last: return .list("index", [tree(b), .atom("LAST")])
      case .size: return .list("index", [tree(b), .atom("SIZE")])
      case .expression(let x): return .list("index", [tree(b), tree(x)])
      }
    case .aggregate(let items): return .list("aggregate", items.map(tree))
    case .unary(let op, let x): return .list(op.symbol, [tree(x)])
    case .binary(let op, let a, let b): return .list(op.symbol, [tree(a), tree(b)])
    case .function(let f, let args): return .list("call " + f.selector, args.map(tree))
    case .customFunction(let r, let s, let args):
      return .list("FUNCTION", [tree(r), .atom("\"\(s)\"")] + args.map(tree))
    case .subquery(let c, let v, let p): return .list("SUBQUERY", [tree(c), .atom("$" + v), tree(p)])
    case .cast(let x, let t): return .list("CAST", [tree(x), .atom(t.className)])
    case .ternary(let p, let a, let b): return .list("TERNARY", [tree(p), tree(a), tree(b)])
    case .assignment(let v, let x): return .list(":=", [.atom("$" + v), tree(x)])
    case .anyKey: return .atom("ANYKEY")
    case .argument(let s, let pos): return .atom("\(s.text)#\(pos + 1)")
    }
  }

  func flat(_ t: Tree) -> String {
    switch t {
    case .atom(let s): return s
    case .list(let head, let items): return "(" + ([head] + items.map(flat)).joined(separator: " ") + ")"
    }
  }

  func layout(_ t: Tree, indent: Int) -> String {
    let one = flat(t)
    guard case .list(let head, let items) = t, indent + one.count > 60 else { return one }
    let pad = String(repeating: " ", count: indent + 2)
    var out = "(" + head
    for item in items { out += "\n" + pad + layout(item, indent: indent + 2) }
    return out + ")"
  }
}
