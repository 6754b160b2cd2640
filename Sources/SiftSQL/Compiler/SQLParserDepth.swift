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
    estimate(SQLFragment(sql: sql))
  }

  /// The estimated peak parser stack for the statement `sql` finishes to: each placeholder is
  /// one token, wherever the dialect's placeholder text would go.
  static func estimate(_ sql: SQLFragment) -> Int {
    let s = sql.utf8
    var placeholders = sql.bindings.lazy.map(\.offset).makeIterator()
    var nextPlaceholder = placeholders.next()
    // Per open level, the tokens its level held when the next one opened; the innermost
    // level's count is `top`. More than `maxLevels` open levels is over any limit.
    var outer: [Int] = []
    var top = 0
    var sum = 0  // what the open outer levels hold, each with its slack
    var peak = 0
    var joined = false  // the previous byte was the `.` of `t0."name"`
    var i = 0
    while i < s.count || nextPlaceholder != nil {
      if let p = nextPlaceholder, p <= i {
        // A placeholder: one token (the text continues at `i`).
        nextPlaceholder = placeholders.next()
        joined = false
        top += 1
        peak = max(peak, sum + top + slack)
        continue
      }
      let b = s[i]
      let start = i
      i += 1
      var counted = 0  // tokens this byte (or word) adds to the innermost level
      var nesting = 0  // 1: a level opens here, -1: the innermost level closes
      switch b {
      case 0x20, 0x0A, 0x09, 0x0D: continue
      case 0x28: nesting = 1  // (
      case 0x29: nesting = -1  // )
      case 0x2C: top = 0; counted = 1  // , (the list so far is one symbol)
      case 0x2E: joined = true; continue  // . of a qualified name: one symbol with its parts
      case 0x22, 0x27:  // "identifier" or 'text', doubled quotes inside
        i = afterQuoted(s, from: i, quote: b)
        if !joined { counted = 1 }
      case _ where isWordByte(b):
        while i < s.count, isWordByte(s[i]) { i += 1 }
        switch keyword(s[start..<i]) {
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
        counted = 1  // an operator, punctuation or placeholder byte: once per byte, an over-count
      }
      joined = false
      if nesting > 0 {
        // The opening token counts at the outer level, which keeps its count while the new
        // level is open.
        top += 1
        peak = max(peak, sum + top + slack)
        sum += top + slack
        guard outer.count < maxLevels else { return maxLevels * (1 + slack) }
        outer.append(top)
        top = 0
      } else if nesting < 0 {
        if let enclosing = outer.popLast() {
          top = enclosing
          sum -= top + slack
        }
      } else if counted > 0 {
        top += counted
        peak = max(peak, sum + top + slack)
      }
    }
    return peak
  }

  static let maxLevels = 64

  /// The position after the quote that closes a quoted name or text whose contents start at
  /// `i` (a doubled quote inside is part of it), or the end.
  static func afterQuoted(_ s: [UInt8], from i: Int, quote: UInt8) -> Int {
    var i = i
    while i < s.count {
      if s[i] == quote {
        if i + 1 < s.count, s[i + 1] == quote { i += 2; continue }
        return i + 1
      }
      i += 1
    }
    return s.count
  }

  /// Stack entries a level holds beyond its counted tokens while a nested level is open.
  static let slack = 2

  /// Letters, digits, `_`, `$` and every byte of a non-ASCII character.
  static func isWordByte(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
      return true
    default:
      return false
    }
  }

  enum Keyword { case boundary, caseBoundary, open, close, select, none }

  /// `AND`/`OR` (the parser has reduced the operand before them), `CASE`…`END` (nest like
  /// parentheses), `WHEN`/`ELSE` (SQLite's `case_exprlist` is left-recursive: the clauses
  /// before reduce to one symbol, held with the empty `case_operand`: at most 2 entries; THEN
  /// does not reduce), `SELECT`, and the compound operators `UNION`, `INTERSECT`, `EXCEPT`
  /// (boundaries, like AND/OR), in any case.
  static func keyword(_ word: ArraySlice<UInt8>) -> Keyword {
    guard word.count >= 2 && word.count <= 9, let first = word.first else { return .none }
    // Only the keyword of this length and first letter can match (most words are names).
    for (spelling, keyword) in keywordBytes
    where spelling.count == word.count && spelling.first == first & 0xDF
      && zip(word, spelling).allSatisfy({ $0 & 0xDF == $1 })
    {
      return keyword
    }
    return .none
  }

  /// `keywords` as bytes, compared without decoding a `String` per word.
  static let keywordBytes: [([UInt8], Keyword)] = keywords.map { (Array($0.0.utf8), $0.1) }

  static let keywords: [(String, Keyword)] = [
    ("AND", .boundary), ("OR", .boundary), ("CASE", .open), ("WHEN", .caseBoundary), ("ELSE", .caseBoundary),
    ("END", .close), ("SELECT", .select),
    // A compound's members reduce as they go (`selectnowith` is left-recursive), as AND/OR do.
    ("UNION", .boundary), ("INTERSECT", .boundary), ("EXCEPT", .boundary),
  ]
}

extension SQLCompilation {
  /// Compiles a statement's WHERE predicate and checks it against the parser stack limit.
  /// The root entity's row filter comes first (`SQLRowFilter`).
  mutating func checkedWhere(_ p: PredicateNode) throws(SiftError) -> SQLExpr {
    var w = try predicate(p, positive: true)
    if let filter = rowFilter(root, .root) { w = and([filter, w]) }
    try checkParserDepth(w, p.range)
    return w
  }

  /// A statement's whole WHERE condition: the root entity's row filter and `p` (checked as
  /// `checkedWhere`), or nil when every row of the table qualifies.
  mutating func whereClause(_ p: PredicateNode?) throws(SiftError) -> SQLExpr? {
    guard let p else { return rowFilter(root, .root) }
    let w = try checkedWhere(p)
    return w.shape == .alwaysTrue ? nil : w
  }

  /// Refuses a compiled WHERE fragment whose SQL would overflow the dialect's parser stack
  /// (see `SQLParserDepth`); the error points at the whole predicate.
  func checkParserDepth(_ w: SQLExpr, _ range: SiftSourceRange) throws(SiftError) {
    guard let limit = dialect.parserStackLimit else { return }
    let depth = SQLParserDepth.estimate(w.sql)
    guard depth > limit else { return }
    throw fail(.tooDeepForParser(dialect.name, depth: depth, limit: limit), range)
  }
}
