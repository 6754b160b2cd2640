/// MATCHES on MariaDB: the syntax ICU (memory) and PCRE (MariaDB's `REGEXP`) read differently,
/// refused at compile time rather than answered another way (Grammar/notes/mysql.md).
extension SQLCompilation {
  /// The first construct of `pattern` that PCRE reads otherwise than ICU, named for the
  /// message, or nil: set operations and nested sets in a class (`[a-z&&[^aeiou]]`,
  /// `[[a-z]--[aeiou]]`), `\N{NAME}`, `\uhhhh`/`\Uhhhhhhhh` and the ICU-only flag `(?w)`.
  ///
  /// ```swift
  /// SQLCompilation.pcreDifference("[a-z&&[^q]]")   // "the class operator &&"
  /// ```
  static func pcreDifference(_ pattern: String) -> String? {
    let s = Array(pattern.unicodeScalars)
    var i = 0
    var classDepth = 0
    var quoted = false
    while i < s.count {
      let c = s[i]
      let next: Unicode.Scalar? = i + 1 < s.count ? s[i + 1] : nil
      if quoted {
        if c == "\\", next == "E" { quoted = false }
        i += c == "\\" ? 2 : 1
        continue
      }
      switch c {
      case "\\":
        switch next {
        case "Q"?: quoted = true
        case "N"? where i + 2 < s.count && s[i + 2] == "{": return "\\N{…}"
        case "u"?, "U"?: return "\\u/\\U escapes (write \\x{…})"
        default: break
        }
        i += 2
        continue
      case "[":
        if classDepth > 0, next != ":" { return "a nested set [[…]…]" }
        if classDepth > 0, next == ":" {
          // [:alpha:] inside a class: skip to its closing ":]".
          var j = i + 2
          while j + 1 < s.count, !(s[j] == ":" && s[j + 1] == "]") { j += 1 }
          i = j + 2
          continue
        }
        classDepth += 1
        // A ']' or '^]' right after the opening bracket is a literal.
        i += 1
        if i < s.count, s[i] == "^" { i += 1 }
        if i < s.count, s[i] == "]" { i += 1 }
        continue
      case "]":
        if classDepth > 0 { classDepth -= 1 }
      case "&" where classDepth > 0 && next == "&":
        return "the class operator &&"
      case "-" where classDepth > 0 && next == "-":
        return "the class operator --"
      case "(" where classDepth == 0 && next == "?":
        var j = i + 2
        while j < s.count, s[j].properties.isAlphabetic || s[j] == "-" {
          if s[j] == "w" { return "the flag (?w)" }
          j += 1
        }
      default: break
      }
      i += 1
    }
    return nil
  }
}
