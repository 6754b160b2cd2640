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

  /// The Swift property name a stored name decodes into: the reverse of `storedName(_:)`, as
  /// `JSONDecoder` reads keys (`.snakeCase`: `convertFromSnakeCase`, so `updated_at` fills
  /// `updatedAt`; like `JSONDecoder`, `image_url` fills `imageUrl`, not `imageURL`: map such a
  /// name explicitly).
  ///
  /// ```swift
  /// SiftKeyStrategy.snakeCase.swiftName("updated_at")   // "updatedAt"
  /// ```
  public func swiftName(_ storedName: String) -> String {
    switch self {
    case .exact: return storedName
    case .snakeCase: return SiftKeyStrategy.camelCased(storedName)
    case .mapped(let names): return names.first { $0.value == storedName }?.key ?? storedName
    }
  }

  /// `JSONDecoder`'s `convertFromSnakeCase`, step for step: leading and trailing underscores
  /// kept, the words between underscores joined, the first lower-cased and the others
  /// capitalized; a name without an inner underscore is kept as it is.
  static func camelCased(_ key: String) -> String {
    let c = Array(key)
    guard let first = c.firstIndex(where: { $0 != "_" }) else { return key }
    var last = c.count - 1
    while last > first && c[last] == "_" { last -= 1 }
    let words = c[first...last].split(separator: "_")
    guard words.count > 1 else { return key }
    let joined =
      String(words[0]).lowercased()
      + words.dropFirst().map { w in String(w.prefix(1)).uppercased() + String(w.dropFirst()).lowercased() }.joined()
    return String(c[..<first]) + joined + String(c[(last + 1)...])
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
