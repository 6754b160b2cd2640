import Foundation
import SiftSyntax
import Testing

/// Each kind of `PredicateExpressions` node → the format string it converts to, which parses
/// back to the same predicate (Typed predicates article, the conversion table).
@Suite("Typed predicates: #Predicate → format string")
struct TypedConversionTests {
  typealias Note = TypedNote

  struct Case: CustomStringConvertible, Sendable {
    var label: String
    var predicate: Predicate<Note>
    var expected: String
    var description: String { label }
  }

  static let day = Date(timeIntervalSinceReferenceDate: 86_400)
  static let idea = Note.Kind.idea
  static let uuid = UUID(uuidString: "01234567-89AB-CDEF-0123-456789ABCDEF") ?? UUID()
  static let names = ["a", "b"]

  static let cases: [Case] = {
    let day = Self.day, idea = Self.idea, names = Self.names, uuid = Self.uuid
    return [
      Case(label: "equal", predicate: #Predicate { $0.rating == 3 }, expected: "rating == 3"),
      Case(label: "not equal", predicate: #Predicate { $0.title != "x" }, expected: #"title != "x""#),
      Case(label: "less", predicate: #Predicate { $0.score < 2.5 }, expected: "score < 2.5"),
      Case(label: "at most", predicate: #Predicate { $0.rating <= 3 }, expected: "rating <= 3"),
      Case(label: "greater", predicate: #Predicate { $0.rating > -3 }, expected: "rating > -3"),
      Case(label: "at least", predicate: #Predicate { $0.title >= "m" }, expected: #"title >= "m""#),
      Case(
        label: "and", predicate: #Predicate { $0.pinned && $0.rating > 1 }, expected: "pinned == YES AND rating > 1"),
      Case(label: "or", predicate: #Predicate { $0.rating < 1 || $0.rating > 4 }, expected: "rating < 1 OR rating > 4"),
      Case(label: "not", predicate: #Predicate { !$0.pinned }, expected: "NOT pinned == YES"),
      Case(label: "bool", predicate: #Predicate { $0.pinned }, expected: "pinned == YES"),
      Case(label: "add", predicate: #Predicate { $0.rating + 1 > 3 }, expected: "rating + 1 > 3"),
      Case(label: "multiply", predicate: #Predicate { $0.score * 2 < 5 }, expected: "score * 2.0 < 5.0"),
      Case(label: "int division", predicate: #Predicate { $0.rating / 2 == 1 }, expected: "rating / 2 == 1"),
      Case(label: "float division", predicate: #Predicate { $0.score / 2 < 1 }, expected: "score / 2.0 < 1.0"),
      Case(label: "remainder", predicate: #Predicate { $0.rating % 2 == 0 }, expected: "modulus:by:(rating, 2) == 0"),
      Case(label: "minus", predicate: #Predicate { -$0.rating < 0 }, expected: "-rating < 0"),
      Case(
        label: "conditional", predicate: #Predicate { ($0.pinned ? $0.rating : 0) > 2 },
        expected: "TERNARY(pinned == YES, rating, 0) > 2"),
      Case(label: "nil", predicate: #Predicate { $0.body == nil }, expected: "body == nil"),
      Case(
        label: "optional chain", predicate: #Predicate { $0.place?.city == "Oslo" }, expected: #"place.city == "Oslo""#),
      Case(
        label: "nil coalescing", predicate: #Predicate { ($0.body ?? "") == "" },
        expected: #"TERNARY(body != nil, body, "") == """#),
      Case(
        label: "contains text", predicate: #Predicate { $0.title.contains("ab") }, expected: #"title CONTAINS "ab""#),
      Case(
        label: "starts with", predicate: #Predicate { $0.title.starts(with: "a") }, expected: #"title BEGINSWITH "a""#),
      Case(label: "empty needle", predicate: #Predicate { $0.title.starts(with: "") }, expected: "TRUEPREDICATE"),
      Case(
        label: "needle from a key path", predicate: #Predicate { $0.title.contains($0.body ?? "x") },
        expected: #"TERNARY(body != nil, body, "x") == "" OR title CONTAINS TERNARY(body != nil, body, "x")"#),
      Case(label: "contains element", predicate: #Predicate { $0.tags.contains("x") }, expected: #"tags CONTAINS "x""#),
      Case(label: "in captured", predicate: #Predicate { names.contains($0.title) }, expected: #"title IN {"a", "b"}"#),
      Case(
        label: "contains where", predicate: #Predicate { $0.tags.contains { $0 == "x" } }, expected: #"ANY tags == "x""#
      ),
      Case(
        label: "all satisfy", predicate: #Predicate { $0.tags.allSatisfy { $0 != "x" } }, expected: #"ALL tags != "x""#),
      Case(
        label: "filter count", predicate: #Predicate { $0.tags.filter { $0.starts(with: "a") }.count > 1 },
        expected: #"SUBQUERY(tags, $x1, $x1 BEGINSWITH "a").@count > 1"#),
      Case(label: "count", predicate: #Predicate { $0.tags.count > 1 }, expected: "tags.@count > 1"),
      Case(label: "is empty", predicate: #Predicate { $0.tags.isEmpty }, expected: "tags.@count == 0"),
      Case(label: "text is empty", predicate: #Predicate { $0.title.isEmpty }, expected: #"title == """#),
      Case(label: "max", predicate: #Predicate { $0.tags.max() == "z" }, expected: #"tags.@max == "z""#),
      Case(label: "min", predicate: #Predicate { $0.tags.min() == "a" }, expected: #"tags.@min == "a""#),
      Case(label: "first", predicate: #Predicate { $0.tags.first == "a" }, expected: #"tags[FIRST] == "a""#),
      Case(
        label: "range", predicate: #Predicate { (1..<3).contains($0.rating) }, expected: "rating >= 1 AND rating < 3"),
      Case(
        label: "closed range", predicate: #Predicate { (1...3).contains($0.rating) }, expected: "rating BETWEEN {1, 3}"),
      Case(label: "enum", predicate: #Predicate { $0.kind == idea }, expected: #"kind == "idea""#),
      Case(
        label: "date", predicate: #Predicate { $0.updatedAt > day },
        expected: #"updatedAt > CAST("2001-01-02T00:00:00Z", "NSDate")"#),
      Case(label: "uuid", predicate: #Predicate { $0.ref == uuid }, expected: #"ref == "\#(Self.uuid)""#),
      Case(label: "true", predicate: #Predicate { _ in true }, expected: "TRUEPREDICATE"),
    ]
  }()

  @Test(arguments: cases) func converts(_ c: Case) throws {
    let p = try SiftPredicate(c.predicate)
    #expect(p.predicateFormat == c.expected)
    #expect(try SiftPredicate(format: p.predicateFormat) == p, "reparses to the same tree")
  }
}
