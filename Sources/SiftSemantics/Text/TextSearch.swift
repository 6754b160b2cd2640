import Foundation

/// The string operators `BEGINSWITH`, `ENDSWITH`, `CONTAINS` (and `IN` on a string) and
/// string `==`, with the rule every engine follows: strings compare by **Unicode scalars as
/// written** (UTF-8 bytes), with no normalization unless `[c]`/`[d]` is given, in which case
/// both sides are folded with `TextFolding.fold` first. An empty (folded) needle never matches.
/// Not `Character` semantics: `"Cafe\u{301}"` does not begin with `"Café"`, and
/// `"café"` (precomposed) does not end with `"e\u{301}"`.
///
/// The one home of this rule: in-memory evaluation (`TextRule` in SiftEvaluation, which tries
/// ASCII shortcuts first and hands every other case here) and SQLite's `sift_search` both call
/// it, so both answer alike.
///
/// ```swift
/// TextSearch.find("BLUE", in: "Bluebird", .prefix, [.caseInsensitive])   // true
/// TextSearch.find("e\u{301}", in: "café", .suffix, [])                  // false: scalars differ
/// ```
package enum TextSearch {
  /// Where the needle must occur. Its `rawValue` is the one wire encoding of the search kind:
  /// the `kind` argument of SQLite's `sift_search(haystack, needle, kind, opts)`, written by
  /// the SQL compiler and read back by the function SiftSQLite registers.
  ///
  /// Everything else about a position is derived here: its operator, its anchors (which the
  /// SQL compiler turns into a LIKE pattern or a `left`/`right`/`strpos` test) and the list
  /// of wire codes in `sift_search`'s error. A new position is a case, a wire code, and a
  /// line in each switch below, in this file only.
  ///
  /// ```swift
  /// TextSearch.Position.suffix            // ENDSWITH
  /// TextSearch.Position.suffix.rawValue   // 2, as in sift_search(h, n, 2, 0)
  /// ```
  package enum Position: Int, Sendable, Hashable, CaseIterable {
    /// `CONTAINS`, and `IN` with a string on the right (wire code 0).
    case anywhere = 0
    /// `BEGINSWITH` (wire code 1).
    case prefix = 1
    /// `ENDSWITH` (wire code 2).
    case suffix = 2

    /// The operator that searches this way (`IN` with a string on the right searches
    /// `.anywhere` too, with its sides swapped).
    ///
    /// ```swift
    /// TextSearch.Position.prefix.comparisonOperator   // .beginsWith
    /// ```
    package var comparisonOperator: ComparisonOperator {
      switch self {
      case .anywhere: return .contains
      case .prefix: return .beginsWith
      case .suffix: return .endsWith
      }
    }

    /// True when the needle must start the subject.
    ///
    /// ```swift
    /// TextSearch.Position.prefix.isAnchoredAtStart   // true
    /// ```
    package var isAnchoredAtStart: Bool {
      switch self {
      case .prefix: return true
      case .anywhere, .suffix: return false
      }
    }

    /// True when the needle must end the subject.
    ///
    /// ```swift
    /// TextSearch.Position.suffix.isAnchoredAtEnd   // true
    /// ```
    package var isAnchoredAtEnd: Bool {
      switch self {
      case .suffix: return true
      case .anywhere, .prefix: return false
      }
    }

    /// The search an operator makes: `BEGINSWITH` `.prefix`, `ENDSWITH` `.suffix`, `CONTAINS`
    /// and `IN` (on a string) `.anywhere`; nil for the other operators.
    ///
    /// ```swift
    /// TextSearch.Position(.endsWith)   // .suffix
    /// ```
    package init?(_ op: ComparisonOperator) {
      if op == .in {
        self = .anywhere
        return
      }
      guard let p = Position.allCases.first(where: { $0.comparisonOperator == op }) else { return nil }
      self = p
    }

    /// The wire code as SQL text, for the compiler (`sift_search(x, y, 1, 0)`).
    package var sql: String { String(rawValue) }

    /// The position a wire code names; nil for a code no compiler writes.
    package init?(wire code: Int64) {
      guard let p = Position(rawValue: Int(truncatingIfNeeded: code)), Int64(p.rawValue) == code else { return nil }
      self = p
    }

    /// Every wire code with its operator, for an error about an unknown one.
    ///
    /// ```swift
    /// TextSearch.Position.wireCodes   // "0 (CONTAINS), 1 (BEGINSWITH) or 2 (ENDSWITH)"
    /// ```
    package static let wireCodes: String = {
      let named = allCases.map { "\($0.rawValue) (\($0.comparisonOperator.keyword))" }
      guard let last = named.last else { return "" }
      return named.count == 1 ? last : named.dropLast().joined(separator: ", ") + " or " + last
    }()
  }

  /// Does `subject` contain `needle` at `position`, after folding both by `options`?
  ///
  /// ```swift
  /// TextSearch.find("strasse", in: "Straße 5", .prefix, [.caseInsensitive])   // true
  /// TextSearch.find("", in: "abc", .anywhere, [])                            // false
  /// ```
  package static func find(
    _ needle: String, in subject: String, _ position: Position, _ options: ComparisonOptions
  ) -> Bool {
    find(foldedNeedle: TextFolding.fold(needle, options), in: subject, position, options)
  }

  /// Like `find(_:in:_:_:)` with a needle already folded by `options` (fold it once with
  /// `TextFolding.fold` when it is a constant).
  ///
  /// ```swift
  /// let n = TextFolding.fold("ZÜR", [.caseInsensitive, .diacriticInsensitive])   // "zur"
  /// TextSearch.find(foldedNeedle: n, in: "Zürich", .prefix, [.caseInsensitive, .diacriticInsensitive])   // true
  /// ```
  package static func find(
    foldedNeedle needle: String, in subject: String, _ position: Position, _ options: ComparisonOptions
  ) -> Bool {
    if needle.utf8.isEmpty { return false }
    let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
    if folds && position == .prefix {
      // Folds only as much of the subject as the needle needs.
      return TextFolding.foldedHasPrefix(subject, needle, options)
    }
    let haystack = folds ? TextFolding.fold(subject, options) : subject
    return bytes(needle) { n in bytes(haystack) { h in find(n, in: h, position) } }
  }

  /// Are `a` and `b` equal after folding both by `options` (by scalars, no normalization
  /// without options)?
  ///
  /// ```swift
  /// TextSearch.equals("ZÜRICH", "zurich", [.caseInsensitive, .diacriticInsensitive])   // true
  /// TextSearch.equals("Cafe\u{301}", "Café", [])                                      // false
  /// ```
  package static func equals(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
    let folds = options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
    if !folds { return a.utf8.elementsEqual(b.utf8) }
    return TextFolding.foldedEquals(a, TextFolding.fold(b, options), options)
  }

  /// Byte search on UTF-8: since UTF-8 is self-synchronizing, a byte match of valid UTF-8 is
  /// a match of whole scalars. With `caseless`, the haystack's ASCII letters are lower-cased
  /// as they are compared (the needle must already be lower-case): the evaluator's fast path
  /// for `[c]` on ASCII text, where that is exactly `TextFolding`'s fold.
  ///
  /// ```swift
  /// TextSearch.find(Array("b".utf8), in: Array("abc".utf8), .anywhere)   // true
  /// ```
  @inlinable
  package static func find(
    _ n: UnsafeBufferPointer<UInt8>, in h: UnsafeBufferPointer<UInt8>, _ position: Position, caseless: Bool = false
  ) -> Bool {
    guard let np = n.baseAddress, let hp = h.baseAddress else { return false }
    return find(np, count: n.count, in: hp, count: h.count, position, caseless: caseless)
  }

  /// `find` on a pointer and a count each: a needle and a subject read where they are stored
  /// (a column's row, in SiftColumnar's kernels).
  ///
  /// ```swift
  /// n.withUnsafeBufferPointer { n in h.withUnsafeBufferPointer { h in
  ///   TextSearch.find(n.baseAddress!, count: n.count, in: h.baseAddress!, count: h.count, .prefix) } }
  /// ```
  @inlinable @inline(__always)
  package static func find(
    _ np: UnsafePointer<UInt8>, count: Int, in hp: UnsafePointer<UInt8>, count hCount: Int, _ position: Position,
    caseless: Bool = false
  ) -> Bool {
    guard count > 0, count <= hCount else { return false }
    @inline(__always) func at(_ offset: Int) -> Bool {
      if caseless {
        for i in 0..<count where lowerASCII(hp[offset + i]) != np[i] { return false }
        return true
      }
      return same(hp + offset, np, count)
    }
    switch position {
    case .prefix:
      return at(0)
    case .suffix:
      return at(hCount - count)
    case .anywhere:
      let first = np.pointee
      var i = 0
      let last = hCount - count
      while i <= last {
        if (caseless ? lowerASCII(hp[i]) : hp[i]) == first && at(i) { return true }
        i += 1
      }
      return false
    }
  }

  /// Whether the `n` bytes at `a` and `b` are the same, eight at a time (a call to `memcmp`
  /// per row cost more than comparing a short run in place).
  @inlinable @inline(__always)
  package static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
    var i = 0
    while i + 8 <= n {
      if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
        return false
      }
      i += 8
    }
    while i < n {
      if a[i] != b[i] { return false }
      i += 1
    }
    return true
  }

  /// The `n` bytes at `a` against the `m` at `b` in code-point order (UTF-8 byte order, then
  /// the shorter first): -1, 0 or 1. The order of strings without `[c]`/`[d]` (and of folded
  /// ones), in memory and in SiftColumnar's kernels. Eight bytes at a time as big-endian words
  /// (ISO-8601 text differs in its first eight, its year or month).
  ///
  /// ```swift
  /// // "ab" < "abc" < "b"
  /// ```
  @inlinable @inline(__always)
  package static func order(_ a: UnsafePointer<UInt8>, count n: Int, _ b: UnsafePointer<UInt8>, count m: Int) -> Int {
    let k = min(n, m)
    let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
    var i = 0
    while i + 8 <= k {
      let p = UInt64(bigEndian: x.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      let q = UInt64(bigEndian: y.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      if p != q { return p < q ? -1 : 1 }
      i += 8
    }
    while i < k {
      if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
      i += 1
    }
    return n == m ? 0 : (n < m ? -1 : 1)
  }

  // MARK: Runs of text one after another (a column's rows)
  //
  // One call for many strings stored end to end: run `k` is `bytes[ends[k - 1]..<ends[k]]`,
  // the first starting at `start`. SiftColumnar's kernels call these once per part of a
  // column: these helpers are not inlined across modules (not even `@inlinable` ones, Swift
  // 6.3, release), and a call per row cost BEGINSWITH[c] 3.4 -> 5.3 CPU ns a record
  // (`sift-bench --suite columnar`).

  /// 1 in `hits[k]` where run `k` is the `m` bytes at `needle`, else 0.
  package static func equal(
    runs bytes: UnsafePointer<UInt8>, from start: Int, ends: UnsafePointer<UInt32>, count n: Int,
    to needle: UnsafePointer<UInt8>, count m: Int, into hits: UnsafeMutablePointer<UInt8>
  ) {
    var s = start
    for k in 0..<n {
      let e = Int(ends[k])
      hits[k] = e - s == m && same(bytes + s, needle, m) ? 1 : 0
      s = e
    }
  }

  /// 1 in `hits[k]` where the `m` bytes at `needle` occur in run `k` at `position` (`find`).
  package static func find(
    _ needle: UnsafePointer<UInt8>, count m: Int, inRuns bytes: UnsafePointer<UInt8>, from start: Int,
    ends: UnsafePointer<UInt32>, count n: Int, _ position: Position, into hits: UnsafeMutablePointer<UInt8>
  ) {
    // One loop per position, each with its position a constant.
    @inline(__always) func each(_ position: Position) {
      var s = start
      for k in 0..<n {
        let e = Int(ends[k])
        hits[k] = find(needle, count: m, in: bytes + s, count: e - s, position) ? 1 : 0
        s = e
      }
    }
    switch position {
    case .anywhere: each(.anywhere)
    case .prefix: each(.prefix)
    case .suffix: each(.suffix)
    }
  }

  /// `orders[k]`: run `k` against the `m` bytes at `b` in `order` (-1, 0 or 1).
  package static func order(
    runs bytes: UnsafePointer<UInt8>, from start: Int, ends: UnsafePointer<UInt32>, count n: Int,
    against b: UnsafePointer<UInt8>, count m: Int, into orders: UnsafeMutablePointer<Int8>
  ) {
    var s = start
    for k in 0..<n {
      let e = Int(ends[k])
      orders[k] = Int8(truncatingIfNeeded: order(bytes + s, count: e - s, b, count: m))
      s = e
    }
  }

  /// An ASCII capital lower-cased; every other byte unchanged.
  @inlinable @inline(__always)
  package static func lowerASCII(_ b: UInt8) -> UInt8 { (b &- 0x41) < 26 ? b | 0x20 : b }

  /// Same as the buffer form, for arrays (handy in tests).
  ///
  /// ```swift
  /// TextSearch.find(Array("c".utf8), in: Array("abc".utf8), .suffix)   // true
  /// ```
  package static func find(_ n: [UInt8], in h: [UInt8], _ position: Position) -> Bool {
    n.withUnsafeBufferPointer { nb in h.withUnsafeBufferPointer { hb in find(nb, in: hb, position) } }
  }

  /// `body` on the string's UTF-8 bytes, in place when the string is contiguous.
  @inlinable @inline(__always)
  package static func bytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
    var s = s
    return s.withUTF8(body)
  }
}
