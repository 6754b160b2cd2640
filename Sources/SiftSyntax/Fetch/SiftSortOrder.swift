import Foundation

/// The total order sort descriptors use, for every engine.
///
/// - **nil** is the smallest value (its place is then set by `SiftSortDescriptor.nulls`).
/// - **Mixed kinds** (only possible in schemaless data; a SQL column holds one kind) order by
///   kind: nil < numbers (booleans are 1 and 0) < strings < dates < data < arrays <
///   dictionaries.
/// - **Numbers** by exact value (`Int64` against `Double` without rounding); NaN is below every
///   other number.
/// - **Strings** by the descriptor's comparison: `.binary` by Unicode code point (UTF-8 bytes,
///   as SQLite's `BINARY` and PostgreSQL's `"C"`), `.caseInsensitive` by code point of
///   `TextFolding.fold(_, [c])` (as SQL's `sift_fold(x, 1)`), `.localizedStandard` by
///   Foundation's `localizedStandardCompare` (the function SiftSQLite's `SIFT_LOCALIZED`
///   collation calls).
/// - **Dates** by time; **data** bytewise; **arrays** element by element, then by length;
///   **dictionaries** by their entries sorted by key.
///
/// Values that compare equal keep their input order (the engines' tiebreak is the record's
/// position or primary key).
///
/// ```swift
/// SiftSortOrder.compare(.int(2), .double(10.5), .binary)          // -1
/// SiftSortOrder.compare("b", "B", .caseInsensitive)               // 0
/// SiftSortOrder.compare("file10", "file9", .localizedStandard)    // 1
/// ```
public enum SiftSortOrder {
  /// -1, 0 or 1: the order of `a` and `b` under `comparison` (nil smallest).
  public static func compare(_ a: SiftValue, _ b: SiftValue, _ comparison: SiftSortDescriptor.Comparison) -> Int {
    compare(a, b, comparison, depth: 0)
  }

  static func compare(_ a: SiftValue, _ b: SiftValue, _ comparison: SiftSortDescriptor.Comparison, depth: Int) -> Int {
    let ra = rank(a), rb = rank(b)
    if ra != rb { return ra < rb ? -1 : 1 }
    switch (a, b) {
    case (.string(let x), .string(let y)): return compareStrings(x, y, comparison)
    case (.date(let x), .date(let y)): return sign(x.timeIntervalSince1970, y.timeIntervalSince1970)
    case (.data(let x), .data(let y)):
      for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
      return sign(x.count, y.count)
    case (.array(let x), .array(let y)):
      guard depth < 256 else { return 0 }
      for (p, q) in zip(x, y) {
        let c = compare(p, q, comparison, depth: depth + 1)
        if c != 0 { return c }
      }
      return sign(x.count, y.count)
    case (.dictionary(let x), .dictionary(let y)):
      guard depth < 256 else { return 0 }
      let kx = x.keys.sorted { binary($0, $1) < 0 }, ky = y.keys.sorted { binary($0, $1) < 0 }
      for (p, q) in zip(kx, ky) {
        let c = binary(p, q)
        if c != 0 { return c }
        let v = compare(x[p] ?? .null, y[q] ?? .null, comparison, depth: depth + 1)
        if v != 0 { return v }
      }
      return sign(kx.count, ky.count)
    default: return compareNumbers(a, b)
    }
  }

  /// Orders two strings under a comparison.
  ///
  /// ```swift
  /// SiftSortOrder.compareStrings("É", "e", .caseInsensitive)   // 1 ([c] keeps accents)
  /// ```
  public static func compareStrings(_ a: String, _ b: String, _ comparison: SiftSortDescriptor.Comparison) -> Int {
    switch comparison {
    case .binary: return binary(a, b)
    case .caseInsensitive: return binary(TextFolding.fold(a, .caseInsensitive), TextFolding.fold(b, .caseInsensitive))
    case .localizedStandard: return localizedStandard(a, b)
    case .localized: return localized(a, b)
    }
  }

  /// Foundation's `localizedCompare` (`localizedCompare:`: the current locale's collation, case
  /// and accents secondary, digits as text: `file10` < `file9`) of the strings' compatibility
  /// forms, then code points, as -1, 0, 1: 0 only for equal strings. SiftSQLite's
  /// `SIFT_LOCALIZED_COMPARE` collation calls this function; PostgreSQL sorts the same by ICU's
  /// root collation (Grammar/notes/fetch.md, "localizedCompare:").
  ///
  /// ```swift
  /// SiftSortOrder.localized("file10", "file9")   // -1
  /// SiftSortOrder.localized("a", "B")            // -1
  /// ```
  public static func localized(_ a: String, _ b: String) -> Int {
    localized(forms: compatibilityForm(a), compatibilityForm(b), a, b)
  }

  /// `localized(a, b)` given the compatibility forms `x` of `a` and `y` of `b`.
  ///
  /// ```swift
  /// SiftSortOrder.localized(forms: "fine", "fine", "ﬁne", "fine")   // 1
  /// ```
  package static func localized(forms x: String, _ y: String, _ a: String, _ b: String) -> Int {
    switch x.localizedCompare(y) {
    case .orderedAscending: return -1
    case .orderedDescending: return 1
    case .orderedSame: return binary(a, b)
    }
  }

