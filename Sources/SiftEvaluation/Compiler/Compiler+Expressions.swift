import Foundation
import SiftSyntax

extension Compiler {
  /// Compiles an expression; pure operations on constants are folded.
  mutating func expression(_ e: ExpressionNode) throws(EvalFailure) -> CompiledExpression {
    let range = e.range
    switch e.kind {
    case .constant(let v): return .constant(EvalValue(v))
    case .evaluatedObject: return .dynamic { ctx in ctx.root }
    case .variable(let name):
      let slot = variableSlot(name, at: range)
      return .dynamic { ctx in ctx.frame.value(slot) }
    case .keyPath(let base, let kp): return try keyPath(base, kp, range: range)
    case .index(let base, let kind): return try index(base, kind, range: range)
    case .aggregate(let items):
      let fs = try functions(items)
      return .dynamic { ctx throws(EvalFailure) in
        var out: [EvalValue] = []
        out.reserveCapacity(fs.count)
        for f in fs { out.append(try f(ctx)) }
        return .array(out)
      }
    case .unary(let op, let x):
      let cx = try expression(x)
      let f = cx.function
      let g: ExpressionFn
      switch op {
      case .negate: g = { ctx throws(EvalFailure) in try Arithmetic.negate(f(ctx), at: range) }
      case .bitwiseNot: g = { ctx throws(EvalFailure) in try Arithmetic.bitwiseNot(f(ctx), at: range) }
      }
      return Compiler.fold(g, pure: cx.constant != nil)
    case .binary(let op, let a, let b):
      let ca = try expression(a), cb = try expression(b)
      let fa = ca.function, fb = cb.function
      let g: ExpressionFn = { ctx throws(EvalFailure) in
        try Arithmetic.binary(op, fa(ctx), fb(ctx), at: range)
      }
      return Compiler.fold(g, pure: ca.constant != nil && cb.constant != nil)
    case .function(let f, let args):
      let cs = try compiled(args)
      let fs = cs.map(\.function)
      let g: ExpressionFn = { ctx throws(EvalFailure) in
        var values: [EvalValue] = []
        values.reserveCapacity(fs.count)
        for a in fs { values.append(try a(ctx)) }
        return try Functions.call(f, values, at: range)
      }
      let impure: Set<BuiltinFunction> = [.random, .randomBelow, .randomn, .now]
      return Compiler.fold(g, pure: !impure.contains(f) && cs.allSatisfy { $0.constant != nil })
    case .customFunction(let receiver, let selector, let arguments):
      guard let fn = self.functions.lookup(selector) else {
        throw EvalDiagnostics.unknownFunction(selector, at: range)
      }
      let r = try expression(receiver).function
      let fs = try functions(arguments)
      return .dynamic { ctx throws(EvalFailure) in
        let recv = try r(ctx).siftValue()
        var values: [SiftValue] = []
        for a in fs { values.append(try a(ctx).siftValue()) }
        do { return EvalValue(try fn(recv, values)) } catch {
          throw EvalDiagnostics.customFunctionFailed(selector, error, at: range)
        }
      }
    case .subquery(let collection, let variable, let p):
      let run = try subquery(collection, variable, p)
      return .dynamic { ctx throws(EvalFailure) in
        var out: [EvalValue] = []
        try run(ctx, true) { e in out.append(e) }
        return .array(out)
      }
    case .cast(let x, let type):
      let cx = try expression(x)
      let f = cx.function
      let g: ExpressionFn = { ctx throws(EvalFailure) in try Cast.apply(f(ctx), type, at: range) }
      return Compiler.fold(g, pure: cx.constant != nil)
    case .ternary(let p, let a, let b):
      let test = try predicate(p)
      let fa = try expression(a).function, fb = try expression(b).function
      return .dynamic { ctx throws(EvalFailure) in try test(ctx) ? fa(ctx) : fb(ctx) }
    case .assignment(_, let x):
      return try expression(x)
    case .anyKey:
      throw EvalDiagnostics.unsupported("ANYKEY (a Spotlight-only expression)", at: range)
    case .argument:
      throw EvalDiagnostics.unboundArgument(at: range)
    }
  }

  mutating func compiled(_ items: [ExpressionNode]) throws(EvalFailure) -> [CompiledExpression] {
    var out: [CompiledExpression] = []
    out.reserveCapacity(items.count)
    for x in items { out.append(try expression(x)) }
    return out
  }

  mutating func functions(_ items: [ExpressionNode]) throws(EvalFailure) -> [ExpressionFn] {
    try compiled(items).map(\.function)
  }

