import SiftSyntax

// Closures for `key op constant`, `ANY/ALL/NONE key op constant` and `$x.key op constant`,
// specialized per `ValueTest` type: the value is read where it is stored (a fast record's slot,
// a dictionary entry) and tested in the same closure. Roots other than fast records and
// dictionaries, and values the tests do not decide, take the same route as before.

/// `body` applied to `d[name]`. The dictionary is borrowed (`borrowing`): read through a
/// pointer (`RootRef.dict`), it is then neither copied nor retained for the lookup.
@inline(__always)
func withEntry<R>(_ d: borrowing [String: SiftValue], _ name: String, _ body: (SiftValue?) throws(EvalFailure) -> R)
  throws(EvalFailure) -> R
{
  try body(d[name])
}

// Each closure captures one final class holding its test and path: the closure context is
// then a single reference, and the test is read in place (no copies of captured structs per
// call).

/// `path op constant` for a plain key path on the record. With `generic`, roots other than
/// fast records and dictionaries go there instead (for fused tests that must read a user
/// record once per test, as the unfused ones do).
struct KeyTestBuilder: ValueTestConsumer {
  let path: PlainPath
  var generic: PredicateFn?

  final class Compiled<T: ValueTest>: Sendable {
    let t: T
    let path: PlainPath
    let id: Int
    let name: String
    let single: Bool
    let generic: PredicateFn?

    init(_ t: T, _ path: PlainPath, _ generic: PredicateFn?) {
      self.t = t
      self.path = path
      id = path.firstID
      name = path.firstName
      single = path.ids.count == 1
      self.generic = generic
    }

    @inline(__always)
    func run(_ ctx: Ctx) throws(EvalFailure) -> Bool {
      if single {
        switch ctx.ref {
        case .object(let u):
          return try t.run(u.value(id: id))
        case .dict(let p): return try withEntry(p.pointee, name) { v throws(EvalFailure) in try t.run(entry: v) }
        default: break
        }
      }
      if let generic, !ctx.isKeyed { return try generic(ctx) }
      return try t.run(path.read(ctx))
    }
  }

  func consume<T: ValueTest>(_ t: T) -> PredicateFn {
    let c = Compiled(t, path, generic)
    return { ctx throws(EvalFailure) in try c.run(ctx) }
  }
}

/// `$x.path op constant`: the SUBQUERY element in `slot` read in place.
struct VariableKeyTestBuilder: ValueTestConsumer {
  let path: PlainPath
  let slot: Int

  final class Compiled<T: ValueTest>: Sendable {
    let t: T
    let path: PlainPath
    let slot: Int
    let id: Int
    let name: String
    let single: Bool

    init(_ t: T, _ path: PlainPath, _ slot: Int) {
      self.t = t
      self.path = path
      self.slot = slot
      id = path.firstID
      name = path.firstName
      single = path.ids.count == 1
    }

    @inline(__always)
    func run(_ ctx: Ctx) throws(EvalFailure) -> Bool {
      if single {
        switch ctx.frame.lent[slot] {
        case .object(let u):
          return try t.run(u.value(id: id))
        case .value(let p):
          if case .dictionary(let d) = p.pointee { return try t.run(entry: d[name]) }
        case .none: break
        }
      }
      return try t.run(path.read(ctx.frame, slot: slot))
    }
  }

  func consume<T: ValueTest>(_ t: T) -> PredicateFn {
    let c = Compiled(t, path, slot)
    return { ctx throws(EvalFailure) in try c.run(ctx) }
  }
}

/// ANY/ALL/NONE over a collection's elements with one test.
struct QuantifiedLoop<T: ValueTest>: Sendable {
  let t: T
  /// ANY stops at the first element that passes, ALL and NONE at the first that decides.
  let stopOn: Bool
  let answerWhenStopped: Bool

  @inline(__always)
  func loop(_ items: [EvalValue]) throws(EvalFailure) -> Bool {
    let stopped = try InPlace.contains(items) { e throws(EvalFailure) in try t.run(e) == stopOn }
    return stopped ? answerWhenStopped : !answerWhenStopped
  }

  @inline(__always)
  func loop(_ items: [SiftValue]) throws(EvalFailure) -> Bool {
    let stopped = try InPlace.contains(items) { e throws(EvalFailure) in try t.run(entry: e) == stopOn }
    return stopped ? answerWhenStopped : !answerWhenStopped
  }

  /// The answer for the value the key path read; nil for a value that is not a collection
  /// (the generic code reports it).
  @inline(__always)
  func decide(_ v: EvalValue) throws(EvalFailure) -> Bool? {
    switch v {
    case .array(let items): return try loop(items)
    case .values(let items): return try loop(items)
    case .null: return !answerWhenStopped
    default: return nil
    }
  }
}

