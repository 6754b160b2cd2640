/// Case-insensitive keyword lookup by packed bytes (`Keyword.lookup` packs with
/// `keyword(packing:)`; `lexWord` packs while it scans): a word's upper-cased ASCII bytes,
/// little-endian, in two integers,
/// matched by a `switch` over constants, so a lookup touches no table and no reference count. The constants spell each keyword's raw
/// value; `LexerTests` checks every `Keyword` case round-trips through the lexer.
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

  static func keyword(low: UInt64, high: UInt64) -> Keyword? {
    if high == 0 {
      switch low {
      case 0x4943: return Keyword.ci  // CI
      case 0x4E49: return Keyword.`in`  // IN
      case 0x4F4E: return Keyword.no  // NO
      case 0x524F: return Keyword.or  // OR
      case 0x444E41: return Keyword.and  // AND
      case 0x4C494E: return Keyword.nil_  // NIL
      case 0x4C4C41: return Keyword.all  // ALL
      case 0x534559: return Keyword.yes  // YES
      case 0x544F4E: return Keyword.not  // NOT
      case 0x594E41: return Keyword.any  // ANY
      case 0x454B494C: return Keyword.like  // LIKE
      case 0x454D4F53: return Keyword.some  // SOME
      case 0x454E4F4E: return Keyword.none  // NONE
      case 0x45555254: return Keyword.`true`  // TRUE
      case 0x455A4953: return Keyword.size  // SIZE
      case 0x464C4553: return Keyword.`self`  // SELF
      case 0x4C4C554E: return Keyword.null  // NULL
      case 0x54534143: return Keyword.cast  // CAST
      case 0x5453414C: return Keyword.last  // LAST
      case 0x45534C4146: return Keyword.`false`  // FALSE
      case 0x4843544546: return Keyword.fetch  // FETCH
      case 0x4E4F494E55: return Keyword.union  // UNION
      case 0x53554E494D: return Keyword.minus  // MINUS
      case 0x5453524946: return Keyword.first  // FIRST
      case 0x59454B594E41: return Keyword.anyKey  // ANYKEY
      case 0x4E454557544542: return Keyword.between  // BETWEEN
      case 0x5345484354414D: return Keyword.matches  // MATCHES
      case 0x5952414E524554: return Keyword.ternary  // TERNARY
      case 0x4854495753444E45: return Keyword.endsWith  // ENDSWITH
      case 0x4E4F4954434E5546: return Keyword.function  // FUNCTION
      case 0x534E4941544E4F43: return Keyword.contains  // CONTAINS
      case 0x5952455551425553: return Keyword.subquery  // SUBQUERY
      default: return nil
      }
    }
    switch high {
    case 0x54: return low == 0x4345535245544E49 ? Keyword.intersect : nil  // INTERSECT
    case 0x4854: return low == 0x4957534E49474542 ? Keyword.beginsWith : nil  // BEGINSWITH
    case 0x4554414349: return low == 0x4445525045555254 ? Keyword.truePredicate : nil  // TRUEPREDICATE
    case 0x455441434944: return low == 0x45525045534C4146 ? Keyword.falsePredicate : nil  // FALSEPREDICATE
    case 0x4556495449534E: return low == 0x45534E4945534143 ? Keyword.caseInsensitive : nil  // CASEINSENSITIVE
    default: return nil
    }
  }
}
