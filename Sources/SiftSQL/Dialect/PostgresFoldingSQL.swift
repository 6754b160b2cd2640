import Foundation
import SiftSyntax

/// The PostgreSQL text of `sift_fold(s text, opts integer)` (`opts`: a `TextFoldCode`), generated from the
/// `PostgresFoldingTable`s: a PL/pgSQL function that runs the table model step by step, each
/// step guarded by a cheap regular-expression test so text without the scalars it concerns
/// pays nothing for it. ASCII text is lower-cased (or kept) without further work.
///
/// ```swift
/// PostgresFoldingSQL.function(schema: "sift").hasPrefix("CREATE OR REPLACE FUNCTION sift.sift_fold")   // true
/// ```
enum PostgresFoldingSQL {
  /// `CREATE OR REPLACE FUNCTION <schema>.sift_fold …` (idempotent; about 40 KB of data);
  /// `schema` is written as it is (quoted already where it must be).
  static func function(schema: String) -> String {
    "CREATE OR REPLACE FUNCTION " + schema + "." + body
  }

  /// `sift_fold(s text, opts integer) …`, the function without its `CREATE` line's start.
  static let body: String = {
    // The `opts` bits are `TextFoldCode`'s wire encoding, the same the SQLite functions read.
    let mask = TextFoldCode.mask, c = TextFoldCode.caseInsensitive.sql, d = TextFoldCode.diacriticInsensitive.sql
    var sql = """
      sift_fold(s text, opts integer) RETURNS text
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $sift$
      DECLARE t text := s;
      BEGIN
        IF opts & \(mask) = 0 THEN RETURN s; END IF;
        IF octet_length(s) = char_length(s) THEN
          IF opts & \(c) = \(c) THEN RETURN translate(s, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'); END IF;
          RETURN s;
        END IF;

      """
    sql += "  IF opts & \(mask) = \(c) THEN\n" + steps(.caseFold)
    sql += "  ELSIF opts & \(mask) = \(d) THEN\n" + steps(.diacriticFold)
    sql += "  ELSE\n" + steps(.bothFold)
    sql += "  END IF;\n  RETURN normalize(t, NFC);\nEND\n$sift$"
    return sql
  }()

  /// Ranges of source scalars translated together, each behind its own range test.
  static let chunks: [ClosedRange<UInt32>] = [
    0x01...0x7F, 0x80...0x24F, 0x250...0x52F, 0x530...0x1FFF, 0x2000...0xFFFF, 0x10000...0x10FFFF,
  ]

  /// The PL/pgSQL statements for one table, transforming `t`.
  static func steps(_ table: PostgresFoldingTable) -> String {
    var out = ""
    if table.dropsMarks {
      let marks = PostgresFoldingTable.marks
      let lowMarks = marks.filter { $0 < 0x510 }
      let highMarks = marks.filter { $0 >= 0x510 }
      out += "    IF t ~ " + charClass(marks) + " THEN\n"
      out +=
        "      t := regexp_replace(t, '(^" + bracket(lowMarks) + "|" + bracket(table.dropAllBases) + ")"
        + bracket(marks) + "+', '\\1', 'g');\n"
      // One low mark goes after any other non-mark but the keep bases (unprobed scalars too).
      out +=
        "      t := regexp_replace(t, '(^" + bracket(highMarks) + "|"
        + bracket((marks + table.keepBases).sorted(), negated: true)
        + ")" + bracket(lowMarks) + "', '\\1', 'g');\n"
      out += "    END IF;\n"
    }
    if !table.deleted.isEmpty {
      out += "    t := regexp_replace(t, " + charClass(table.deleted.sorted()) + ", '', 'g');\n"
    }
    for range in chunks {
      let pairs = table.single.filter { range.contains($0.from) }.sorted { $0.from < $1.from }
      if pairs.isEmpty { continue }
      let from = pairs.map(\.from), to = pairs.map(\.to)
      out +=
        "    IF t ~ " + charClass([range.lowerBound, range.upperBound], isRange: true) + " THEN t := translate(t, "
        + literal(from) + ", " + literal(to) + "); END IF;\n"
    }
    if !table.multi.isEmpty {
      let sorted = table.multi.sorted { $0.from < $1.from }
      var expr = "t"
      for (f, t) in sorted { expr = "replace(" + expr + ", " + literal([f]) + ", " + quote(t) + ")" }
      out += "    IF t ~ " + charClass(sorted.map(\.from)) + " THEN t := " + expr + "; END IF;\n"
    }
    return out
  }

  /// `(^[leading]|[bases])`: a mark that starts the text, or one of the bases.
  static func group(_ leading: [UInt32], _ bases: [UInt32]) -> String {
    var alternatives: [String] = []
    if !leading.isEmpty { alternatives.append("^" + bracket(leading)) }
    if !bases.isEmpty { alternatives.append(bracket(bases)) }
    return "(" + (alternatives.isEmpty ? "(?!)" : alternatives.joined(separator: "|")) + ")"
  }

  /// A quoted regular expression `'[…]'` matching any of `values` (ascending), or the one
  /// range `values[0]…values[1]` when `isRange`.
  static func charClass(_ values: [UInt32], isRange: Bool = false) -> String {
    if isRange, values.count == 2 { return "'[" + escape(values[0]) + "-" + escape(values[1]) + "]'" }
    return "'" + bracket(values) + "'"
  }

  /// `[…]` (`[^…]` when `negated`) with consecutive scalars written as ranges.
  static func bracket(_ values: [UInt32], negated: Bool = false) -> String {
    var s = negated ? "[^" : "["
    var i = 0
    while i < values.count {
      var j = i
      while j + 1 < values.count, values[j + 1] == values[j] &+ 1 { j += 1 }
      s += escape(values[i])
      if j > i { s += "-" + escape(values[j]) }
      i = j + 1
    }
    return s + "]"
  }

  /// `\uXXXX` / `\UXXXXXXXX`, as PostgreSQL's regular expressions write a scalar.
  static func escape(_ v: UInt32) -> String {
    let hex = String(v, radix: 16)
    if v <= 0xFFFF { return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex }
    return "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// A string literal of these scalars.
  static func literal(_ values: [UInt32]) -> String {
    var v = String.UnicodeScalarView()
    for x in values { if let s = Unicode.Scalar(x) { v.append(s) } }
    return quote(String(v))
  }

  /// `'text'` with quotes doubled (standard-conforming strings: backslashes are literal).
  static func quote(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
  }
}
