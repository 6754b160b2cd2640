/// A half-open range of UTF-8 byte offsets into a predicate's source text.
///
/// Ranges are attached to tokens, AST nodes and diagnostics. They never take part in AST
/// equality: two predicates that mean the same thing compare equal wherever they came from.
///
/// ```swift
/// let r = SiftSourceRange(start: 5, end: 7)   // the bytes 5 and 6
/// ```
public struct SiftSourceRange: Sendable, Hashable, CustomStringConvertible {
  /// Offset of the first byte.
  public var start: Int
  /// Offset one past the last byte.
  public var end: Int

  /// Creates a range; `end` is raised to `start` if it is smaller.
  public init(start: Int, end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// An empty range at one offset (a caret position).
  public static func at(_ offset: Int) -> SiftSourceRange { SiftSourceRange(start: offset, end: offset) }

  /// The smallest range covering both.
  public func union(_ other: SiftSourceRange) -> SiftSourceRange {
    SiftSourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  /// Number of bytes covered.
  public var length: Int { end - start }

  /// `start..<end`.
  public var description: String { "\(start)..<\(end)" }
}

/// A human-readable position: 1-based line and column, the column counted in `Character`s.
///
/// ```swift
/// let loc = SiftSourcePosition(offset: 7, in: "a == 1\nb")   // line 2, column 1
/// ```
public struct SiftSourcePosition: Sendable, Hashable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column, in user-perceived characters.
  public var column: Int
  /// The UTF-8 offset this location was computed from.
  public var offset: Int

  /// Computes the line and column of a UTF-8 offset in `source`. Offsets past the end clamp.
  public init(offset: Int, in source: String) {
    let utf8 = source.utf8
    let clamped = max(0, min(offset, utf8.count))
    var line = 1
    var lineStart = utf8.startIndex
    var index = utf8.startIndex
    let target = utf8.index(utf8.startIndex, offsetBy: clamped)
    while index < target {
      if utf8[index] == UInt8(ascii: "\n") {
        line += 1
        lineStart = utf8.index(after: index)
      }
      index = utf8.index(after: index)
    }
    // Columns count user-perceived characters from the line start to the offset.
    let column = String(decoding: utf8[lineStart..<target], as: UTF8.self).count + 1
    self.line = line
    self.column = column
    self.offset = clamped
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