/// `ANY/ALL/NONE key op constant` with one plain key: loops over the record's array in place.
/// Any other value but nil goes to `generic` (which reports the error).
struct QuantifiedKeyBuilder: ValueTestConsumer {
  let path: PlainPath
  let quantifier: SiftQuantifier
  let generic: PredicateFn

  final class Compiled<T: ValueTest>: Sendable {
    let q: QuantifiedLoop<T>
    let path: PlainPath
    let id: Int
    let name: String
    let generic: PredicateFn

    init(_ q: QuantifiedLoop<T>, _ path: PlainPath, _ generic: @escaping PredicateFn) {
      self.q = q
      self.path = path
      id = path.firstID
      name = path.firstName
      self.generic = generic
    }

    @inline(__always)
    func run(_ ctx: Ctx) throws(EvalFailure) -> Bool {
      switch ctx.ref {
      case .object(let u):
        guard let p = u.slot(id: id) else { return !q.answerWhenStopped }
        if let answer = try q.decide(p.pointee) { return answer }
        return try generic(ctx)
      case .dict(let p):
        let answer = try withEntry(p.pointee, name) { v throws(EvalFailure) -> Bool? in
          switch v {
          case .array(let items)?: return try q.loop(items)
          case nil, .null?: return !q.answerWhenStopped
          default: return nil
          }
        }
        if let answer { return answer }
        return try generic(ctx)
      default:
        guard ctx.isKeyed, let answer = try q.decide(path.read(ctx)) else { return try generic(ctx) }
        return answer
      }
    }
  }

  func consume<T: ValueTest>(_ t: T) -> PredicateFn {
    let q = QuantifiedLoop(t: t, stopOn: quantifier != .all, answerWhenStopped: quantifier == .any)
    let c = Compiled(q, path, generic)
    return { ctx throws(EvalFailure) in try c.run(ctx) }
  }
}

/// `$x.a op c1 AND $x.b op c2` (single keys, constants; SUBQUERY's usual test): the element is
/// looked up once and both entries read in place, the second only when the first test passes —
/// the two-term chain's answer and error exactly. Elements that are not lent fast records or
/// dictionaries go to `generic` (the chain).
struct VariablePairBuilder: ValueTestPairConsumer {
  let first: PlainPath
  let second: PlainPath
  let slot: Int
  let generic: PredicateFn

  final class Compiled<A: ValueTest, B: ValueTest>: Sendable {
    let a: A
    let b: B
    let slot: Int
    let idA: Int, idB: Int
    let nameA: String, nameB: String
    let generic: PredicateFn

    init(_ a: A, _ b: B, _ builder: VariablePairBuilder) {
      self.a = a
      self.b = b
      slot = builder.slot
      idA = builder.first.firstID
      idB = builder.second.firstID
      nameA = builder.first.firstName
      nameB = builder.second.firstName
      generic = builder.generic
    }

    @inline(__always)
    func run(_ ctx: Ctx) throws(EvalFailure) -> Bool {
      switch ctx.frame.lent[slot] {
      case .object(let u):
        if try !a.run(u.value(id: idA)) { return false }
        return try b.run(u.value(id: idB))
      case .value(let p):
        guard case .dictionary(let d) = p.pointee else { return try generic(ctx) }
        if try !a.run(entry: d[nameA]) { return false }
        return try b.run(entry: d[nameB])
      case .none:
        return try generic(ctx)
      }
    }
  }

  func consume<A: ValueTest, B: ValueTest>(_ a: A, _ b: B) -> PredicateFn {
    let c = Compiled(a, b, self)
    return { ctx throws(EvalFailure) in try c.run(ctx) }
  }
}

/// `key.@count op constant`: counts the record's array in place and tests the count in the
/// same closure; anything else (and every error) through `generic`, the compiled left side.
struct CountTestBuilder: ValueTestConsumer {
  let id: Int
  let name: String
  let generic: ExpressionFn

  final class Compiled<T: ValueTest>: Sendable {
    let t: T
    let id: Int
    let name: String
    let generic: ExpressionFn

    init(_ t: T, _ b: CountTestBuilder) {
      self.t = t
      id = b.id
      name = b.name
      generic = b.generic
    }

    @inline(__always)
    func run(_ ctx: Ctx) throws(EvalFailure) -> Bool {
      switch ctx.ref {
      case .object(let u):
        if let n = u.arrayCount(id: id) { return try t.run(.int(Int64(n))) }
      case .dict(let p):
        let n = try withEntry(p.pointee, name) { v throws(EvalFailure) -> Int? in
          if case .array(let items)? = v { return items.count }
          return nil
        }
        if let n { return try t.run(.int(Int64(n))) }
      default: break
      }
      return try t.run(generic(ctx))
    }
  }

  func consume<T: ValueTest>(_ t: T) -> PredicateFn {
    let c = Compiled(t, self)
    return { ctx throws(EvalFailure) in try c.run(ctx) }
  }
}
