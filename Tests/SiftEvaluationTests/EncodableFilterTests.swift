import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// The user's own `Encodable` values in memory: `filter`, `fetch(from:)`, and errors as
/// `SiftError`.
@Suite("Encodable values in memory")
struct EncodableFilterTests {
  struct Note: Encodable {
    var title: String
    var pinned: Bool
    var createdAt: Date
    var due: Date?
  }

  struct Broken: Encodable {
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
  }

  static let notes = [
    Note(title: "Buy milk", pinned: true, createdAt: Date(timeIntervalSince1970: 100), due: nil),
    Note(
      title: "Call Ada", pinned: false, createdAt: Date(timeIntervalSince1970: 200),
      due: Date(timeIntervalSince1970: 300)),
    Note(title: "Plan trip", pinned: true, createdAt: Date(timeIntervalSince1970: 300), due: nil),
  ]

  @Test func filterTakesEncodableValues() throws {
    let since = Date(timeIntervalSince1970: 150)
    let m = try SiftPredicate(format: "pinned == YES AND createdAt > %@", since).compile()
    #expect(try m.filter(Self.notes).map(\.title) == ["Plan trip"])
    let noDue = try SiftPredicate(format: "due == nil").compile()
    #expect(try noDue.filter(Self.notes).map(\.title) == ["Buy milk", "Plan trip"])
    let request = SiftFetchRequest(
      entity: "Note", predicate: try SiftPredicate(format: "title CONTAINS[c] %@", "a"),
      sortDescriptors: [SiftSortDescriptor("createdAt", ascending: false)])
    #expect(try request.fetch(from: Self.notes).map(\.title) == ["Plan trip", "Call Ada"])
    #expect(try request.fetchCount(from: Self.notes) == 2)
  }

  @Test func aValueThatFailsToEncodeIsASiftError() throws {
    let m = try SiftPredicate(format: "TRUEPREDICATE").compile()
    let error = expectSiftError(id: "not-encodable", stage: .data) { try m.filter([Broken()]) }
    #expect(error?.stage == .data && error?.id == "not-encodable")
    #expect(error?.underlying is Broken.Refused)
    let plain = expectSiftError(id: "not-encodable", stage: .data) { try SiftRecordEncoder.record(5) }
    #expect(plain?.message == "Int does not encode as a keyed record")
  }
}
