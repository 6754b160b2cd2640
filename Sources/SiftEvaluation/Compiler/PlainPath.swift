import SiftSyntax

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
