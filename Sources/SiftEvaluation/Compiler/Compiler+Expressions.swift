import Foundation
import SiftSyntax

extension Compiler {
  /// Plans an expression; pure operations on constants are folded.
  mutating func expression(_ e: ExpressionNode) throws(EvalFailure) -> ExpressionPlan {
    let range = e.range
    switch e.kind {
    case .constant(let v): return ExpressionPlan(node: e, kind: .constant(EvalValue(v)))
    case .evaluatedObject: return ExpressionPlan(node: e, kind: .composite([]) { _ in { ctx in ctx.root } })
    case .variable(let name): return ExpressionPlan(node: e, kind: .variable(variableSlot(name, at: range)))
    case .keyPath(let base, let kp): return try keyPath(e, base, kp)
    case .index(let base, let kind): return try index(e, base, kind)
    case .aggregate(let items):
      return try composite(e, items, pure: false) { fs in
        { ctx throws(EvalFailure) in
          var out: [EvalValue] = []
          out.reserveCapacity(fs.count)
          for f in fs { out.append(try f.run(ctx)) }
          return .array(out)
        }
      }
    case .unary(let op, let x):
      return try composite(e, [x], pure: true) { fs in
        let f = fs[0].run
        switch op {
        case .negate: return { ctx throws(EvalFailure) in try Arithmetic.negate(f(ctx), at: range) }
        case .bitwiseNot: return { ctx throws(EvalFailure) in try Arithmetic.bitwiseNot(f(ctx), at: range) }
        }
      }
    case .binary(let op, let a, let b):
      return try composite(e, [a, b], pure: true) { fs in
        let fa = fs[0].run, fb = fs[1].run
        return { ctx throws(EvalFailure) in try Arithmetic.binary(op, fa(ctx), fb(ctx), at: range) }
      }
    case .function(let f, let args):
      return try composite(e, args, pure: f.isDeterministic) { fs in
        { ctx throws(EvalFailure) in
          var values: [EvalValue] = []
          values.reserveCapacity(fs.count)
          for a in fs { values.append(try a.run(ctx)) }
          return try Functions.call(f, values, at: range)
        }
      }
    case .customFunction(let receiver, let selector, let arguments):
      // A registered function wins in memory (it was there first); SQL runs only the table.
      guard let fn = self.functions.lookup(selector) else {
        return try builtinSelector(e, receiver, selector, arguments)
      }
      return try composite(e, [receiver] + arguments, pure: false) { parts in
        let r = parts[0].run
        let fs = parts.dropFirst().map(\.run)
        return { ctx throws(EvalFailure) in
          let recv = try r(ctx).siftValue()
          var values: [SiftValue] = []
          for a in fs { values.append(try a(ctx).siftValue()) }
          do { return EvalValue(try fn(recv, values)) } catch {
            throw EvalDiagnostics.customFunctionFailed(selector, error, at: range)
          }
        }
      }
    case .subquery(let collection, let variable, let p):
      return ExpressionPlan(node: e, kind: .subquery(try subquery(collection, variable, p)))
    case .cast(let x, let type):
      return try composite(e, [x], pure: true) { fs in
        let f = fs[0].run
        return { ctx throws(EvalFailure) in try Cast.apply(f(ctx), type, at: range) }
      }
    case .ternary(let p, let a, let b):
      let test = try predicate(p)
      let pa = try expression(a), pb = try expression(b)
      return ExpressionPlan(node: e, kind: .ternary(test, pa, pb))
    case .assignment(_, let x):
      return try expression(x)
    case .anyKey:
      throw EvalDiagnostics.unsupported("ANYKEY (a Spotlight-only expression)", at: range)
    case .argument:
      throw EvalDiagnostics.unboundArgument(at: range)
    }
  }

  /// `FUNCTION(receiver, 'selector')` for a selector of `SiftSelector`'s table: the tree it
  /// lowers to, or (`length`) the UTF-16 count here. Anything else is `unknown-function`.
  mutating func builtinSelector(
    _ e: ExpressionNode, _ receiver: ExpressionNode, _ name: String, _ arguments: [ExpressionNode]
  ) throws(EvalFailure) -> ExpressionPlan {
    let range = e.range
    guard let selector = SiftSelector(rawValue: name) else { throw EvalDiagnostics.unknownFunction(name, at: range) }
    guard arguments.isEmpty else { throw EvalDiagnostics.selectorArguments(name, at: range) }
    if let tree = selector.lowered(receiver, at: range) { return try expression(tree) }
    return try composite(e, [receiver], pure: true) { fs in
      let f = fs[0].run
      return { ctx throws(EvalFailure) in
        let v = try f(ctx)
        if v.isNull { return .null }
        guard case .string(let s) = v else { throw EvalDiagnostics.needsString(name, v, at: range) }
        return .int(Int64(SiftSelector.utf16Length(s)))
      }
    }
  }

  /// `e` from its operands, planned in order; folded when `pure` and they are all constants.
  mutating func composite(
    _ e: ExpressionNode, _ operands: [ExpressionNode], pure: Bool,
    _ build: @escaping ([ExpressionBox]) -> ExpressionFn
  ) throws(EvalFailure) -> ExpressionPlan {
    var parts: [ExpressionPlan] = []
    parts.reserveCapacity(operands.count)
    for x in operands { parts.append(try expression(x)) }
    return Compiler.fold(e, parts, pure: pure, build)
  }

