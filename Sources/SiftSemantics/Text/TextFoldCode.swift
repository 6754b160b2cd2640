/// The part of `ComparisonOptions` that changes an answer, `[c]` and `[d]`, as it travels to
/// SQL: the integer `opts` argument of Sift's SQL functions. This is the one contract between
/// the SQL compiler, which writes `sql`, and the functions that read it back:
///
/// | function | where |
/// | --- | --- |
/// | `sift_fold(text, opts)` | SQLite (`SQLiteFunctions`, `init(wire:)`); PL/pgSQL (`PostgresFoldingSQL`) |
/// | `sift_search(h, n, kind, opts)`, `sift_like(t, p, opts)`, `sift_matches(t, p, opts)` | SQLite |
///
/// Wire encoding: bit 1 (`1`) is `[c]`, bit 2 (`2`) is `[d]`; `3` is both and `0` neither.
/// `[n]` and `[l]` change nothing and never travel; a reader ignores every other bit.
/// In-memory evaluation keeps the same two options (`TextRule`), so both fold alike.
///
/// ```swift
/// let o = TextFoldCode([.caseInsensitive, .normalized])   // [n] dropped
/// o.sql                                                  // "1", as in sift_fold(name, 1)
/// TextFoldCode(wire: 3).options                          // [cd]
/// ```
package struct TextFoldCode: Sendable, Hashable {
  /// 0…3: bit 1 `[c]`, bit 2 `[d]`.
  package let rawValue: UInt8

  /// The bits a reader keeps; every other bit is ignored.
  package static let mask: UInt8 = 3
  /// No folding (`0`): strings compare as written.
  package static let none = TextFoldCode(rawValue: 0)
  /// `[c]` (`1`): full Unicode case folding; also `SiftSortDescriptor.Comparison.caseInsensitive`.
  package static let caseInsensitive = TextFoldCode(rawValue: 1)
  /// `[d]` (`2`): diacritics removed.
  package static let diacriticInsensitive = TextFoldCode(rawValue: 2)

  init(rawValue: UInt8) { self.rawValue = rawValue & Self.mask }

  /// The folding a comparison's options ask for (`[c]`, `[d]`; `[n]`/`[l]` dropped).
  package init(_ options: ComparisonOptions) { self.init(rawValue: options.rawValue) }

  /// The code an SQL function received as its `opts` argument.
  package init(wire code: Int64) { self.init(rawValue: UInt8(truncatingIfNeeded: code)) }

  /// The options to fold with (`TextFolding.fold(s, code.options)`).
  package var options: ComparisonOptions { ComparisonOptions(rawValue: rawValue) }
  /// No folding at all.
  package var isEmpty: Bool { rawValue == 0 }
  /// `[c]` is part of it.
  package var caseless: Bool { rawValue & Self.caseInsensitive.rawValue != 0 }
  /// Only its `[d]` part (PostgreSQL's `~*` already ignores case).
  package var diacriticsOnly: TextFoldCode { TextFoldCode(rawValue: rawValue & Self.diacriticInsensitive.rawValue) }
  /// The wire code as SQL text, e.g. `"1"` in `sift_fold(name, 1)`. It is a constant of the
  /// statement's shape (an expression index on `sift_fold(column, 1)` must see the literal),
  /// never a value from the user.
  package var sql: String { String(rawValue) }

  /// `s` folded as the SQL functions fold it.
  package func fold(_ s: String) -> String { isEmpty ? s : TextFolding.fold(s, options) }
}
