import Foundation
import SiftSyntax
import Testing

/// What has no store equivalent is refused at conversion, with a stable id and a message
/// naming the expression; key strategies name stored attributes; sort descriptors convert.
@Suite("Typed predicates: refusals, key strategies, sort descriptors")
struct TypedRefusalTests {
  typealias Note = TypedNote

  func refusal(_ p: Predicate<Note>, keys: SiftKeyStrategy = .exact) -> SiftError? {
    do {
      _ = try SiftPredicate(p, keys: keys)
      return nil
    } catch {
      return error
    }
  }

  @Test func computedPropertyIsRefused() throws {
    let e = try #require(refusal(#Predicate { $0.shout == "A" }))
    #expect(e.id == "unconvertible-key-path")
    #expect(e.stage == .convert)
    #expect(e.message.contains("computed"))
  }

  @Test func forceUnwrapIsRefused() throws {
    let e = try #require(refusal(#Predicate { $0.body! == "A" }))
    #expect(e.id == "unconvertible-expression")
    #expect(e.message.contains("ForcedUnwrap"))
  }

  @Test func subscriptIsRefused() throws {
    let e = try #require(refusal(#Predicate { $0.tags[0] == "A" }))
    #expect(e.id == "unconvertible-expression")
    #expect(e.message.contains("CollectionIndexSubscript"))
  }

  @Test func rawValueIsRefusedWithAHint() throws {
    let e = try #require(refusal(#Predicate { $0.kind.rawValue == "todo" }))
    #expect(e.id == "unconvertible-key-path")
    #expect(e.message.contains("compare the enum itself"))
  }

  @Test func textCountIsRefused() throws {
    let e = try #require(refusal(#Predicate { $0.title.count > 2 }))
    #expect(e.id == "unconvertible-key-path")
  }

  @Test func arrayPrefixIsRefused() throws {
    let e = try #require(refusal(#Predicate { $0.tags.starts(with: ["a"]) }))
    #expect(e.id == "unconvertible-expression")
    #expect(e.message.contains("starts(with:)"))
  }

  @Test func valueWithoutSiftValueIsRefused() throws {
    let oslo: Note.Place? = Note.Place(city: "Oslo", zip: nil)
    let e = try #require(refusal(#Predicate { $0.place == oslo }))
    #expect(e.id == "unconvertible-value")
    #expect(e.message.contains("Place"))
  }

  /// A tree deeper than the parser's depth limit (a decoded `Predicate` can be any depth) is
  /// refused, not walked until the stack runs out.
  @Test func deepTreeIsRefused() throws {
    func negated(_ e: some StandardPredicateExpression<Bool>, _ n: Int) -> any StandardPredicateExpression<Bool> {
      n == 0 ? e : negated(PredicateExpressions.Negation(e), n - 1)
    }
    let shallow = Predicate<Note> { negated(PredicateExpressions.KeyPath(root: $0, keyPath: \.pinned), 100) }
    #expect(try SiftPredicate(shallow).predicateFormat.hasPrefix("NOT NOT"))
    let deep = Predicate<Note> { negated(PredicateExpressions.KeyPath(root: $0, keyPath: \.pinned), 1_000) }
    #expect(throws: SiftError.self) { try SiftPredicate(deep) }
    do { _ = try SiftPredicate(deep) } catch { #expect(error.id == "nesting-too-deep") }
  }

  @Test func snakeCaseKeys() throws {
    let day = Date(timeIntervalSinceReferenceDate: 0)
    let p = try SiftPredicate(#Predicate<Note> { $0.updatedAt > day && $0.place?.zip == 7 }, keys: .snakeCase)
    #expect(p.predicateFormat == #"updated_at > CAST("2001-01-01T00:00:00Z", "NSDate") AND place.zip == 7"#)
    let m = try SiftPredicate(#Predicate<Note> { $0.updatedAt > day }, keys: .mapped(["updatedAt": "modified"]))
    #expect(m.predicateFormat == #"modified > CAST("2001-01-01T00:00:00Z", "NSDate")"#)
  }

  /// The snake_case names are JSONEncoder's own `convertToSnakeCase` spelling.
  @Test func snakeCaseMatchesJSONEncoder() throws {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    struct One: Encodable {
      var name: String
      func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(1, forKey: Key(stringValue: name))
      }
    }
    let names = [
      "a", "updatedAt", "imageURL", "imageURLText", "myHTTPServer", "URL", "ABc", "x1Y2", "already_snake", "aBC",
      "_leading", "trailing_", "éÉé", "oneTwoThree",
    ]
    for name in names {
      let encoder = JSONEncoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      let json = try JSONSerialization.jsonObject(with: try encoder.encode(One(name: name))) as? [String: Int]
      #expect(json?.keys.first == SiftKeyStrategy.snakeCase.storedName(name), "\(name)")
    }
  }

  /// The decoding direction is JSONDecoder's own `convertFromSnakeCase`.
  @Test func swiftNamesMatchJSONDecoder() throws {
    let names = [
      "updated_at", "a", "image_url", "_leading_word", "trailing_word__", "__", "x_1_y", "already", "HTTP_server",
      "one_two_three", "a__b", "é_é",
    ]
    struct AnyKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    struct Keys: Decodable {
      var names: [String]
      init(from decoder: any Decoder) throws {
        names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
      }
    }
    for name in names {
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let keys = try decoder.decode(Keys.self, from: Data(#"{"\#(name)": 1}"#.utf8))
      #expect(keys.names == [SiftKeyStrategy.snakeCase.swiftName(name)], "\(name)")
    }
    #expect(SiftKeyStrategy.mapped(["updatedAt": "modified"]).swiftName("modified") == "updatedAt")
  }

  @Test func sortDescriptors() throws {
    #expect(try SiftSortDescriptor(SortDescriptor(\Note.rating, order: .reverse)).description == "rating desc")
    #expect(try SiftSortDescriptor(SortDescriptor(\Note.title, comparator: .lexical)).description == "title asc")
    #expect(try SiftSortDescriptor(SortDescriptor(\Note.due)).description == "due asc")
    #expect(
      try SiftSortDescriptor(SortDescriptor(\Note.updatedAt), keys: .snakeCase).description == "updated_at asc")
    #expect(try SiftSortDescriptor(SortDescriptor(\Note.place?.zip)).description == "place.zip asc")
    do {
      _ = try SiftSortDescriptor(SortDescriptor(\Note.shout))
      Issue.record("a computed property converted")
    } catch {
      #expect(error.id == "unconvertible-key-path")
    }
  }

  @Test func fetchRequest() throws {
    let r = try SiftFetchRequest(
      entity: "note", predicate: #Predicate<Note> { $0.pinned }, sortBy: [SortDescriptor(\.title)], limit: 2,
      offset: 1)
    #expect(r.predicate?.predicateFormat == "pinned == YES")
    #expect(r.sortDescriptors == [SiftSortDescriptor("title")])
    #expect(r.limit == 2 && r.offset == 1 && r.entity == "note")
  }
}
