import Foundation

/// One sort key of a fetch request (`NSSortDescriptor`): a key path, a direction, how strings
/// compare and where nil goes.
///
/// Nil is the smallest value: first when ascending, last when descending, unless `nulls` says
/// otherwise. Every engine orders the same way (`SiftSortOrder` in memory; SQL writes the nil
/// placement explicitly, since SQLite and PostgreSQL disagree on the default).
///
/// ```swift
/// SiftSortDescriptor("location.city", ascending: false, comparison: .localizedStandard, nulls: .last)
/// ```
public struct SiftSortDescriptor: Sendable, Hashable, CustomStringConvertible {
  /// How strings compare (other values ignore it).
  public enum Comparison: Sendable, Hashable {
    /// By Unicode code point (`compare:`; SQLite `BINARY`, PostgreSQL `COLLATE "C"`).
    case binary
    /// Folded by `[c]` rules (`TextFolding`), then by code point (`caseInsensitiveCompare:`).
    case caseInsensitive
    /// `localizedStandardCompare:` (`SiftSortOrder.localizedStandard`; SQLite: the
    /// `SIFT_LOCALIZED` collation calling it; PostgreSQL: the ICU collation `sift_localized`,
    /// `und-u-kn-true`, from `setupSQL`).
    case localizedStandard
    /// `localizedCompare:` (`SiftSortOrder.localized`: Foundation's `localizedCompare`, the
    /// locale's collation without numeric order, `file10` < `file9`; SQLite: the
    /// `SIFT_LOCALIZED_COMPARE` collation calling it; PostgreSQL: ICU's root collation). Spelled
    /// `localizedCompare:` in sort lists; `[l]` stays `localizedStandardCompare:`.
    case localized
  }

  /// Where nil values go.
  public enum NullPlacement: Sendable, Hashable {
    /// First when ascending, last when descending (nil is smallest).
    case automatic
    /// Always first.
    case first
    /// Always last.
    case last
  }

  /// A key path of the entity (to-one steps allowed).
  public var keyPath: String
  /// Ascending (default) or descending.
  public var ascending: Bool
  /// String comparison.
  public var comparison: Comparison
  /// Nil placement.
  public var nulls: NullPlacement
  /// A converted `SortDescriptor`'s key path (Typed/SiftTypedKeyPaths.swift); no part of equality.
  package var typed = SiftTypedKeyPathsBox()

  /// Creates a sort descriptor.
  ///
  /// ```swift
  /// SiftSortDescriptor("name", comparison: .caseInsensitive)
  /// ```
  public init(
    _ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary, nulls: NullPlacement = .automatic
  ) {
    self.keyPath = keyPath
    self.ascending = ascending
    self.comparison = comparison
    self.nulls = nulls
  }

  /// True when nil values come first.
  public var nilsFirst: Bool {
    switch nulls {
    case .automatic: return ascending
    case .first: return true
    case .last: return false
    }
  }

  /// `name asc`, `name desc [c]`, `title asc [l]`: the form `parseList` reads.
  public var description: String {
    var s = keyPath + (ascending ? " asc" : " desc")
    switch comparison {
    case .binary: break
    case .caseInsensitive: s += " [c]"
    case .localizedStandard: s += " [l]"
    case .localized: s += " localizedCompare:"
    }
    switch nulls {
    case .automatic: break
    case .first: s += " nulls first"
    case .last: s += " nulls last"
    }
    return s
  }

  /// Parses `key [asc|desc] [[c]|[l]|localizedCompare:] [nulls first|last], …` (`compare:`,
  /// `caseInsensitiveCompare:` and `localizedStandardCompare:` also name their comparison; a leading `-` on the key also
  /// means descending). Errors are `SiftError`s at stage `.parse` with the range of the
  /// offending word.
  ///
  /// ```swift
  /// let sorts = try SiftSortDescriptor.parseList("rating desc, name asc [c]")
  /// ```
  public static func parseList(_ text: String) throws(SiftError) -> [SiftSortDescriptor] {
    var out: [SiftSortDescriptor] = []
    var offset = 0
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      defer { offset += part.utf8.count + 1 }
      out.append(try parseOne(part, at: offset, in: text))
    }
    return out
  }

  static func parseOne(_ part: Substring, at base: Int, in text: String) throws(SiftError) -> SiftSortDescriptor {
    var words: [(String, SiftSourceRange)] = []
    var i = part.utf8.startIndex
    let u = part.utf8
    while i < u.endIndex {
      if u[i] == 0x20 || u[i] == 0x09 { i = u.index(after: i); continue }
      let start = i
      while i < u.endIndex, u[i] != 0x20, u[i] != 0x09 { i = u.index(after: i) }
      let a = base + u.distance(from: u.startIndex, to: start), b = base + u.distance(from: u.startIndex, to: i)
      words.append((String(part[start..<i]), SiftSourceRange(start: a, end: b)))
    }
    func fail(_ message: String, _ r: SiftSourceRange) -> SiftError {
      SiftError(stage: .parse, diagnostic: SiftDiagnostic(id: .badSortKey, message: message, range: r), source: text)
    }
    guard let (first, keyRange) = words.first else {
      throw fail("empty sort key; use KEY [asc|desc]", SiftSourceRange(start: base, end: base + part.utf8.count))
    }
    var key = first
    var d = SiftSortDescriptor("")
    if key.hasPrefix("-") {
      d.ascending = false
      key.removeFirst()
    }
    guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" }) else {
      throw fail("bad sort key '\(key)'; use KEY [asc|desc]", keyRange)
    }
    d.keyPath = key
    var k = 1
    while k < words.count {
      let (w, r) = words[k]
      switch w.lowercased() {
      case "asc", "ascending": d.ascending = true
      case "desc", "descending": d.ascending = false
      case "[c]", "caseinsensitivecompare:": d.comparison = .caseInsensitive
      case "[l]", "localizedstandardcompare:": d.comparison = .localizedStandard
      case "localizedcompare:": d.comparison = .localized
      case "compare:": d.comparison = .binary
      case "nulls":
        guard k + 1 < words.count, ["first", "last"].contains(words[k + 1].0.lowercased()) else {
          throw fail("'nulls' needs 'first' or 'last'", r)
        }
        d.nulls = words[k + 1].0.lowercased() == "first" ? .first : .last
        k += 1
      default:
        throw fail(
          "sort direction must be asc or desc (optionally [c], [l] or localizedCompare:, nulls first|last), not '\(w)'",
          r)
      }
      k += 1
    }
    return d
  }
}
