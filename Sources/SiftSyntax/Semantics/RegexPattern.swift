import Foundation

/// A compiled `MATCHES` pattern: an ICU regular expression (NSRegularExpression syntax) that
/// must match the whole string. `[c]` makes it case-insensitive; `[d]` folds diacritics out
/// of both the pattern and the subject first.
///
/// Shared by in-memory evaluation and the `REGEXP`/`sift_matches` SQLite functions.
///
/// ```swift
/// let r = try RegexPattern("(Blue|Red) .*", options: [])
/// r.matches("Red bar")   // true
/// r.matches("A Red bar") // false: whole-string
/// ```
public struct RegexPattern: @unchecked Sendable {
  /// The pattern as written.
  public let pattern: String
  /// The options it was compiled with.
  public let options: ComparisonOptions
  // NSRegularExpression is immutable and documented thread-safe for matching.
  let regex: NSRegularExpression

  /// Why a pattern could not be compiled.
  public struct InvalidPattern: Error, Sendable, CustomStringConvertible {
    /// The pattern.
    public var pattern: String
    /// ICU's explanation.
    public var reason: String
    /// "invalid regular expression …: reason".
    public var description: String { "invalid regular expression \"\(pattern)\": \(reason)" }
  }

  /// Compiles a pattern; an invalid one throws instead of crashing.
  public init(_ pattern: String, options: ComparisonOptions = []) throws(InvalidPattern) {
    self.pattern = pattern
    self.options = options
    let source = options.contains(.diacriticInsensitive)
      ? TextFolding.fold(pattern, [.diacriticInsensitive]) : pattern
    var nsOptions: NSRegularExpression.Options = []
    if options.contains(.caseInsensitive) { nsOptions.insert(.caseInsensitive) }
    do {
      // Validate the pattern on its own first, so wrapping cannot change what it means.
      _ = try NSRegularExpression(pattern: source, options: nsOptions)
      regex = try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: nsOptions)
    } catch {
      throw InvalidPattern(pattern: pattern, reason: (error as NSError).localizedDescription)
    }
  }

  /// True when the whole of `text` matches.
  public func matches(_ text: String) -> Bool {
    let subject = options.contains(.diacriticInsensitive)
      ? TextFolding.fold(text, [.diacriticInsensitive]) : text
    let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
    return regex.firstMatch(in: subject, options: [], range: range) != nil
  }
}
