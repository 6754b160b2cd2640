/// An entity's members by key, for compile-time key-path resolution: a dictionary, fronted by
/// a small open-addressed table keyed by the 16 bytes of a `String` value itself.
///
/// A key of up to 15 UTF-8 bytes (nearly every attribute name) is stored inside its `String`
/// value, so two such keys with the same text have the same bytes, and the table finds the
/// member without hashing the text (Swift's `String` hashing costs several hundred
/// instructions per lookup). The table holds only such inline keys, and a `String` with the
/// same 16 bytes as an inline one is that same text. Any key the table does not find (a
/// longer one, one stored another way, an unknown one) is looked up in the dictionary, so
/// the answer is always the dictionary's.
///
/// ```swift
/// let t = SQLMemberTable(["name": .toOne(target: nil, foreignKey: fk)])
/// t["name"]   // the member
/// ```
struct SQLMemberTable: Sendable {
  typealias Member = SQLEntityRef.Member

  let byKey: [String: Member]
  /// Slot i holds `keyBits[i]` (all zero when empty: no `String` is all zero bits) and its member.
  private let keyBits: [StringBits]
  private let slotMembers: [Member?]
  private let mask: Int

  /// The raw bytes of a `String` value (two words on 64-bit platforms).
  struct StringBits: Sendable, Equatable {
    var a: UInt64 = 0
    var b: UInt64 = 0

    @inline(__always)
    init?(_ s: String) {
      guard MemoryLayout<String>.size == 16 else { return nil }
      (a, b) = withUnsafeBytes(of: s) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    init() {}

    var isEmpty: Bool { a == 0 && b == 0 }

    @inline(__always)
    func slot(_ mask: Int) -> Int {
      let h = (a ^ (b &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
      return Int(truncatingIfNeeded: h >> 32) & mask
    }
  }

  init(_ members: [String: Member]) {
    byKey = members
    var size = 8
    while size < members.count * 2 { size *= 2 }
    var bits = [StringBits](repeating: StringBits(), count: size)
    var slots = [Member?](repeating: nil, count: size)
    for (key, member) in members {
      // A fresh copy of the text: short keys become inline strings, as parsed keys are.
      // Longer ones are left to the dictionary (their bytes name their storage).
      let own = String(decoding: Array(key.utf8), as: UTF8.self)
      guard own.utf8.count <= 15, let k = StringBits(own), !k.isEmpty else { continue }
      var i = k.slot(size - 1)
      while !bits[i].isEmpty { i = (i + 1) & (size - 1) }
      bits[i] = k
      slots[i] = member
    }
    keyBits = bits
    slotMembers = slots
    mask = size - 1
  }

  /// The member named `key`, if any.
  @inline(__always)
  subscript(key: String) -> Member? {
    if let k = StringBits(key) {
      var i = k.slot(mask)
      while true {
        let here = keyBits[i]
        if here == k { return slotMembers[i] }
        if here.isEmpty { break }
        i = (i + 1) & mask
      }
    }
    return byKey[key]
  }
}
