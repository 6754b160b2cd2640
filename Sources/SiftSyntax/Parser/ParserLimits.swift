/// Resource limits for parsing. Exceeding one is a diagnostic, never a crash.
///
/// ```swift
/// var limits = ParserLimits()
/// limits.maxDepth = 32
/// let p = try SiftPredicate.parse("a == 1", limits: limits)
/// ```
public struct ParserLimits: Sendable, Hashable {
  /// Maximum nesting: parentheses, unary operators, and the height of the resulting tree.
  /// The flat AND/OR lists do not count, so a 10,000-term OR chain is fine.
  public var maxDepth: Int
  /// Maximum input size in UTF-8 bytes.
  public var maxInputBytes: Int

  /// Defaults: depth 128, input 4 MiB.
  public init(maxDepth: Int = 128, maxInputBytes: Int = 4 << 20) {
    self.maxDepth = maxDepth
    self.maxInputBytes = maxInputBytes
  }
}
