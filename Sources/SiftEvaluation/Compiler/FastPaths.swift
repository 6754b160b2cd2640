import SiftSyntax

// Building blocks of the specialized closures `Specializer` chooses: a plain key path read by
// slot, and `value op constant` with the common cases inline. Each decides the usual inputs
// inline and hands everything else — including every error — to the generic code, so the
// answer is always the generic one (tests lower plans with and without the pass and compare).

/// A key path of plain keys (no `self`, no operators), read with slot lookups on fast records
/// and hash lookups on dictionaries. Other values go through `KeyPathReader` — same result.
struct PlainPath: Sendable {
  let names: [String]
  let ids: [Int]
  let reader: KeyPathReader
  let firstName: String
  let firstID: Int

  init?(_ kp: SiftKeyPath, range: SiftSourceRange) {
    var names: [String] = []
    for c in kp.components {
      guard case .key(let k) = c, k != "self" else { return nil }
      names.append(k)
    }
    guard let first = names.first else { return nil }
    self.names = names
    self.reader = KeyPathReader(kp, range: range)
    self.ids = names.map { KeyTable.shared.id(for: $0) }
    self.firstName = first
    self.firstID = ids[0]
  }

  /// `reader.read(ctx.root)`, without retaining a lent record.
  @inline(__always)
  func read(_ ctx: Ctx) throws(EvalFailure) -> EvalValue {
    let first: EvalValue
    switch ctx.ref {
    case .object(let u): first = u.value(id: firstID)
    case .dict(let p): first = EvalValue(p.pointee[firstName])
    case .value(let p): return try read(p.pointee)
    case .none: return try read(EvalValue.null)
    }
    return ids.count == 1 ? first : try rest(first)
  }

  /// `reader.read(frame.value(slot))`, reading a lent SUBQUERY element in place.
  @inline(__always)
  func read(_ frame: FrameRef, slot: Int) throws(EvalFailure) -> EvalValue {
    let first: EvalValue
    switch frame.lent[slot] {
    case .none: return try read(frame.slots[slot])
    case .object(let u): first = u.value(id: firstID)
    case .value(let p):
      guard case .dictionary(let d) = p.pointee else { return try read(EvalValue(p.pointee)) }
      first = EvalValue(d[firstName])
    }
    return ids.count == 1 ? first : try rest(first)
  }

  /// `reader.read(base)`, faster on records and dictionaries.
  @inline(__always)
  func read(_ base: EvalValue) throws(EvalFailure) -> EvalValue {
    let cur: EvalValue
    switch base {
    case .object(let o): cur = o.value(id: firstID)
    case .dict(let d): cur = EvalValue(d[firstName])
    default: return try reader.read(base)
    }
    return ids.count == 1 ? cur : try rest(cur)
  }

  /// Steps after the first, from the first key's value.
  func rest(_ first: EvalValue) throws(EvalFailure) -> EvalValue {
    var cur = first
    var k = 1
    while k < ids.count {
      switch cur {
      case .object(let o): cur = o.value(id: ids[k])
      case .dict(let d): cur = EvalValue(d[names[k]])
      case .null: return .null
      default: return try reader.apply(cur, from: k)
      }
      k &+= 1
    }
    return cur
  }
}

/// `value op constant` with the common cases inline; all others through `PreparedComparison.test`.
struct ConstantTest: Sendable {
  enum Kind: Sendable {
    /// `==`/`!=` a string, no folding.
    case stringEqual(String)
    /// `==`/`!=` a string under `[c]`/`[d]`.
    case foldedEqual(PreparedText)
    /// `==`/`!=` a number or boolean.
    case numberEqual(Number)
    /// `<`, `<=`, `>`, `>=` a number.
    case numberOrder(Number)
    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS` a string (a string subject).
    case text(PreparedText, TextSearch.Position)
    /// `MATCHES` a pattern `SimpleRegex` handles.
    case regex(SimpleRegex)
    case generic
  }

  let kind: Kind
  let negate: Bool
  let op: ComparisonOperator
  let test: PreparedComparison
  let k: EvalValue

  init(_ test: PreparedComparison, _ k: EvalValue) {
    self.test = test
    self.k = k
    op = test.op
    negate = op == .notEqual
    switch (op, k) {
    case (.equal, .string(let s)), (.notEqual, .string(let s)):
      if !test.rule.folds {
        kind = .stringEqual(s)
      } else if let n = test.needle {
        kind = .foldedEqual(n)
      } else {
        kind = .generic
      }
    case (.equal, _), (.notEqual, _):
      if let n = k.number { kind = .numberEqual(n) } else { kind = .generic }
    case (.lessThan, _), (.lessThanOrEqual, _), (.greaterThan, _), (.greaterThanOrEqual, _):
      if let n = k.number { kind = .numberOrder(n) } else { kind = .generic }
    case (.beginsWith, .string), (.endsWith, .string), (.contains, .string):
      if let n = test.needle, let position = TextSearch.Position(op) {
        kind = .text(n, position)
      } else {
        kind = .generic
      }
    case (.matches, .string):
      if let r = test.simpleRegex { kind = .regex(r) } else { kind = .generic }
    default:
      kind = .generic
    }
  }

  /// `test.test(v, k)`.
  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool {
    switch kind {
    case .stringEqual(let s):
      // A non-string never equals a string.
      if case .string(let x) = v { return Bytes.equal(x, s) != negate }
      return negate
    case .foldedEqual(let n):
      if case .string(let x) = v { return test.rule.equal(x, n) != negate }
      return negate
    case .numberEqual(let n):
      // Nil, strings, dates, data and collections never equal a number.
      guard let x = v.number else { return negate }
      return (NumericOrder.compare(x, n) == 0) != negate
    case .numberOrder(let n):
      if let x = v.number, let c = NumericOrder.compare(x, n) {
        switch op {
        case .lessThan: return c < 0
        case .lessThanOrEqual: return c <= 0
        case .greaterThan: return c > 0
        default: return c >= 0
        }
      }
      return try test.test(v, k)
    case .text(let n, let position):
      if case .string(let s) = v { return test.rule.find(n, in: s, position) }
      return try test.test(v, k)
    case .regex(let r):
      if case .string(let s) = v, let answer = r.matches(s) { return answer }
      return try test.test(v, k)
    case .generic:
      return try test.test(v, k)
    }
  }
}