  /// Runs the node once at compile time when it is pure and its operands are constants; keeps
  /// it dynamic if that fails, so an error (say `1 / 0`) surfaces only when it is reached.
  static func fold(
    _ e: ExpressionNode, _ parts: [ExpressionPlan], pure: Bool, _ build: @escaping ([ExpressionBox]) -> ExpressionFn
  ) -> ExpressionPlan {
    let dynamic = ExpressionPlan(node: e, kind: .composite(parts, build: build))
    guard pure else { return dynamic }
    var constants: [ExpressionBox] = []
    for p in parts {
      guard let v = p.constant else { return dynamic }
      constants.append(ExpressionBox(run: { _ in v }))
    }
    let f = build(constants)
    let frame = Frame(slotCount: 0)
    defer { withExtendedLifetime(frame) {} }
    do { return ExpressionPlan(node: e, kind: .constant(try f(Ctx(.none, frame: frame)))) } catch { return dynamic }
  }

  /// The slot of `$name`: the innermost SUBQUERY iterator of that name, else a free variable.
  mutating func variableSlot(_ name: String, at range: SiftSourceRange) -> Int {
    if let s = scope[name] { return s }
    if let s = freeVariables[name] { return s }
    let s = newSlot()
    freeVariables[name] = s
    freeVariableRanges[name] = range
    return s
  }

  mutating func keyPath(_ e: ExpressionNode, _ base: ExpressionNode?, _ kp: SiftKeyPath) throws(EvalFailure)
    -> ExpressionPlan
  {
    let range = e.range
    // SUBQUERY(…).@count counts without building the filtered array.
    if let base, case .subquery(let c, let v, let p) = base.kind, case .operator(.count)? = kp.components.first {
      let rest = KeyPathReader(SiftKeyPath(Array(kp.components.dropFirst())), range: range)
      return ExpressionPlan(node: e, kind: .subqueryCount(try subquery(c, v, p), rest: rest))
    }
    let reader = KeyPathReader(kp, range: range)
    guard let base else { return ExpressionPlan(node: e, kind: .keyPath(base: nil, kp, reader)) }
    let b = try expression(base)
    if let v = b.constant {
      return Compiler.fold(e, [b], pure: true) { _ in { _ throws(EvalFailure) in try reader.read(v) } }
    }
    return ExpressionPlan(node: e, kind: .keyPath(base: b, kp, reader))
  }

  /// Plans SUBQUERY's parts. The iterator variable gets its own slot and is visible only
  /// inside; fast-record and dictionary elements are lent to the slot (see `Frame.lent`)
  /// rather than copied into it.
  mutating func subquery(_ collection: ExpressionNode, _ variable: String, _ p: PredicateNode)
    throws(EvalFailure) -> SubqueryPlan
  {
    let coll = try expression(collection)
    let slot = newSlot()
    let saved = scope[variable]
    scope[variable] = slot
    let outermost = subqueryNesting == 0
    subqueryNesting += 1
    let test = try predicate(p)
    subqueryNesting -= 1
    scope[variable] = saved
    return SubqueryPlan(collection: coll, slot: slot, outermost: outermost, test: test)
  }

  mutating func index(_ e: ExpressionNode, _ base: ExpressionNode, _ kind: IndexKind) throws(EvalFailure)
    -> ExpressionPlan
  {
    let range = e.range
    switch kind {
    case .first, .last:
      let first = kind == .first
      return try composite(e, [base], pure: true) { fs in
        let b = fs[0].run
        return { ctx throws(EvalFailure) in
          let v = try b(ctx)
          if v.isNull { return .null }
          guard let l = v.list else {
            throw EvalDiagnostics.needsCollection(first ? "[FIRST]" : "[LAST]", v, at: range)
          }
          if l.count == 0 { return .null }
          return first ? l[0] : l[l.count - 1]
        }
      }
    case .size:
      return try composite(e, [base], pure: true) { fs in
        let b = fs[0].run
        return { ctx throws(EvalFailure) in
          let v = try b(ctx)
          if v.isNull { return .null }
          if let l = v.list { return .int(Int64(l.count)) }
          if let k = Keyed(v) { return .int(Int64(k.count)) }
          throw EvalDiagnostics.needsCollection("[SIZE]", v, at: range)
        }
      }
    case .expression(let x):
      return try composite(e, [base, x], pure: true) { fs in
        let b = fs[0].run, f = fs[1].run
        return { ctx throws(EvalFailure) in try Compiler.subscripted(b(ctx), f(ctx), at: range) }
      }
    }
  }

  /// `base[index]`: an array position (integers; out of range or negative is nil) or a
  /// dictionary key (strings). Nil base or index gives nil; anything else is `invalid-index`.
  static func subscripted(_ base: EvalValue, _ index: EvalValue, at range: SiftSourceRange) throws(EvalFailure)
    -> EvalValue
  {
    if base.isNull || index.isNull { return .null }
    if let l = base.list, case .int(let i)? = index.number {
      guard i >= 0, i < Int64(l.count) else { return .null }
      return l[Int(i)]
    }
    if case .string(let key) = index {
      switch base {
      case .dict(let d): return EvalValue(d[key])
      case .object(let o): return Keyed.value(in: o, key)
      case .record(let r): return EvalValue(r.record.value(forKey: key))
      default: break
      }
    }
    throw EvalDiagnostics.invalidIndex(base, index, at: range)
  }
}
