import SiftSyntax

/// Turns fuzz text into a ready-to-run predicate for the evaluate, SQL and differential
/// oracles: parse, bind `%@`-style specifiers from the parse oracle's argument lists (the
/// first list that binds wins), and substitute every free `$VARIABLE` with 2. Nil when the
/// text does not parse or no list binds (the parse oracle covers those paths).
///
/// ```swift
/// PreparedInput.predicate("n > $X")?.predicateFormat   // "n > 2"
/// ```
public enum PreparedInput {
  /// The value every free variable gets.
  public static let variableValue: SiftValue = 2

  /// The bound, substituted predicate, or nil.
  public static func predicate(_ text: String) -> SiftPredicate? {
    guard let parsed = try? SiftPredicate.parse(text) else { return nil }
    var bound: SiftPredicate?
    for list in ParseOracle.argumentLists {
      let arguments = (0..<parsed.unboundArgumentCount).map { list[$0 % list.count] }
      if let b = try? parsed.binding(arguments) {
        bound = b
        break
      }
    }
    guard let bound else { return nil }
    let free = bound.variables
    if free.isEmpty { return bound }
    return bound.substituting(Dictionary(uniqueKeysWithValues: free.map { ($0, variableValue) }))
  }
}
