import SiftSyntax

// `value op constant` as `Specializer` builds it: `ConstantTest` with the common cases inline,
// and one concrete type per comparison kind, so that the closures built from them
// (`KeyPathClosures.swift`) are specialized per kind: no switch on the kind per record, and the
// test inlined where the value is read. Each one is exactly `ConstantTest.run` for its kind,
// and hands every input it does not decide inline (and so every error) to `ConstantTest`, which
// hands what it does not decide to `PreparedComparison.test` — the generic code.

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
    /// `MATCHES` a pattern `RegexPattern.quickMatch` decides.
    case regex(RegexPattern)
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
      if test.quickRegex, let r = test.regex { kind = .regex(r) } else { kind = .generic }
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
      if case .string(let s) = v, let answer = r.quickMatch(s) { return answer }
      return try test.test(v, k)
    case .generic:
      return try test.test(v, k)
    }
  }
}

/// A compiled `value op constant`.
protocol ValueTest: Sendable {
  /// `ConstantTest.run(v)`.
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool
  /// `run(EvalValue(v))` for a dictionary entry (nil: missing), without converting it.
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool
}

/// `==`/`!=` a string, no folding: equal UTF-8 bytes.
struct StringEqualTest: ValueTest {
  let needle: String
  let count: Int
  let negate: Bool

  init(_ s: String, negate: Bool) {
    needle = s
    count = s.utf8.count
    self.negate = negate
  }

  @inline(__always)
  func equal(_ x: String) -> Bool { x.utf8.count == count && Bytes.equal(x, needle) }

  @inline(__always)
  func run(_ v: EvalValue) -> Bool {
    if case .string(let x) = v { return equal(x) != negate }
    return negate
  }

  @inline(__always)
  func run(entry v: SiftValue?) -> Bool {
    if case .string(let x)? = v { return equal(x) != negate }
    return negate
  }
}

/// `==`/`!=` a number (booleans are 1/0): nothing but a number equals it.
struct NumberEqualTest: ValueTest {
  let n: Number
  let negate: Bool

  @inline(__always)
  func run(_ v: EvalValue) -> Bool {
    guard let x = v.number else { return negate }
    return (NumericOrder.compare(x, n) == 0) != negate
  }

  @inline(__always)
  func run(entry v: SiftValue?) -> Bool {
    switch v {
    case .int(let i)?: return (NumericOrder.compare(.int(i), n) == 0) != negate
    case .double(let d)?: return (NumericOrder.compare(.double(d), n) == 0) != negate
    case .bool(let b)?: return (NumericOrder.compare(.int(b ? 1 : 0), n) == 0) != negate
    default: return negate
    }
  }
}

/// `<`, `<=`, `>`, `>=` a number; non-numbers (nil, errors, NaN) through `ConstantTest`.
struct NumberOrderTest: ValueTest {
  let n: Number
  let op: ComparisonOperator
  let ct: ConstantFallback

  /// The integer constant as a double when that is exact (|n| ≤ 2^53), so a double subject
  /// compares with one double comparison — the exact order, as `NumericOrder` gives.
  let exactDouble: Double?

  init(n: Number, ct: ConstantTest) {
    self.n = n
    op = ct.op
    self.ct = ConstantFallback(ct)
    exactDouble = NumberOrderTest.exactDouble(n)
  }

  static func exactDouble(_ n: Number) -> Double? {
    guard case .int(let i) = n, i.magnitude <= 1 << 53 else { return nil }
    return Double(i)
  }

  @inline(__always)
  func compare(_ x: Number) -> Int? {
    if case .double(let d) = x, let e = exactDouble {
      if d.isNaN { return nil }
      return d < e ? -1 : (d == e ? 0 : 1)
    }
    return NumericOrder.compare(x, n)
  }

  @inline(__always)
  func decide(_ x: Number) -> Bool? {
    guard let c = compare(x) else { return nil }
    switch op {
    case .lessThan: return c < 0
    case .lessThanOrEqual: return c <= 0
    case .greaterThan: return c > 0
    default: return c >= 0
    }
  }

  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool {
    if let x = v.number, let answer = decide(x) { return answer }
    return try ct.run(v)
  }

  @inline(__always)
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool {
    switch v {
    case .int(let i)?: if let answer = decide(.int(i)) { return answer }
    case .double(let d)?: if let answer = decide(.double(d)) { return answer }
    default: break
    }
    return try ct.run(EvalValue(v))
  }
}

/// Two tests on the same value, both must pass (the second runs only when the first does).
struct BothTest<A: ValueTest, B: ValueTest>: ValueTest {
  let a: A
  let b: B

  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool {
    if try !a.run(v) { return false }
    return try b.run(v)
  }

  @inline(__always)
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool {
    if try !a.run(entry: v) { return false }
    return try b.run(entry: v)
  }
}

/// `BEGINSWITH` an ASCII needle under `[c]`/`[d]`: decided from the subject's first bytes
/// when `Bytes.asciiPrefix` can (exact), else by `ConstantTest`.
struct ASCIIPrefixTest: ValueTest {
  let needle: [UInt8]
  let caseless: Bool
  let ct: ConstantFallback

