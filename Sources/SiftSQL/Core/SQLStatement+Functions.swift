/// Which of Sift's own SQL functions a statement calls.
///
/// Compiled SQL calls a few functions no database has by itself: `sift_fold` for `[c]`/`[d]`,
/// `sift_search`, `sift_like` and `sift_matches` (or the `REGEXP` operator) on SQLite,
/// `sift_fdiv` and `sift_exact` on PostgreSQL, the `SIFT_LOCALIZED` collation, and so on.
/// SQLite keeps them per connection (`SQLiteFunctions.register(on:)`, done by SiftSQLite's
/// `SQLiteDatabase`); PostgreSQL needs them created once per database (`PostgreSQLDialect.setupSQL`,
/// printed by `sift setup-sql --dialect postgres`). A statement says which it needs, so a runner
/// can check before running it and name the missing setup instead of failing halfway.
extension SQLStatement {
  /// The Sift SQL functions (and collation) the statement calls, sorted, each once: `sift_…`
  /// functions by name, `regexp` for the `REGEXP` operator, `SIFT_LOCALIZED` for the
  /// collation. Empty for statements that run on any connection. Read from the text: values
  /// are never in it, and quoted identifiers and string literals are skipped.
  ///
  /// ```swift
  /// let st = try compiler.compile(SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "title ==[c] 'x'")))
  /// st.requiredFunctions   // ["sift_fold"]
  /// ```
  public var requiredFunctions: [String] {
    var found: Set<String> = []
    let bytes = Array(sql.utf8)
    var i = 0
    var previousWord = ""
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
        // A quoted identifier or a literal: skip to its end (doubled quotes stay inside).
        var j = i + 1
        while j < bytes.count {
          if bytes[j] == b {
            if j + 1 < bytes.count, bytes[j + 1] == b { j += 2; continue }
            break
          }
          j += 1
        }
        if b == UInt8(ascii: "\""), previousWord.uppercased() == "COLLATE" {
          let name = String(decoding: bytes[(i + 1)..<min(j, bytes.count)], as: UTF8.self)
          if name.uppercased().hasPrefix("SIFT_") { found.insert(name) }
        }
        previousWord = ""
        i = j + 1
        continue
      }
      if Self.isWordByte(b) {
        var j = i
        while j < bytes.count, Self.isWordByte(bytes[j]) { j += 1 }
        let word = String(decoding: bytes[i..<j], as: UTF8.self)
        let startsWord = i == 0 || !(bytes[i - 1] == UInt8(ascii: ".") || bytes[i - 1] == UInt8(ascii: "$"))
        var k = j
        while k < bytes.count, bytes[k] == UInt8(ascii: " ") { k += 1 }
        let lower = word.lowercased()
        if startsWord, lower.hasPrefix("sift_"), k < bytes.count, bytes[k] == UInt8(ascii: "(") {
          found.insert(lower)
        } else if lower == "regexp", startsWord {
          found.insert("regexp")  // SQLite's `x REGEXP y` calls the function regexp(y, x)
        }
        previousWord = word
        i = j
        continue
      }
      if b != UInt8(ascii: " ") { previousWord = "" }
      i += 1
    }
    return found.sorted()
  }

  private static func isWordByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
  }
}
