/// The bytes of a dialect's placeholders, asked of the dialect once per `SQLCompiler` so
/// that finishing a statement copies bytes instead of building a `String` per bound value.
///
/// Placeholders 1 … `cached` are kept; a statement with more asks the dialect for the rest
/// (PostgreSQL's `$1000`, a custom dialect's whatever it likes).
///
/// ```swift
/// let p = SQLPlaceholders(PostgreSQLDialect())
/// let end = p.write(3, to: destination, at: 0, limit: 16)   // 2: "$3" written at destination[0...]
/// ```
final class SQLPlaceholders: Sendable {
  /// How many placeholders are kept ready.
  static let cached = 64

  let dialect: any SQLDialect
  /// True when every placeholder is the same text (SQLite's `?`).
  let allAlike: Bool
  /// Placeholder n's bytes are `text[ends[n - 1] ..< ends[n]]` (`ends[0]` is 0).
  private let text: [UInt8]
  private let ends: [Int]
  /// The most bytes a placeholder kept ready takes.
  let longestCached: Int

  init(_ dialect: any SQLDialect) {
    self.dialect = dialect
    allAlike = !dialect.placeholdersAreNumbered
    var text: [UInt8] = []
    var ends = [0]
    for n in 1...(allAlike ? 1 : SQLPlaceholders.cached) {
      text.append(contentsOf: dialect.placeholder(n).utf8)
      ends.append(text.count)
    }
    self.text = text
    self.ends = ends
    longestCached = zip(ends.dropFirst(), ends).map { $0 - $1 }.max() ?? 0
  }

  /// Writes placeholder `n` (1-based) at `dst[j...]`, within `limit` bytes of `dst`; returns
  /// the position after it, or nil when it does not fit.
  @inline(__always)
  func write(_ n: Int, to dst: UnsafeMutablePointer<UInt8>, at j: Int, limit: Int) -> Int? {
    let k = allAlike ? 1 : n
    if k < ends.count {
      let from = ends[k - 1]
      let length = ends[k] - from
      guard j + length <= limit else { return nil }
      text.withUnsafeBufferPointer { t in
        if let b = t.baseAddress { (dst + j).update(from: b + from, count: length) }
      }
      return j + length
    }
    var j = j
    for byte in dialect.placeholder(n).utf8 {
      guard j < limit else { return nil }
      dst[j] = byte
      j += 1
    }
    return j
  }
}
