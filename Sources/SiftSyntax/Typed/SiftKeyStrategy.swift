/// How the Swift property names of a typed predicate or sort descriptor map to the names a
/// store holds (the attribute names of a schema, the keys of encoded records).
///
/// ```swift
/// let p = try SiftPredicate(#Predicate<Note> { $0.updatedAt > lastWeek }, keys: .snakeCase)
/// p.predicateFormat   // updated_at > CAST(…, "NSDate")
/// ```
public enum SiftKeyStrategy: Sendable, Hashable {
  /// The Swift name as it is (`updatedAt` stays `updatedAt`), as `JSONEncoder` writes keys by
  /// default.
  case exact
  /// `updatedAt` becomes `updated_at`, `imageURL` becomes `image_url`: the reverse of
  /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` (the spelling
  /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` writes).
  case snakeCase
  /// Each Swift name found in the dictionary becomes its value; any other stays as it is.
  case mapped([String: String])

  /// The stored name of one Swift property name.
  ///
  /// ```swift
  /// SiftKeyStrategy.snakeCase.storedName("imageURLText")   // "image_url_text"
  /// ```
  public func storedName(_ swiftName: String) -> String {
    switch self {
    case .exact: return swiftName
    case .snakeCase: return SiftKeyStrategy.snakeCased(swiftName)
    case .mapped(let names): return names[swiftName] ?? swiftName
    }
  }

  /// `JSONEncoder`'s `convertToSnakeCase`, step for step: a word ends before each capital; a
  /// run of capitals is one word up to the capital before the next lower-case letter
  /// (`myURLText` → `my_url_text`); every word is lower-cased and joined with `_`.
  static func snakeCased(_ key: String) -> String {
    let c = Array(key)
    guard !c.isEmpty else { return key }
    var words: [Range<Int>] = []
    var wordStart = 0
    var search = 1
    while let upper = (search..<c.count).first(where: { c[$0].isUppercase }) {
      words.append(wordStart..<upper)
      guard let lower = (upper..<c.count).first(where: { c[$0].isLowercase }) else {
        wordStart = upper
        search = c.count
        break
      }
      if lower == upper + 1 {
        wordStart = upper
      } else {
        words.append(upper..<(lower - 1))
        wordStart = lower - 1
      }
      search = lower + 1
    }
    words.append(wordStart..<c.count)
    return words.map { String(c[$0]).lowercased() }.joined(separator: "_")
  }
}
