import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

/// The outputs README and the Typed predicates article print for their `#Predicate` examples.
@Suite("Typed predicates: README and article examples")
struct TypedReadmeTests {
  struct Note: Codable, Sendable {
    var title: String
    var rating: Int
  }

  struct TaggedNote: Codable, Sendable {
    var title: String
    var rating: Int
    var pinned: Bool
    var updatedAt: Date
    var tags: [String]
  }

  @Test func readmeExample() throws {
    let notes = [Note(title: "Milk", rating: 2), Note(title: "Swift", rating: 5), Note(title: "Linux", rating: 4)]
    let rated = #Predicate<Note> { $0.rating > 3 }
    #expect(try SiftPredicate(rated).description == "rating > 3")
    let request = try SiftFetchRequest(entity: "note", predicate: rated, sortBy: [SortDescriptor(\Note.title)])
    #expect(try request.fetch(from: notes).map(\.title) == ["Linux", "Swift"])
  }

  @Test func articleExample() throws {
    let minimum = 3
    let predicate = #Predicate<TaggedNote> {
      $0.rating >= minimum && ($0.pinned || $0.tags.contains("swift"))
    }
    #expect(try SiftPredicate(predicate).description == #"rating >= 3 AND (pinned == YES OR tags CONTAINS "swift")"#)
    let request = try SiftFetchRequest(
      entity: "note", predicate: predicate, sortBy: [SortDescriptor(\TaggedNote.updatedAt, order: .reverse)],
      limit: 20, keys: .snakeCase)
    #expect("\(request.sortDescriptors)" == "[updated_at desc]")
  }
}
