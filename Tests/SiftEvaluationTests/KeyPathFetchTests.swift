import Foundation
import SiftEvaluation
import SiftSyntax
import SiftTestSupport
import Testing

/// A request converted from `#Predicate`/`SortDescriptor` reads its values through key paths
/// (issue #32, "in memory without encoding"): a value whose `encode(to:)` refuses still
/// fetches, and the answers equal those over encoded values.
@Suite struct KeyPathFetchTests {
  enum Kind: String, Codable { case idea, todo }

  /// Encodes nothing: `encode(to:)` throws, so only the key-path path can read it.
  struct Sealed: Encodable, Equatable {
    var id: Int
    var title: String
    var rating: Int?
    var kind: Kind
    var tags: [String]
    var created: Date
    var place: Place

    struct Place: Codable, Equatable { var city: String }
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
  }

  static let values = (0..<40).map { i in
    Sealed(
      id: i, title: ["milk", "Bread", "apples", "é"][i % 4], rating: i % 5 == 0 ? nil : i % 7,
      kind: i % 3 == 0 ? .idea : .todo, tags: i % 2 == 0 ? ["a", "b"] : [],
      created: Date(timeIntervalSince1970: Double(i * 86_400)), place: Sealed.Place(city: i % 2 == 0 ? "Oslo" : "Rome"))
  }

  @Test func convertedRequestsReadKeyPathsNotEncoders() throws {
    let idea = Kind.idea, since = Date(timeIntervalSince1970: 5 * 86_400)
    let request = try SiftFetchRequest(
      entity: "Sealed",
      predicate: #Predicate<Sealed> {
        ($0.rating ?? 0) >= 2 && ($0.kind == idea || $0.tags.contains("a")) && $0.created > since
      },
      sortBy: [SortDescriptor(\.title), SortDescriptor(\.id, order: .reverse)], limit: 10, offset: 1)
    let got = try request.fetch(from: Self.values)
    let reference = Self.values.filter {
      ($0.rating ?? 0) >= 2 && ($0.kind == idea || $0.tags.contains("a")) && $0.created > since
    }.sorted { a, b in a.title != b.title ? a.title < b.title : a.id > b.id }
    #expect(got.map(\.id) == Array(reference.dropFirst().prefix(10)).map(\.id))
    #expect(try request.fetchCount(from: Self.values) == min(10, reference.count - 1))
    // Plain comparisons lower to one test (TypedLowering): still nothing encoded.
    let plain = try SiftFetchRequest(
      entity: "Sealed", predicate: #Predicate<Sealed> { $0.id > 3 && $0.title != "milk" },
      sortBy: [SortDescriptor(\.id)])
    #expect(
      try plain.fetch(from: Self.values).map(\.id) == Self.values.filter { $0.id > 3 && $0.title != "milk" }.map(\.id))
  }

  @Test func whatKeyPathsCannotReadIsEncoded() {
    // A nested chain and a format-string predicate need the encoded value: the refusal shows it.
    expectSiftError(id: "not-encodable", stage: .data) {
      _ = try SiftFetchRequest(entity: "Sealed", predicate: #Predicate<Sealed> { $0.place.city == "Oslo" })
        .fetch(from: Self.values)
    }
    expectSiftError(id: "not-encodable", stage: .data) {
      _ = try SiftFetchRequest(entity: "Sealed", predicate: try SiftPredicate(format: "id > 3")).fetch(
        from: Self.values)
    }
    // A format-string sort key the typed predicate does not read: encoded too.
    expectSiftError(id: "not-encodable", stage: .data) {
      var r = try SiftFetchRequest(entity: "Sealed", predicate: #Predicate<Sealed> { $0.id > 3 })
      r.sortDescriptors = [SiftSortDescriptor("title")]
      _ = try r.fetch(from: Self.values)
    }
  }

  @Test func keyPathAndEncodedAnswersAgree() throws {
    struct Note: Codable { var id: Int; var title: String; var rating: Int?; var kind: Kind; var tags: [String] }
    let notes = Self.values.map { Note(id: $0.id, title: $0.title, rating: $0.rating, kind: $0.kind, tags: $0.tags) }
    let todo = Kind.todo
    let typed = try SiftFetchRequest(
      entity: "Note", predicate: #Predicate<Note> { $0.kind == todo && !$0.tags.isEmpty || $0.rating == nil },
      sortBy: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.id)])
    var encoded = typed
    encoded.predicate = try SiftPredicate(format: typed.predicate?.predicateFormat ?? "")
    encoded.sortDescriptors = [SiftSortDescriptor("rating", ascending: false), SiftSortDescriptor("id")]
    #expect(encoded.predicate == typed.predicate)
    #expect(try typed.fetch(from: notes).map(\.id) == encoded.fetch(from: notes).map(\.id))
  }

  /// Comparisons of plain attributes with constants run as one Swift closure
  /// (`TypedLowering`): strings by code point as Sift compares them ("e\u{301}" is not "é"),
  /// the same answers as the tree evaluated over encoded values.
  @Test func compiledComparisonsAgreeWithTheEvaluator() throws {
    struct Row: Codable { var id: Int; var title: String; var on: Bool; var at: Date }
    let titles = ["é", "e\u{301}", "E", "milk", "Milk", "", "zz", "ß"]
    let rows = (0..<64).map {
      Row(id: $0, title: titles[$0 % titles.count], on: $0 % 3 == 0, at: Date(timeIntervalSince1970: Double($0 % 9)))
    }
    let acute = "é", at = Date(timeIntervalSince1970: 4)
    let predicates: [Predicate<Row>] = [
      #Predicate { $0.title == acute || $0.title > "m" },
      #Predicate { !($0.title <= "e") && $0.on },
      #Predicate { $0.id >= 10 && ($0.at < at || 40 < $0.id) && $0.title != "milk" },
      #Predicate { $0.on == false || $0.at == at },
    ]
    for p in predicates {
      let typed = try SiftFetchRequest(
        entity: "Row", predicate: p, sortBy: [SortDescriptor(\.title), SortDescriptor(\.id, order: .reverse)],
        limit: 20, offset: 2)
      var encoded = typed
      encoded.predicate = try SiftPredicate(format: typed.predicate?.predicateFormat ?? "")
      encoded.sortDescriptors = [SiftSortDescriptor("title"), SiftSortDescriptor("id", ascending: false)]
      let label = typed.predicate?.predicateFormat ?? ""
      #expect(try typed.fetch(from: rows).map(\.id) == encoded.fetch(from: rows).map(\.id), "\(label)")
      #expect(try typed.fetchCount(from: rows) == encoded.fetchCount(from: rows), "\(label)")
    }
  }
}