  /// Runs `f` once at compile time when its inputs are constants; keeps it dynamic if that
  /// fails, so an error (say `1 / 0`) surfaces only when the expression is reached.
  static func fold(_ f: @escaping ExpressionFn, pure: Bool) -> CompiledExpression {
    guard pure else { return .dynamic(f) }
    let frame = Frame(slotCount: 0)
    defer { withExtendedLifetime(frame) {} }
    do { return .constant(try f(Ctx(.none, frame: frame))) } catch { return .dynamic(f) }
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

  mutating func keyPath(_ base: ExpressionNode?, _ kp: SiftKeyPath, range: SiftSourceRange) throws(EvalFailure)
    -> CompiledExpression
  {
    // SUBQUERY(…).@count counts without building the filtered array.
    if let base, case .subquery(let c, let v, let p) = base.kind, case .operator(.count)? = kp.components.first {
      let run = try subquery(c, v, p)
      let rest = KeyPathReader(SiftKeyPath(Array(kp.components.dropFirst())), range: range)
      return .dynamic { ctx throws(EvalFailure) in
        var n: Int64 = 0
        try run(ctx, false) { _ in n &+= 1 }
        return try rest.apply(.int(n), from: 0)
      }
    }
    let reader = KeyPathReader(kp, range: range)
    guard let base else {
      if fastPaths, let path = PlainPath(kp, range: range) {
        return .dynamic { ctx throws(EvalFailure) in try path.read(ctx) }
      }
      if fastPaths, let count = Compiler.countPath(kp, range: range, reader: reader) { return .dynamic(count) }
      if reader.plainFrom == 0, case .key(_, let id)? = reader.steps.first, reader.steps.count == 1 {
        return .dynamic { ctx throws(EvalFailure) in
          if case .object(let o) = ctx.root { return o.value(id: id) }
          return try reader.read(ctx.root)
        }
      }
      return .dynamic { ctx throws(EvalFailure) in try reader.read(ctx.root) }
    }
    if fastPaths, case .variable(let name) = base.kind, let path = PlainPath(kp, range: range) {
      // `$x.key`: read the variable's slot directly.
      let slot = variableSlot(name, at: base.range)
      return .dynamic { ctx throws(EvalFailure) in try path.read(ctx.frame, slot: slot) }
    }
    let cb = try expression(base)
    let b = cb.function
    return Compiler.fold({ ctx throws(EvalFailure) in try reader.read(b(ctx)) }, pure: cb.constant != nil)
  }

  /// `key.key….@count` on the record: counts the array in place; anything else (and every
  /// error) through `reader`.
  static func countPath(_ kp: SiftKeyPath, range: SiftSourceRange, reader: KeyPathReader) -> ExpressionFn? {
    guard kp.components.count >= 2, case .operator(.count)? = kp.components.last,
      let prefix = PlainPath(SiftKeyPath(Array(kp.components.dropLast())), range: range)
    else { return nil }
    let single = prefix.ids.count == 1
    return { ctx throws(EvalFailure) in
      if single, let u = ctx.object, let n = u.arrayCount(id: prefix.firstID) {
        return .int(Int64(n))
      }
      if ctx.isKeyed {
        switch try prefix.read(ctx) {
        case .array(let items): return .int(Int64(items.count))
        case .values(let items): return .int(Int64(items.count))
        default: break
        }
      }
      return try reader.read(ctx.root)
    }
  }

  /// Compiles SUBQUERY's parts; the result calls `yield` for each element the predicate
  /// accepts, with the element when asked to (`.null` otherwise, for counting). The iterator
  /// variable gets its own slot and is visible only inside; fast-record and dictionary
  /// elements are lent to the slot (see `Frame.lent`) rather than copied into it.
  mutating func subquery(_ collection: ExpressionNode, _ variable: String, _ p: PredicateNode)
    throws(EvalFailure) -> @Sendable (Ctx, Bool, (EvalValue) -> Void) throws(EvalFailure) -> Void
  {
    let coll = try expression(collection).function
    let range = collection.range
    let slot = newSlot()
    let saved = scope[variable]
    scope[variable] = slot
    // The outermost SUBQUERY starts each record's step count (`WorkMeter`).
    let outermost = subqueryNesting == 0
    subqueryNesting += 1
    let test = try predicate(p)
    subqueryNesting -= 1
    scope[variable] = saved
    return Compiler.subqueryLoop(coll, range: range, slot: slot, outermost: outermost, test: test)
  }

  mutating func index(_ base: ExpressionNode, _ kind: IndexKind, range: SiftSourceRange) throws(EvalFailure)
    -> CompiledExpression
  {
    let cb = try expression(base)
    let b = cb.function
    let g: ExpressionFn
    var pure = cb.constant != nil
    switch kind {
    case .first, .last:
      let first = kind == .first
      g = { ctx throws(EvalFailure) in
        let v = try b(ctx)
        if v.isNull { return .null }
        guard let l = v.list else { throw EvalDiagnostics.needsCollection(first ? "[FIRST]" : "[LAST]", v, at: range) }
        if l.count == 0 { return .null }
        return first ? l[0] : l[l.count - 1]
      }
    case .size:
      g = { ctx throws(EvalFailure) in
        let v = try b(ctx)
        if v.isNull { return .null }
        if let l = v.list { return .int(Int64(l.count)) }
        if let k = Keyed(v) { return .int(Int64(k.count)) }
        throw EvalDiagnostics.needsCollection("[SIZE]", v, at: range)
      }
    case .expression(let x):
      let cx = try expression(x)
      let f = cx.function
      pure = pure && cx.constant != nil
      g = { ctx throws(EvalFailure) in try Compiler.subscripted(b(ctx), f(ctx), at: range) }
    }
    return Compiler.fold(g, pure: pure)
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
