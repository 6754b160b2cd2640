import SiftSyntax

/// A key path split and interned at compile time, read KVC-style:
/// - a key on a record or dictionary reads the entry (missing → nil); on nil or a scalar, nil;
/// - a key on an array maps over the elements (to-many; no implicit ANY), nested arrays too;
/// - `self` is identity;
/// - a collection operator applies to the collection read so far, with the rest of the path
///   as its right-hand key path (`menu.@avg.price`); `@count` counts and the rest of the path
///   (if any) applies to the count.
struct KeyPathReader: Sendable {
  enum Step: Sendable {
    case key(String, Int)
    case identity
    case op(CollectionOperator)
  }

  let steps: [Step]
  /// Index from which every remaining step is a plain key or `self` (no operators).
  let plainFrom: Int
  /// The plain key names when the whole path is plain keys (for `SiftRecord.value(forKeyPath:)`).
  let plainNames: [String]?
  let range: SiftSourceRange

  init(_ kp: SiftKeyPath, range: SiftSourceRange) {
    var steps: [Step] = []
    for c in kp.components {
      switch c {
      case .key("self"): steps.append(.identity)
      case .key(let k): steps.append(.key(k, KeyTable.shared.id(for: k)))
      case .operator(let op): steps.append(.op(op))
      }
    }
    self.steps = steps
    var plainFrom = steps.count
    for i in stride(from: steps.count - 1, through: 0, by: -1) {
      if case .op = steps[i] { break }
      plainFrom = i
    }
    self.plainFrom = plainFrom
    var names: [String] = []
    for c in kp.components {
      guard case .key(let k) = c, k != "self" else { names = []; break }
      names.append(k)
    }
    self.plainNames = names.isEmpty ? nil : names
    self.range = range
  }

  /// Reads the whole path from `base`.
  @inline(__always)
  func read(_ base: EvalValue) throws(EvalFailure) -> EvalValue {
    if case .record(let r) = base, let plainNames {
      return EvalValue(r.record.value(forKeyPath: plainNames))
    }
    return try apply(base, from: 0)
  }

  /// Applies steps `from...` to `value`.
  func apply(_ value: EvalValue, from start: Int) throws(EvalFailure) -> EvalValue {
    var cur = value
    var i = start
    while i < steps.count {
      switch steps[i] {
      case .identity: break
      case .key(let name, let id):
        cur = try KeyPathReader.lookup(cur, name, id, depth: EvalLimits.maxDataDepth, at: range)
      case .op(let op): return try collectionOperator(op, cur, restFrom: i + 1)
      }
      i += 1
    }
    return cur
  }

  /// `value.key`, mapping over arrays.
  @inline(__always)
  static func lookup(_ v: EvalValue, _ name: String, _ id: Int, depth: Int, at r: SiftSourceRange) throws(EvalFailure)
    -> EvalValue
  {
    switch v {
    case .object(let o): return o.value(id: id)
    case .dict(let d): return EvalValue(d[name])
    case .record(let rec): return EvalValue(rec.record.value(forKey: name))
    case .array, .values:
      guard depth > 0 else { throw EvalDiagnostics.dataTooDeep(at: r) }
      guard let l = v.list else { return .null }
      var out: [EvalValue] = []
      out.reserveCapacity(l.count)
      for i in 0..<l.count { out.append(try lookup(l[i], name, id, depth: depth - 1, at: r)) }
      return .array(out)
    default: return .null
    }
  }

  func collectionOperator(_ op: CollectionOperator, _ value: EvalValue, restFrom: Int) throws(EvalFailure) -> EvalValue
  {
    if value.isNull { return .null }
    if op == .count {
      let n: Int
      if let l = value.list {
        n = l.count
      } else if let k = Keyed(value) {
        n = k.count
      } else {
        throw EvalDiagnostics.needsCollection(op.spelling, value, at: range)
      }
      return try apply(.int(Int64(n)), from: restFrom)
    }
    guard let l = value.list else { throw EvalDiagnostics.needsCollection(op.spelling, value, at: range) }
    var mapped: [EvalValue] = []
    mapped.reserveCapacity(l.count)
    for i in 0..<l.count { mapped.append(try apply(l[i], from: restFrom)) }
    let items = EvalList(.converted(mapped))
    switch op {
    case .count: return .int(Int64(l.count))
    case .sum: return try Aggregates.sum(items, at: range)
    case .avg: return try Aggregates.average(items, at: range)
    case .min: return try Aggregates.extreme(items, max: false, at: range)
    case .max: return try Aggregates.extreme(items, max: true, at: range)
    case .unionOfObjects: return .array(mapped.filter { !$0.isNull })
    case .distinctUnionOfObjects: return .array(Aggregates.distinct(mapped))
    case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
      var flat: [EvalValue] = []
      for v in mapped where !v.isNull {
        guard let inner = v.list else { throw EvalDiagnostics.needsCollection(op.spelling, v, at: range) }
        flat.append(contentsOf: inner.elements)
      }
      return .array(op == .unionOfArrays ? flat.filter { !$0.isNull } : Aggregates.distinct(flat))
    }
  }

  /// Visits the elements of the collection this path reads from `base`, without building the
  /// mapped array when the path goes through a to-many step (`menu.item`). Stops and returns
  /// true as soon as `body` does. Nil visits nothing; a non-collection calls `notCollection`.
  func visit(
    _ base: EvalValue, _ body: (EvalValue) throws(EvalFailure) -> Bool,
    notCollection: (EvalValue) throws(EvalFailure) -> Void
  ) throws(EvalFailure) -> Bool {
    var cur = base
    var i = 0
    while i < steps.count {
      if i >= plainFrom, let l = cur.list {
        for j in 0..<l.count {
          if try body(try apply(l[j], from: i)) { return true }
        }
        return false
      }
      switch steps[i] {
      case .identity: break
      case .key(let name, let id):
        cur = try KeyPathReader.lookup(cur, name, id, depth: EvalLimits.maxDataDepth, at: range)
      case .op(let op):
        cur = try collectionOperator(op, cur, restFrom: i + 1)
        i = steps.count
        continue
      }
      i += 1
    }
    return try KeyPathReader.visitElements(cur, body, notCollection: notCollection)
  }

  static func visitElements(
    _ v: EvalValue, _ body: (EvalValue) throws(EvalFailure) -> Bool,
    notCollection: (EvalValue) throws(EvalFailure) -> Void
  ) throws(EvalFailure) -> Bool {
    if v.isNull { return false }
    guard let l = v.list else {
      try notCollection(v)
      return false
    }
    for j in 0..<l.count {
      if try body(l[j]) { return true }
    }
    return false
  }
}