  /// Code-point order: the strings' UTF-8 bytes compared (`memcmp`, then length).
  ///
  /// ```swift
  /// SiftSortOrder.binary("Z", "a")   // -1
  /// ```
  public static func binary(_ a: String, _ b: String) -> Int {
    var a = a, b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        let n = Swift.min(x.count, y.count)
        if n > 0, let px = x.baseAddress, let py = y.baseAddress {
          let c = memcmp(px, py, n)
          if c != 0 { return c < 0 ? -1 : 1 }
        }
        return sign(x.count, y.count)
      }
    }
  }

  /// Foundation's `localizedStandardCompare` (the Finder's order: case and accents
  /// secondary, digits as numbers) of the strings' compatibility forms (NFKC: `ﬁ` as `fi`, `Ǆ` as
  /// `DŽ`, full-width letters as ASCII), then code points, as -1, 0, 1: 0 only for equal strings.
  /// The compatibility forms make the order total where Foundation's own is not (on Linux it
  /// puts `ﬁne` before `FILE01` though `fine` comes after `file01`, and sorts built on that
  /// disagree with themselves), and PostgreSQL's sort keys over `sift.sift_localized_*` give the same order
  /// (Grammar/notes/fetch.md, "Localized order"). SiftSQLite's `SIFT_LOCALIZED` collation calls
  /// this function.
  ///
  /// ```swift
  /// SiftSortOrder.localizedStandard("file9", "file10")   // -1
  /// SiftSortOrder.localizedStandard("1", "01")           // -1
  /// ```
  public static func localizedStandard(_ a: String, _ b: String) -> Int {
    localizedStandard(forms: compatibilityForm(a), compatibilityForm(b), a, b)
  }

  /// `localizedStandard(a, b)` given the compatibility forms `x` of `a` and `y` of `b`
  /// (computed once per string by a sort).
  ///
  /// ```swift
  /// SiftSortOrder.localizedStandard(forms: "fine", "fine", "ﬁne", "fine")   // 1
  /// ```
  package static func localizedStandard(forms x: String, _ y: String, _ a: String, _ b: String) -> Int {
    switch x.localizedStandardCompare(y) {
    case .orderedAscending: return -1
    case .orderedDescending: return 1
    case .orderedSame: return binary(a, b)
    }
  }

  /// The NFKC form `localizedStandard` compares (ASCII text is its own).
  ///
  /// ```swift
  /// SiftSortOrder.compatibilityForm("ﬁne")   // "fine"
  /// ```
  package static func compatibilityForm(_ s: String) -> String {
    var s = s
    let ascii = s.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
    return ascii ? s : s.precomposedStringWithCompatibilityMapping
  }

  /// nil 0, numbers 1, strings 2, dates 3, data 4, arrays 5, dictionaries 6.
  ///
  /// ```swift
  /// SiftSortOrder.rank(.bool(true))   // 1
  /// ```
  public static func rank(_ v: SiftValue) -> Int {
    switch v {
    case .null: return 0
    case .bool, .int, .double: return 1
    case .string: return 2
    case .date: return 3
    case .data: return 4
    case .array: return 5
    case .dictionary: return 6
    }
  }

  /// -1, 0 or 1 for two doubles, NaN below every other number (and equal to NaN).
  ///
  /// ```swift
  /// SiftSortOrder.compareDoubles(.nan, -.infinity)   // -1
  /// ```
  @inlinable @inline(__always)
  package static func compareDoubles(_ x: Double, _ y: Double) -> Int {
    if x < y { return -1 }
    if x > y { return 1 }
    if x == y { return 0 }
    return x.isNaN ? (y.isNaN ? 0 : -1) : 1
  }

  /// `binary`'s order on UTF-8 bytes already extracted: bytewise, a prefix first.
  ///
  /// ```swift
  /// SiftSortOrder.compareBytes(Array("ab".utf8)[...], Array("b".utf8)[...])   // -1
  /// ```
  @inlinable @inline(__always)
  package static func compareBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
    var i = a.startIndex, j = b.startIndex
    while i < a.endIndex && j < b.endIndex {
      let x = a[i], y = b[j]
      if x != y { return x < y ? -1 : 1 }
      i += 1
      j += 1
    }
    return sign(a.count, b.count)
  }

  static func compareNumbers(_ a: SiftValue, _ b: SiftValue) -> Int {
    switch (number(a), number(b)) {
    case (.some(.int(let x)), .some(.int(let y))): return sign(x, y)
    case (.some(.double(let x)), .some(.double(let y))): return compareDoubles(x, y)
    case (.some(.int(let x)), .some(.double(let y))): return NumberRules.compare(x, y) ?? 1
    case (.some(.double(let x)), .some(.int(let y))): return NumberRules.compare(y, x).map { -$0 } ?? -1
    default: return 0
    }
  }

  static func number(_ v: SiftValue) -> SiftValue? {
    switch v {
    case .bool(let b): return .int(b ? 1 : 0)
    case .int, .double: return v
    default: return nil
    }
  }

  @inlinable @inline(__always)
  package static func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
}
