/// A hashable stand-in for a value that agrees with Sift's `==` under no options: integral
/// doubles and booleans are the integers they equal (`1`, `1.0` and `true` are one key),
/// strings compare by their Unicode scalars (`TextSearch.equals`; Swift's `String` equality would
/// merge `"é"` with `"e\u{301}"`), no string ↔ number coercion, nil equal to nil.
///
/// The one rule for telling values apart wherever values are collected: memory's `distinct`,
/// `mode`, group-by and set operators, and the SQL compiler's fold of set expressions.
///
/// ```swift
/// SiftValueKey(.double(1)) == SiftValueKey(.bool(true))   // true
/// SiftValueKey(.string("1")) == SiftValueKey(.int(1))     // false
/// ```
package enum SiftValueKey: Hashable {
  case value(SiftValue)
  case text(Text)

  /// A string hashed and compared by its UTF-8 bytes (no copy, no normalization).
  package struct Text: Hashable {
    let text: String

    package static func == (a: Text, b: Text) -> Bool { TextSearch.equals(a.text, b.text, []) }

    package func hash(into hasher: inout Hasher) {
      var t = text
      t.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  package init(_ v: SiftValue) {
    switch v {
    case .bool(let b): self = .value(.int(b ? 1 : 0))
    case .double(let d):
      if d == d.rounded(), let i = Int64(exactly: d) { self = .value(.int(i)) } else { self = .value(.double(d)) }
    case .string(let s): self = .text(Text(text: s))
    default: self = .value(v)
    }
  }
}
