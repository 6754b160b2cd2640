/// Encodes a predicate tree as a JSON-ready `SiftValue` (for `sift parse --json` and tools).
/// Every node is an object with a `"node"` kind, its fields, and `"range": [start, end]`.
///
/// ```swift
/// let json = SiftJSON.serialize(ASTJSON.encode(try SiftPredicate(format: "a == 1").root))
/// // {"lhs": {"keyPath": ["a"], "node": "keyPath", …}, "node": "comparison", "op": "==", …}
/// ```
package enum ASTJSON {
  /// The JSON form of a predicate node.
  package static func encode(_ p: PredicateNode) -> SiftValue {
    var d: [String: SiftValue] = ["range": range(p.range)]
    switch p.kind {
    case .constant(let b):
      d["node"] = "constant"
      d["value"] = .bool(b)
    case .and(let terms):
      d["node"] = "and"
      d["terms"] = .array(terms.map(encode))
    case .or(let terms):
      d["node"] = "or"
      d["terms"] = .array(terms.map(encode))
    case .not(let inner):
      d["node"] = "not"
      d["operand"] = encode(inner)
    case .comparison(let c):
      d["node"] = "comparison"
      if let q = c.quantifier { d["quantifier"] = .string(q.keyword) }
      d["op"] = .string(c.op.keyword)
      if !c.options.isEmpty { d["options"] = .string(c.options.description) }
      d["lhs"] = encode(c.lhs)
      d["rhs"] = encode(c.rhs)
    }
    return .dictionary(d)
  }

  /// The JSON form of an expression node.
  package static func encode(_ e: ExpressionNode) -> SiftValue {
    var d: [String: SiftValue] = ["range": range(e.range)]
    func set(_ node: String, _ fields: [String: SiftValue]) {
      d["node"] = .string(node)
      for (k, v) in fields { d[k] = v }
    }
    switch e.kind {
    case .constant(let v): set("constant", ["value": v])
    case .evaluatedObject: set("self", [:])
    case .variable(let n): set("variable", ["name": .string(n)])
    case .keyPath(let base, let kp):
      var f: [String: SiftValue] = [
        "keyPath": .array(
          kp.components.map { c in
            switch c {
            case .key(let k): return .string(k)
            case .operator(let op): return .string(op.spelling)
            }
          })
      ]
      if let base { f["base"] = encode(base) }
      set("keyPath", f)
    case .index(let b, let i):
      let index: SiftValue
      switch i {
      case .first: index = "FIRST"
      case .last: index = "LAST"
      case .size: index = "SIZE"
      case .expression(let x): index = encode(x)
      }
      set("index", ["base": encode(b), "index": index])
    case .aggregate(let items): set("aggregate", ["items": .array(items.map(encode))])
    case .unary(let op, let x): set("unary", ["op": .string(op.symbol), "operand": encode(x)])
    case .binary(let op, let a, let b): set("binary", ["op": .string(op.symbol), "lhs": encode(a), "rhs": encode(b)])
    case .function(let f, let args):
      set("function", ["name": .string(f.selector), "arguments": .array(args.map(encode))])
    case .customFunction(let r, let s, let args):
      set("customFunction", ["receiver": encode(r), "selector": .string(s), "arguments": .array(args.map(encode))])
    case .subquery(let c, let v, let p):
      set("subquery", ["collection": encode(c), "variable": .string(v), "predicate": encode(p)])
    case .cast(let x, let t): set("cast", ["value": encode(x), "type": .string(t.className)])
    case .ternary(let p, let a, let b):
      set("ternary", ["condition": encode(p), "whenTrue": encode(a), "whenFalse": encode(b)])
    case .assignment(let v, let x): set("assignment", ["variable": .string(v), "value": encode(x)])
    case .anyKey: set("anyKey", [:])
    case .argument(let s, let pos): set("argument", ["specifier": .string(s.text), "position": .int(Int64(pos))])
    }
    return .dictionary(d)
  }

  static func range(_ r: SiftSourceRange) -> SiftValue { [.int(Int64(r.start)), .int(Int64(r.end))] }
}
