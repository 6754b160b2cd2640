/// A compiled `LIKE` pattern: `*` matches any run of Unicode scalars (including none), `?`
/// exactly one scalar, and a backslash makes the next scalar literal (`\*`, `\?`, `\\`).
/// Every other scalar, regular-expression metacharacters included, is literal. The match is
/// whole-string. Matching is iterative (no backtracking blow-up): O(pattern × text) worst.
///
/// Text is matched by Unicode scalars as written, like every other string comparison
/// (Grammar/README.md, rule 5) and like PostgreSQL's `LIKE`: `"Cafe\u{301}"` (e and a
/// combining accent) is five scalars, so `LIKE "Cafe?"` matches it and `LIKE "Caf?"` does not,
/// and a precomposed `é` is not the decomposed one (use `[d]` to ignore accents).
///
/// Shared by in-memory evaluation and the `sift_like` SQL function.
///
/// ```swift
/// let p = LikePattern("Red ?ar*", options: [.caseInsensitive])
/// p.matches("red bar & grill")   // true
/// ```
package struct LikePattern: Sendable, Hashable {
  enum Element: Sendable, Hashable {
    case literal(Unicode.Scalar)
    case any  // ?
    case anyRun  // *
  }

  let elements: [Element]
  /// The options the pattern was compiled with; the subject is folded the same way.
  package let options: ComparisonOptions

  /// Compiles `pattern` (already folded by `options`).
  package init(_ pattern: String, options: ComparisonOptions = []) {
    self.options = options
    let folded = TextFolding.fold(pattern, options)
    var out: [Element] = []
    var escaping = false
    for ch in folded.unicodeScalars {
      if escaping {
        out.append(.literal(ch))
        escaping = false
      } else if ch == "\\" {
        escaping = true
      } else if ch == "*" {
        if out.last != .anyRun { out.append(.anyRun) }
      } else if ch == "?" {
        out.append(.any)
      } else {
        out.append(.literal(ch))
      }
    }
    if escaping { out.append(.literal("\\")) }
    elements = out
  }

  /// True when the whole of `text` (folded by the pattern's options) matches.
  package func matches(_ text: String) -> Bool {
    let subject = Array(TextFolding.fold(text, options).unicodeScalars)
    return LikePattern.match(elements, subject)
  }

  /// Classic wildcard matching with a single backtrack point per `*`.
  static func match(_ p: [Element], _ s: [Unicode.Scalar]) -> Bool {
    var pi = 0
    var si = 0
    var starP = -1
    var starS = 0
    while si < s.count {
      if pi < p.count {
        switch p[pi] {
        case .anyRun:
          starP = pi
          starS = si
          pi += 1
          continue
        case .any:
          pi += 1
          si += 1
          continue
        case .literal(let c) where c == s[si]:
          pi += 1
          si += 1
          continue
        default:
          break
        }
      }
      guard starP >= 0 else { return false }
      pi = starP + 1
      starS += 1
      si = starS
    }
    while pi < p.count, p[pi] == .anyRun { pi += 1 }
    return pi == p.count
  }
}
