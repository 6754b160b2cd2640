import Foundation
import SiftCoreData
import SiftSyntax
import Testing

/// Converted `#Predicate`s and `SortDescriptor`s over a Core Data store give what Foundation's
/// own `predicate.evaluate` and `sorted(using:)` give over the same books.
@Suite("Typed predicates on a Core Data store")
struct TypedStorePredicateTests {
  typealias Book = TypedStoreFetchTests.Book

  static let year2020 = Date(timeIntervalSince1970: 1_577_836_800)

  static let predicates: [(String, Predicate<Book>)] = {
    let year2020 = Self.year2020, long = 250, o = "o", past = Date.distantPast
    return [
      ("true", #Predicate<Book> { _ in true }),
      ("date", #Predicate<Book> { ($0.createdAt ?? past) > year2020 }),
      ("nil", #Predicate<Book> { $0.createdAt == nil || $0.inPrint == false }),
      ("bool", #Predicate<Book> { $0.inPrint == true }),
      ("optional int", #Predicate<Book> { ($0.pages ?? 0) >= long }),
      ("text", #Predicate<Book> { $0.title.contains(o) && !$0.title.starts(with: "The") }),
      ("range", #Predicate<Book> { (200...290).contains($0.pages ?? 0) }),
    ]
  }()

  @Test func storeAgreesWithFoundation() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let store = try OpenedStore(script: "Library.sql", model: model).store
    let orders: [[SortDescriptor<Book>]] = [[SortDescriptor(\.title)], [SortDescriptor(\.pages, order: .reverse)]]
    for (label, predicate) in Self.predicates {
      for order in orders {
        let expected = try TypedStoreFetchTests.books.filter { try predicate.evaluate($0) }.sorted(using: order)
        let request = try SiftFetchRequest(entity: "Book", predicate: predicate, sortBy: order)
        #expect(try store.fetch(request, as: Book.self) == expected, "\(label) \(request.sortDescriptors)")
      }
    }
  }
}
