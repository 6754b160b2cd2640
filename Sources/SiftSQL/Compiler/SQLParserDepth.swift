import Foundation
import SiftSyntax

/// A conservative estimate of how deep a database's SQL parser must stack to read a fragment.
///
/// SQLite's LALR parser has a fixed stack (`YYSTACKDEPTH`, 100 entries in the builds Debian
/// ships; 3.46+ grows it), so a predicate that is fine for Sift — 46 nested negations, 12 nested
/// SUBQUERYs — can compile to SQL that SQLite refuses with "parser stack overflow". The compiler
/// checks the estimate against `SQLDialect.parserStackLimit` and refuses the predicate itself
/// (`too-deep-for-sql`), so every statement it returns prepares.
///
/// The model, per level (parentheses and `CASE`…`END`): the entries a level holds while a
/// nested level is open are at most the tokens since its last `,` `AND` `OR` (where the
/// parser has reduced what came before to one symbol), plus 2 of slack; a qualified name
/// `t0."x"` is one token and `SELECT` four (its empty optional clauses). The estimate is the
/// largest sum over the open levels. It over-counts on purpose, checked against SQLite by
/// ParserDepthTests and the SQL fuzz target: nested negations are refused at 20 levels where
/// SQLite takes 46, nested SUBQUERYs at 5 where it takes about 8.
///
/// ```swift
/// SQLParserDepth.estimate("(- (- ?))")   // 11: two open levels of 2 tokens and 2 slack each, 2 inside and 1 slack
/// ```
enum SQLParserDepth {
  /// The estimated peak parser stack for `sql`.
  static func estimate(_ sql: String) -> Int {
    var sql = sql
    return sql.withUTF8 { estimate(bytes: $0) }
  }

  static func estimate(bytes s: UnsafeBufferPointer<UInt8>) -> Int {
    // Tokens since the last boundary, per open level, on the stack: more than `maxLevels`
    // open levels is over any limit (each holds at least 1 + slack entries).
    withUnsafeTemporaryAllocation(of: Int.self, capacity: maxLevels) { buffer in
      estimate(bytes: s, levels: Levels(buffer))
    }
  }

  static let maxLevels = 64

  /// A fixed-capacity stack of per-level token counts; pushing past capacity is refused.
  struct Levels {
    let storage: UnsafeMutableBufferPointer<Int>
    var count = 1
    init(_ storage: UnsafeMutableBufferPointer<Int>) {
      self.storage = storage
      storage[0] = 0
    }
    subscript(i: Int) -> Int {
      get { storage[i] }
      set { storage[i] = newValue }
    }
    mutating func append(_ v: Int) -> Bool {
      guard count < storage.count else { return false }
      storage[count] = v
      count += 1
      return true
    }
    mutating func removeLast() { count -= 1 }
  }

  static func estimate(bytes s: UnsafeBufferPointer<UInt8>, levels: Levels) -> Int {
    // `levels` holds the counts of the enclosing levels as they were when each nested level
    // opened; the innermost level's count is `top`.
    var levels = levels
    var top = 0
    var sum = 0  // what the open outer levels hold, each with its slack
    var peak = 0
    var joined = false  // the previous byte was the `.` of `t0."name"`
    var i = 0
    let n = s.count
    while i < n {
      let b = s[i]
      let start = i
      i += 1
      var counted = 0  // tokens this byte (or word) adds to the innermost level
      var nesting = 0  // 1: a level opens here, -1: the innermost level closes
      switch b {
      case 0x20, 0x0A, 0x09, 0x0D, 0x02: continue  // 0x02: the raises mark, not SQL
      case 0x01:  // a placeholder in an SQLBuffer: the marker and four bytes of its index
        i = min(i + SQLBuffer.placeholderLength - 1, n)
        counted = 1
      case 0x28: nesting = 1  // (
      case 0x29: nesting = -1  // )
      case 0x2C: top = 0; counted = 1  // , (the list so far is one symbol)
      case 0x2E: joined = true; continue  // . of a qualified name: one symbol with its parts
      case 0x22, 0x27:  // "identifier" or 'text', doubled quotes inside
        i = afterQuoted(s, from: i, quote: b)
        if !joined { counted = 1 }
      case _ where isWordByte(b):
        while i < n, isWordByte(s[i]) { i += 1 }
        switch keyword(s, start, i) {
        case .boundary: top = 0; counted = 1
        case .caseBoundary:  // the first WHEN right after CASE counts as an ordinary token
          if top > 2 { top = 2 }
          counted = 1
        case .open: nesting = 1
        case .close: nesting = -1
        case .select: counted = 4  // SELECT and its empty optional clauses
        case .none: if !joined { counted = 1 }
        }
      default:
        counted = 1  // an operator or punctuation byte: counted once per byte, an over-count
      }
      joined = false
      if nesting > 0 {
        // The opening token counts at the outer level, which keeps its count while the new
        // level is open.
        top += 1
        peak = max(peak, sum + top + slack)
        sum += top + slack
        levels[levels.count - 1] = top
        guard levels.append(0) else { return maxLevels * (1 + slack) }
        top = 0
      } else if nesting < 0 {
        if levels.count > 1 {
          levels.removeLast()
          top = levels[levels.count - 1]
          sum -= top + slack
        }
      } else if counted > 0 {
        top += counted
        peak = max(peak, sum + top + slack)
      }
    }
    return peak
  }

