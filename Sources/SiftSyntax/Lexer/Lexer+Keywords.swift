/// Case-insensitive keyword lookup by packed bytes (`Keyword.lookup` packs with
/// `keyword(packing:)`; `lexWord` packs while it scans): a word's upper-cased ASCII bytes,
/// little-endian, bytes 0–7 in `low` and 8–15 in `high`, looked up in `KeywordTable`, which is
/// derived from `Keyword`'s raw values (the spellings), so no constant is written twice.
/// `LexerTests` checks every `Keyword` case round-trips through the lexer.
extension Lexer {
  /// The keyword `word` spells in any case (hyphenated UTI words excepted), or nil: its
  /// upper-cased ASCII bytes packed little-endian into two integers, then matched.
  static func keyword(packing word: UnsafeBufferPointer<UInt8>) -> Keyword? {
    guard word.count >= 2, word.count <= 16 else { return nil }
    var low: UInt64 = 0
    var high: UInt64 = 0
    for b in word.reversed() {  // last byte first, so each byte shifts in at the bottom
      guard b < 0x80 else { return nil }
      let up = UInt64(b &- 0x61 < 26 ? b &- 0x20 : b)
      high = high &<< 8 | low &>> 56
      low = low &<< 8 | up
    }
    return keyword(low: low, high: high)
  }

  /// The keyword whose packed spelling is `low`/`high`, or nil (the lexer reads its own copy
  /// of the table instead).
  static func keyword(low: UInt64, high: UInt64) -> Keyword? {
    KeywordTable.shared.keyword(low: low, high: high)
  }
}

/// Every keyword spelled without a hyphen, packed as the lexer packs a word, in an open-addressed
/// table of 128 slots (linear probing; 41 keywords, so most lookups read one slot). Built once from
/// `Keyword.allCases`: adding a keyword is adding its case.
struct KeywordTable: Sendable {
  /// One slot: a packed spelling and its keyword, or an empty slot (`keyword == nil`).
  struct Slot: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var keyword: Keyword?
  }

  static let shared = KeywordTable()
  static let bits: UInt64 = 7

  private var slots: [Slot]

  init() {
    let mask = (1 << Int(Self.bits)) - 1
    slots = Array(repeating: Slot(), count: mask + 1)
    for keyword in Keyword.allCases where !keyword.rawValue.utf8.contains(UInt8(ascii: "-")) {
      let (low, high) = Self.pack(keyword.rawValue)
      var i = Self.slot(low: low, high: high)
      while slots[i].keyword != nil { i = (i + 1) & mask }
      slots[i] = Slot(low: low, high: high, keyword: keyword)
    }
  }

  /// An upper-case ASCII spelling packed little-endian: bytes 0–7 in `low`, 8–15 in `high`.
  static func pack(_ spelling: String) -> (low: UInt64, high: UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for (i, b) in spelling.utf8.prefix(16).enumerated() {
      if i < 8 { low |= UInt64(b) << (8 * i) } else { high |= UInt64(b) << (8 * (i - 8)) }
    }
    return (low, high)
  }

  /// The home slot of a packed word: a multiply-shift hash of both halves.
  @inline(__always)
  static func slot(low: UInt64, high: UInt64) -> Int {
    Int(truncatingIfNeeded: ((low ^ (high &* 0x0000_0100_0000_01B3)) &* 0x9E37_79B9_7F4A_7C15) &>> (64 - bits))
  }

  /// The keyword whose packed spelling is `low`/`high`, or nil.
  @inline(__always)
  func keyword(low: UInt64, high: UInt64) -> Keyword? {
    let mask = slots.count - 1
    var i = Self.slot(low: low, high: high)
    while true {
      let s = slots[i]
      guard let keyword = s.keyword else { return nil }
      if s.low == low, s.high == high { return keyword }
      i = (i + 1) & mask
    }
  }
}
