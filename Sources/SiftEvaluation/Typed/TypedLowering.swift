import Foundation
import SiftSyntax

/// A test of one element (`TypedElement`).
typealias TypedTest = (TypedElement) -> Bool

/// A test in a box (`chain`).
struct TypedTestBox {
  let run: TypedTest
}

/// Lowers the evaluator's plan (`PredicatePlan`) of a converted `#Predicate` to one Swift test
/// over `Root` values read through the key paths conversion captured (`SiftTypedKeyPaths`), as
/// SiftColumnar lowers it to kernels: `rating >= 3` is a load of `rating` and `>= 3`, no
/// `SiftValue` made. Only where Swift's answer is Sift's: a comparison of one non-optional
/// `Int`, `Bool` (equality), `Date` or `String` attribute (by code point, as Sift compares
/// strings) with a constant of the same kind (constants folded by the plan), no options, no
/// quantifier; AND, OR, NOT and constants of those. Anything else gives nil and the request is
/// evaluated by the evaluator.
struct TypedLowering<Root> {
  /// Stored name → key path of `Root`.
  let keyPaths: [String: AnyKeyPath]

  func predicate(_ p: PredicatePlan) -> TypedTest? {
    switch p {
    case .constant(let b): return { _ in b }
    case .not(let inner):
      guard let f = predicate(inner) else { return nil }
      return { !f($0) }
    case .and(let terms, _): return chain(terms, and: true)
    case .or(let terms, _): return chain(terms, and: false)
    case .comparison(let c): return comparison(c)
    }
  }

  private func chain(_ terms: [PredicatePlan], and: Bool) -> TypedTest? {
    // Boxed: an array of bare closures holds them re-abstracted, and each call out of it goes
    // through a thunk (`perf`, `--suite typed`).
    var fs: [TypedTestBox] = []
    for t in terms {
      guard let f = predicate(t) else { return nil }
      fs.append(TypedTestBox(run: f))
    }
    guard var f = fs.last?.run else { return { _ in and } }
    // Nested two-term closures, short-circuiting left to right (no loop over an array).
    for box in fs.dropLast().reversed() {
      let a = box.run, b = f
      f = and ? { a($0) && b($0) } : { a($0) || b($0) }
    }
    return f
  }

  private func comparison(_ c: ComparisonPlan) -> TypedTest? {
    guard c.node.quantifier == nil, c.node.options.isEmpty else { return nil }
    if let kp = c.leftKeyPath, let k = c.constantRight, let f = test(kp, c.node.op, k) { return f }
    guard let kp = c.rightKeyPath, let k = c.constantLeft, let op = TypedCompare.flipped(c.node.op) else { return nil }
    return test(kp, op, k)
  }

  /// `kp op c` for a key path of one attribute with a key path of a supported type.
  private func test(_ kp: SiftKeyPath, _ op: ComparisonOperator, _ c: SiftValue) -> TypedTest? {
    guard kp.components.count == 1, case .key(let name)? = kp.components.first, let any = keyPaths[name] else {
      return nil
    }
    switch (any, c) {
    case (let k as KeyPath<Root, Int>, .int(let wide)):
      guard let n = Int(exactly: wide) else { return nil }
      if let o = MemoryLayout<Root>.offset(of: k) { return TypedCompare.ordered(at: o, op, n) }
      return TypedCompare.ordered(k, op, n)
    case (let k as KeyPath<Root, Bool>, .bool(let b)):
      guard op == .equal || op == .notEqual else { return nil }
      let want = op == .equal ? b : !b
      if let o = MemoryLayout<Root>.offset(of: k) { return TypedCompare.equal(at: o, want) }
      return { $0.assumingMemoryBound(to: Root.self).pointee[keyPath: k] == want }
    case (let k as KeyPath<Root, Date>, .date(let d)):
      if let o = MemoryLayout<Root>.offset(of: k) { return TypedCompare.ordered(at: o, op, d) }
      return TypedCompare.ordered(k, op, d)
    case (let k as KeyPath<Root, String>, .string(let s)):
      guard let compare = TypedCompare.scalars(op, s) else { return nil }
      if let o = MemoryLayout<Root>.offset(of: k) {
        return { compare(($0 + o).assumingMemoryBound(to: String.self).pointee) }
      }
      return { compare($0.assumingMemoryBound(to: Root.self).pointee[keyPath: k]) }
    default: return nil
    }
  }
}

/// The comparisons `TypedLowering` builds, generic over the attribute's type only (the call
/// sites name it, so each is specialized).
enum TypedCompare {
  /// `value op c` for the `Value` at byte offset `o` of the element.
  @inline(never)
  static func ordered<Value: Comparable>(at o: Int, _ op: ComparisonOperator, _ c: Value) -> TypedTest? {
    switch op {
    case .equal: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee == c }
    case .notEqual: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee != c }
    case .lessThan: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee < c }
    case .lessThanOrEqual: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee <= c }
    case .greaterThan: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee > c }
    case .greaterThanOrEqual: return { ($0 + o).assumingMemoryBound(to: Value.self).pointee >= c }
    default: return nil
    }
  }

  /// The `Bool` at byte offset `o` is `want`.
  @inline(never)
  static func equal(at o: Int, _ want: Bool) -> TypedTest {
    { ($0 + o).assumingMemoryBound(to: Bool.self).pointee == want }
  }

  /// `value op c` for the value the key path reads (no offset: applied to the element).
  @inline(never)
  static func ordered<Root, Value: Comparable>(
    _ k: KeyPath<Root, Value>, _ op: ComparisonOperator, _ c: Value
  ) -> TypedTest? {
    let read = { (e: TypedElement) in e.assumingMemoryBound(to: Root.self).pointee[keyPath: k] }
    switch op {
    case .equal: return { read($0) == c }
    case .notEqual: return { read($0) != c }
    case .lessThan: return { read($0) < c }
    case .lessThanOrEqual: return { read($0) <= c }
    case .greaterThan: return { read($0) > c }
    case .greaterThanOrEqual: return { read($0) >= c }
    default: return nil
    }
  }

  /// A string's comparison with `c` by Unicode scalar (code point), not by Swift's canonical
  /// equivalence, as Sift compares strings.
  static func scalars(_ op: ComparisonOperator, _ c: String) -> ((String) -> Bool)? {
    let cs = c.unicodeScalars
    let less = { (a: String) in a.unicodeScalars.lexicographicallyPrecedes(cs) }
    let greater = { (a: String) in cs.lexicographicallyPrecedes(a.unicodeScalars) }
    let equal = { (a: String) in a.utf8.elementsEqual(c.utf8) }
    switch op {
    case .equal: return equal
    case .notEqual: return { !equal($0) }
    case .lessThan: return less
    case .lessThanOrEqual: return { !greater($0) }
    case .greaterThan: return greater
    case .greaterThanOrEqual: return { !less($0) }
    default: return nil
    }
  }

  /// `op` with its operands swapped (`3 < rating` is `rating > 3`).
  static func flipped(_ op: ComparisonOperator) -> ComparisonOperator? {
    switch op {
    case .equal, .notEqual: return op
    case .lessThan: return .greaterThan
    case .lessThanOrEqual: return .greaterThanOrEqual
    case .greaterThan: return .lessThan
    case .greaterThanOrEqual: return .lessThanOrEqual
    default: return nil
    }
  }
}