  /// A cheaper upper bound of `estimate(bytes:)`, for skipping it: the tokens the estimate
  /// could count (every word, quoted name, placeholder and other byte once, a six-letter word
  /// such as SELECT four times; it counts qualified names once and resets at `,` AND OR),
  /// plus the slack of every level that could be open (each `(`, each four-letter word
  /// starting with C such as CASE) and of the innermost. The levels' counts the estimate sums
  /// are each at most the tokens counted since they opened.
  static func bound(_ s: UnsafeBufferPointer<UInt8>) -> Int {
    var tokens = 0
    var opens = 0
    var i = 0
    let n = s.count
    while i < n {
      let b = s[i]
      switch b {
      case 0x20, 0x0A, 0x09, 0x0D, 0x02:
        i += 1
      case 0x01:
        tokens += 1
        i += SQLBuffer.placeholderLength
      case 0x22, 0x27:
        tokens += 1
        i = afterQuoted(s, from: i + 1, quote: b)
      case _ where isWordByte(b):
        let start = i
        i += 1
        while i < n, isWordByte(s[i]) { i += 1 }
        let length = i - start
        tokens += length == 6 ? 4 : 1
        if length == 4, b | 0x20 == 0x63 { opens += 1 }
      default:
        if b == 0x28 { opens += 1 }
        tokens += 1
        i += 1
      }
    }
    return tokens + slack * (opens + 1)
  }

  /// The position after the quote that closes a quoted name or text whose contents start at
  /// `i` (a doubled quote inside is part of it), or the end.
  static func afterQuoted(_ s: UnsafeBufferPointer<UInt8>, from i: Int, quote: UInt8) -> Int {
    guard let base = s.baseAddress else { return s.count }
    var i = i
    while i < s.count {
      guard let q = memchr(base + i, Int32(quote), s.count - i) else { return s.count }
      i = base.distance(to: q.assumingMemoryBound(to: UInt8.self))
      if i + 1 < s.count, s[i + 1] == quote { i += 2; continue }
      return i + 1
    }
    return s.count
  }

  /// Stack entries a level holds beyond its counted tokens while a nested level is open.
  static let slack = 2

  /// Letters, digits, `_`, `$` and every byte of a non-ASCII character (one bit each).
  @inline(__always)
  static func isWordByte(_ b: UInt8) -> Bool {
    if b >= 0x80 { return true }
    let mask: UInt64 = b < 0x40 ? 0x03FF_0010_0000_0000 : 0x07FF_FFFE_87FF_FFFE
    return (mask >> UInt64(b & 63)) & 1 != 0
  }

  enum Keyword { case boundary, caseBoundary, open, close, select, none }

  /// `AND`/`OR` (the parser has reduced the operand before them), `CASE`…`END` (nest like
  /// parentheses), `WHEN`/`ELSE` (SQLite's `case_exprlist` is left-recursive: the clauses
  /// before reduce to one symbol, held with the empty `case_operand`: at most 2 entries; THEN
  /// does not reduce) and `SELECT`, in any case.
  static func keyword(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword {
    let n = end - start
    guard n >= 2 && n <= 6 else { return .none }
    switch s[start] | 0x20 {
    case 0x61, 0x6F, 0x63, 0x77, 0x65, 0x73: break  // a o c w e s: the keywords' first letters
    default: return .none
    }
    var word: UInt64 = 0
    for k in start..<end { word = word << 8 | UInt64(s[k] & 0xDF) }
    switch word {
    case 0x41_4E44, 0x4F52: return .boundary  // AND OR
    case 0x4341_5345: return .open  // CASE
    case 0x5748_454E, 0x454C_5345: return .caseBoundary  // WHEN ELSE
    case 0x45_4E44: return .close  // END
    case 0x53_454C_4543_54: return .select  // SELECT
    default: return .none
    }
  }
}

extension SQLCompilation {
  /// Compiles a statement's WHERE predicate and checks it against the parser stack limit.
  mutating func checkedWhere(_ p: PredicateNode) throws(SiftError) -> SQLExpr {
    let w = try predicate(p, positive: true)
    try checkParserDepth(w, p.range)
    return w
  }

  /// Refuses a compiled WHERE fragment whose SQL would overflow the dialect's parser stack
  /// (see `SQLParserDepth`); the error points at the whole predicate.
  func checkParserDepth(_ w: SQLExpr, _ range: SourceRange) throws(SiftError) {
    guard let limit = dialect.parserStackLimit else { return }
    let depth = out.withBytes(w.sql) { bytes in
      SQLParserDepth.bound(bytes) <= limit ? 0 : SQLParserDepth.estimate(bytes: bytes)
    }
    guard depth > limit else { return }
    throw fail(
      "too-deep-for-sql",
      "this predicate nests too deeply for \(dialect.name)'s SQL parser (estimated depth \(depth), limit \(limit)); "
        + "flatten nested parentheses, negations or SUBQUERYs", range)
  }
}