  @inline(__always)
  func prefix(_ s: String) -> Bool? {
    needle.withUnsafeBufferPointer { n in Bytes.asciiPrefix(n, of: s, caseless: caseless) }
  }

  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool {
    if case .string(let s) = v, let answer = prefix(s) { return answer }
    return try ct.run(v)
  }

  @inline(__always)
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool {
    if case .string(let s)? = v, let answer = prefix(s) { return answer }
    return try ct.run(EvalValue(v))
  }
}

/// `MATCHES` a pattern `RegexPattern.quickMatch` decides; other subjects (longer ones, and
/// non-strings) through `ConstantTest`.
struct RegexTest: ValueTest {
  let regex: RegexPattern
  let ct: ConstantFallback

  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool {
    if case .string(let s) = v, let answer = regex.quickMatch(s) { return answer }
    return try ct.run(v)
  }

  @inline(__always)
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool {
    if case .string(let s)? = v, let answer = regex.quickMatch(s) { return answer }
    return try ct.run(EvalValue(v))
  }
}

/// Any other kind: `ConstantTest.run` itself.
struct AnyConstantTest: ValueTest {
  let ct: ConstantFallback

  @inline(__always)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool { try ct.run(v) }

  @inline(__always)
  func run(entry v: SiftValue?) throws(EvalFailure) -> Bool { try ct.run(EvalValue(v)) }
}

/// Something that builds a predicate from a `ValueTest` of any concrete type (Swift has no
/// generic closures; this is one). The result is a concrete `PredicateFn` (an associated type
/// would pass it through reabstraction thunks on every call).
protocol ValueTestConsumer {
  func consume<T: ValueTest>(_ t: T) -> PredicateFn
}

/// A `ConstantTest` held by reference, so that the small `ValueTest`s that fall back to it
/// stay small (closures capture them by value).
final class ConstantFallback: Sendable {
  let ct: ConstantTest
  init(_ ct: ConstantTest) { self.ct = ct }

  /// `ct.run(v)`, kept out of line: it is the rare path.
  @inline(never)
  func run(_ v: EvalValue) throws(EvalFailure) -> Bool { try ct.run(v) }
}

extension ConstantTest {
  /// Calls `c` with this test as its most specific `ValueTest`.
  func specialized<C: ValueTestConsumer>(_ c: C) -> PredicateFn {
    switch kind {
    case .stringEqual(let s): return c.consume(StringEqualTest(s, negate: negate))
    case .numberEqual(let n): return c.consume(NumberEqualTest(n: n, negate: negate))
    case .numberOrder(let n): return c.consume(NumberOrderTest(n: n, ct: self))
    case .text(let n, .prefix) where n.isASCII && test.rule.folds && !n.folded.utf8.isEmpty:
      return c.consume(
        ASCIIPrefixTest(needle: Array(n.folded.utf8), caseless: test.rule.caseless, ct: ConstantFallback(self)))
    case .regex(let r): return c.consume(RegexTest(regex: r, ct: ConstantFallback(self)))
    default: return c.consume(AnyConstantTest(ct: ConstantFallback(self)))
    }
  }

  /// Calls `c` with `self` and `other` fused into one `ValueTest` (both must pass, in order).
  /// Only pairs of numeric orderings (a range) get their own type; others run as
  /// `ConstantTest`s.
  func specialized<C: ValueTestConsumer>(and other: ConstantTest, _ c: C) -> PredicateFn {
    if case .numberOrder(let a) = kind, case .numberOrder(let b) = other.kind {
      return c.consume(BothTest(a: NumberOrderTest(n: a, ct: self), b: NumberOrderTest(n: b, ct: other)))
    }
    let a = AnyConstantTest(ct: ConstantFallback(self)), b = AnyConstantTest(ct: ConstantFallback(other))
    return c.consume(BothTest(a: a, b: b))
  }
}

/// Something that builds a predicate from two `ValueTest`s of any concrete types.
protocol ValueTestPairConsumer {
  func consume<A: ValueTest, B: ValueTest>(_ a: A, _ b: B) -> PredicateFn
}

extension ConstantTest {
  /// Calls `c` with this test and `other`, each as its most specific `ValueTest`.
  func specialized<C: ValueTestPairConsumer>(pair other: ConstantTest, _ c: C) -> PredicateFn {
    specialized(PairFirst(other: other, c: c))
  }
}

private struct PairFirst<C: ValueTestPairConsumer>: ValueTestConsumer {
  let other: ConstantTest
  let c: C
  func consume<A: ValueTest>(_ a: A) -> PredicateFn { other.specialized(PairSecond(a: a, c: c)) }
}

private struct PairSecond<A: ValueTest, C: ValueTestPairConsumer>: ValueTestConsumer {
  let a: A
  let c: C
  func consume<B: ValueTest>(_ b: B) -> PredicateFn { c.consume(a, b) }
}
