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
  /// functions by name (a schema-qualified call `sift.sift_fold(…)` by its name), `regexp` for
  /// the `REGEXP` operator, `SIFT_LOCALIZED` for the collation. Empty for statements that run
  /// on any connection. Read from the text: values are never in it, and quoted identifiers and
  /// string literals are skipped.
  ///
  /// ```swift
  /// let st = try compiler.compile(SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "title ==[c] 'x'")))
  /// st.requiredFunctions   // ["sift_fold"]
  /// ```
  public var requiredFunctions: [String] {
    Array(Set(requiredFunctionReferences.map(\.name))).sorted()
  }

  /// Each Sift function or collation the statement calls, with the schema that qualifies it
  /// (`sift.sift_fold(…)`, `COLLATE "sift"."sift_localized"`; nil when unqualified), sorted.
  package var requiredFunctionReferences: [SQLFunctionReference] {
    var found: Set<SQLFunctionReference> = []
    let bytes = Array(sql.utf8)
    var i = 0
    var previousWord = ""
    var qualifier: String?  // the name just before a `.`, qualifying the next name
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
        let name = String(decoding: bytes[(i + 1)..<min(j, bytes.count)], as: UTF8.self)
        if b == UInt8(ascii: "\""), previousWord.uppercased() == "COLLATE" {
          if j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: ".") {
            // `COLLATE "sift"."sift_localized"`: the schema, then the collation.
            qualifier = name.replacingOccurrences(of: "\"\"", with: "\"")
            i = j + 2
            continue
          }
          if name.uppercased().hasPrefix("SIFT_") { found.insert(SQLFunctionReference(schema: qualifier, name: name)) }
        }
        let continuesName = b == UInt8(ascii: "\"") && j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: ".")
        qualifier = continuesName ? name.replacingOccurrences(of: "\"\"", with: "\"") : nil
        previousWord = ""
        i = continuesName ? j + 2 : j + 1
        continue
      }
      if Self.isWordByte(b) {
        var j = i
        while j < bytes.count, Self.isWordByte(bytes[j]) { j += 1 }
        let word = String(decoding: bytes[i..<j], as: UTF8.self)
        let afterDot = i > 0 && bytes[i - 1] == UInt8(ascii: ".")
        let startsWord = i == 0 || !(bytes[i - 1] == UInt8(ascii: "$") || (afterDot && qualifier == nil))
        var k = j
        while k < bytes.count, bytes[k] == UInt8(ascii: " ") { k += 1 }
        let lower = word.lowercased()
        let schema = afterDot ? qualifier : nil
        if startsWord, lower.hasPrefix("sift_"), k < bytes.count, bytes[k] == UInt8(ascii: "(") {
          found.insert(SQLFunctionReference(schema: schema, name: lower))
        } else if lower == "regexp", startsWord, !afterDot {
          found.insert(SQLFunctionReference(schema: nil, name: "regexp"))  // `x REGEXP y` calls regexp(y, x)
        }
        qualifier = j < bytes.count && bytes[j] == UInt8(ascii: ".") ? word : nil
        previousWord = word
        i = j < bytes.count && bytes[j] == UInt8(ascii: ".") ? j + 1 : j
        continue
      }
      if b != UInt8(ascii: " ") { previousWord = "" }
      qualifier = nil
      i += 1
    }
    return found.sorted { ($0.schema ?? "", $0.name) < ($1.schema ?? "", $1.name) }
  }

  private static func isWordByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
  }
}

/// A Sift function or collation a statement calls, and the schema its call names (nil: found
/// through the connection's search path, as SQLite's per-connection functions are).
package struct SQLFunctionReference: Hashable, Sendable {
  package var schema: String?
  package var name: String
  package init(schema: String?, name: String) {
    self.schema = schema
    self.name = name
  }
}
