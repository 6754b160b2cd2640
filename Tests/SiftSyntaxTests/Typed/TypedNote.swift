import Foundation

/// The struct the typed-predicate tests convert predicates over.
struct TypedNote: Codable, Sendable, Equatable {
  enum Kind: String, Codable, Sendable { case idea, todo }
  struct Place: Codable, Sendable, Equatable {
    var city: String
    var zip: Int?
  }

  var title: String
  var rating: Int
  var score: Double
  var pinned: Bool
  var body: String?
  var due: Date?
  var kind: Kind
  var place: Place?
  var tags: [String]
  var updatedAt: Date
  var ref: UUID

  /// Not stored: a computed property has no attribute to name.
  var shout: String { title.uppercased() }
}
