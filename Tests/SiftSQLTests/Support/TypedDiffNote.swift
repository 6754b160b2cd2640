import Foundation
import SiftSQL
import SiftSyntax

/// The struct of the typed differential test: every scalar kind a store holds, optionals, an
/// enum with a raw value and a string array. `generate` makes deterministic values.
struct TypedDiffNote: Codable, Sendable, Equatable {
  enum Kind: String, Codable, Sendable { case idea, todo, done }

  var title: String
  var rating: Int
  var score: Double
  var pinned: Bool
  var body: String?
  var due: Date?
  var kind: Kind
  var tags: [String]

  static let schema = """
    {"entities": {"TypedNote": {"table": "typed_note", "attributes": {
      "title": "string", "rating": "integer", "score": "double", "pinned": "boolean", "body": "string",
      "due": "date", "kind": "string", "tags": "stringArray"}}}}
    """

  static let words = ["", "a", "ab", "abc", "b", "ba", "B", "Zed", "zed", "x y", "milk", "mi", "é", "É", "ß", "ﬁ"]

  /// `count` notes from `seed`: small integers (no overflow), halves as scores, whole-second
  /// dates, nil in a fifth of the optionals.
  static func generate(_ count: Int, seed: UInt64) -> [TypedDiffNote] {
    var g = SeededRandom(seed: seed)
    return (0..<count).map { _ in
      TypedDiffNote(
        title: g.pick(words), rating: g.int(in: -2...6), score: Double(g.int(in: -4...12)) / 2,
        pinned: g.chance(0.5), body: g.chance(0.2) ? nil : g.pick(words),
        due: g.chance(0.2) ? nil : Date(timeIntervalSinceReferenceDate: Double(g.int(in: 0...5) * 86_400)),
        kind: g.pick([.idea, .todo, .done]), tags: (0..<g.int(in: 0...3)).map { _ in g.pick(words) })
    }
  }
}
