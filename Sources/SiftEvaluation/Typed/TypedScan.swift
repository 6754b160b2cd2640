import Foundation
import SiftSyntax

/// The positions among `0..<count` (or among `candidates`, ascending, when given) whose
/// element passes a test: a whole array scanned in one call, as SiftColumnar's kernels scan a
/// column, instead of one call per element.
typealias TypedScan = (_ base: TypedElement, _ stride: Int, _ count: Int, _ candidates: [Int]?) -> [Int]

extension TypedLowering {
  /// `p` as a scan: an AND narrows the positions term by term (each term scans only what the
  /// terms before it kept, left to right as the evaluator short-circuits), a comparison of a
  /// stored property is one loop loading it at its offset, and anything else `predicate(_:)`
  /// lowers runs its test per position. Nil when `predicate(_:)` gives nil.
  ///
  /// Measured reason (`--suite typed`, `pinned && rating >= minimum` over 100,000 structs): one
  /// test closure per element, itself calling one closure per term, was most of the fetch
  /// (`perf`: the AND closure and the two comparisons, 206 of 279 samples).
  func scan(_ p: PredicatePlan) -> TypedScan? {
    switch p {
    case .and(let terms, _):
      var scans: [TypedScanBox] = []
      for t in terms {
        guard let s = scan(t) else { return nil }
        scans.append(TypedScanBox(run: s))
      }
      return { base, stride, count, candidates in
        var kept = candidates
        for s in scans {
          kept = s.run(base, stride, count, kept)
          if kept?.isEmpty == true { break }
        }
        return kept ?? Array(0..<count)
      }
    case .comparison(let c):
      if let s = offsetScan(c) { return s }
      fallthrough
    default:
      guard let test = predicate(p) else { return nil }
      return { base, stride, count, candidates in
        TypedScans.filter(base, stride, count, candidates, 0) { (e: TypedElement) in test(e) }
      }
    }
  }

  /// A comparison of a stored `Int`, `Bool` or `Date` property with a constant, as one loop.
  private func offsetScan(_ c: ComparisonPlan) -> TypedScan? {
    guard c.node.quantifier == nil, c.node.options.isEmpty, let kp = c.leftKeyPath, let k = c.constantRight,
      kp.components.count == 1, case .key(let name)? = kp.components.first, let any = keyPaths[name]
    else { return nil }
    switch (any, k) {
    case (let p as KeyPath<Root, Int>, .int(let wide)):
      guard let o = MemoryLayout<Root>.offset(of: p), let n = Int(exactly: wide) else { return nil }
      return TypedScans.ordered(at: o, c.node.op, n)
    case (let p as KeyPath<Root, Bool>, .bool(let b)):
      guard let o = MemoryLayout<Root>.offset(of: p), c.node.op == .equal || c.node.op == .notEqual else { return nil }
      return TypedScans.equal(at: o, c.node.op == .equal ? b : !b)
    case (let p as KeyPath<Root, Date>, .date(let d)):
      guard let o = MemoryLayout<Root>.offset(of: p) else { return nil }
      return TypedScans.ordered(at: o, c.node.op, d)
    default: return nil
    }
  }
}

/// A scan in a box (an array of bare closures holds them re-abstracted behind thunks).
struct TypedScanBox {
  let run: TypedScan
}

/// The loops of `TypedScan`s, generic over the property's type only (the call sites name it,
/// so each is specialized, the comparison inlined into the loop).
enum TypedScans {
  /// `value op c` for the `Value` at byte offset `o`, as a scan.
  @inline(never)
  static func ordered<Value: Comparable>(at o: Int, _ op: ComparisonOperator, _ c: Value) -> TypedScan? {
    func at(_ e: TypedElement) -> Value { e.assumingMemoryBound(to: Value.self).pointee }
    switch op {
    case .equal: return { b, s, n, k in filter(b, s, n, k, o) { at($0) == c } }
    case .notEqual: return { b, s, n, k in filter(b, s, n, k, o) { at($0) != c } }
    case .lessThan: return { b, s, n, k in filter(b, s, n, k, o) { at($0) < c } }
    case .lessThanOrEqual: return { b, s, n, k in filter(b, s, n, k, o) { at($0) <= c } }
    case .greaterThan: return { b, s, n, k in filter(b, s, n, k, o) { at($0) > c } }
    case .greaterThanOrEqual: return { b, s, n, k in filter(b, s, n, k, o) { at($0) >= c } }
    default: return nil
    }
  }

  /// The `Bool` at byte offset `o` is `want`, as a scan.
  @inline(never)
  static func equal(at o: Int, _ want: Bool) -> TypedScan {
    { b, s, n, k in filter(b, s, n, k, o) { $0.assumingMemoryBound(to: Bool.self).pointee == want } }
  }

  /// The positions whose element (at `base + i * stride + offset`) passes `keep`.
  @inline(__always)
  static func filter(
    _ base: TypedElement, _ stride: Int, _ count: Int, _ candidates: [Int]?, _ offset: Int,
    _ keep: (TypedElement) -> Bool
  ) -> [Int] {
    var out: [Int] = []
    let start = base + offset
    if let candidates {
      out.reserveCapacity(candidates.count)
      for i in candidates where keep(start + i * stride) { out.append(i) }
    } else {
      for i in 0..<count where keep(start + i * stride) { out.append(i) }
    }
    return out
  }
}
