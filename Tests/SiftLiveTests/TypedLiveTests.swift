import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLive
@testable import SiftLiveSQLite

/// Live results over the caller's own values (issue #32): `[Note]` in, `Note` out, edits in
/// `Note`s, Swift's own `#Predicate` and `SortDescriptor`; an SQLite live table's rows as a
/// `Decodable` type.
@Suite struct TypedLiveTests {
  enum Status: String, Codable { case open, done }

  struct Note: Codable, Equatable {
    var id: Int
    var title: String
    var rating: Int
    var pinned: Bool
    var status: Status
    var due: Date?
  }

  static let notes = [
    Note(id: 1, title: "Milk", rating: 2, pinned: true, status: .open, due: nil),
    Note(id: 2, title: "Bread", rating: 5, pinned: false, status: .done, due: Date(timeIntervalSince1970: 100)),
    Note(id: 3, title: "Apples", rating: 4, pinned: true, status: .open, due: Date(timeIntervalSince1970: 50)),
  ]

  @Test func swiftPredicateOverOwnValues() throws {
    let live = try SiftLiveResults(
      values: Self.notes, id: \.id, predicate: #Predicate<Note> { $0.rating >= 3 || $0.pinned },
      sortDescriptors: [SortDescriptor(\.title)])
    #expect(live.ids == [3, 2, 1])
    let milk: Note? = live.record(for: 1)
    #expect(milk == Self.notes[0])
    var changed = Self.notes[0]
    changed.pinned = false
    let cs = try live.apply([
      .update(1, changed),
      .insert(
        4,
        Note(
          id: 4, title: "Cheese", rating: 3, pinned: false,
          status: .done, due: nil)),
    ])
    #expect(live.ids == [3, 2, 4])
    #expect(cs.deleted == [SiftIndexPath(section: 0, item: 2)])
    #expect(live.record(for: 1)?.pinned == false)
    #expect(try live.refetchedSections() == live.sections)
  }

  @Test func enumRawValuesInPredicatesAndSections() throws {
    let done = Status.done, open = Status.open
    let live = try SiftLiveResults(
      values: Self.notes, id: \.id, predicate: #Predicate<Note> { $0.status == done || $0.status == open },
      sortDescriptors: [SortDescriptor(\.rating, order: .reverse)], sectionKeyPath: "status")
    #expect(live.sections.map(\.name) == ["done", "open"])
    #expect(live.sections.map(\.ids) == [[2], [3, 1]])
    // `rawValue` is computed: refused at conversion, naming the fix.
    let refused = expectSiftError(id: "unconvertible-key-path", stage: .convert) {
      _ = try SiftPredicate(#Predicate<Note> { $0.status.rawValue == "open" })
    }
    #expect(refused?.diagnostic.message.contains("compare the enum itself") == true)
  }

  @Test func formatPredicateOverOwnValuesAndTransactions() throws {
    let live = try SiftLiveResults(
      values: Self.notes, id: \.id, predicate: try SiftPredicate(format: "due != nil"),
      sortDescriptors: [SiftSortDescriptor("due")])
    #expect(live.ids == [3, 2])
    let cs = try live.perform { tx in try tx.update(1) { $0.due = Date(timeIntervalSince1970: 10) } }
    #expect(live.ids == [1, 3, 2])
    #expect(cs.inserted == [SiftIndexPath(section: 0, item: 0)])
  }

  @Test func duplicateIdsAreRefused() {
    expectSiftError(id: "live-refused", stage: .live) {
      _ = try SiftLiveResults(
        values: Self.notes + [Self.notes[0]], id: \.id, predicate: nil as Predicate<Note>?, sortDescriptors: [])
    }
  }

  @Test func liveTableRowsDecode() throws {
    struct Venue: Decodable, Equatable {
      var id: Int
      var name: String
      var cityName: String?
      var rating: Int?
      var open: Bool
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-typed-\(UUID().uuidString).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let db = try SQLiteDatabase(path: path)
    try db.executeScript(
      """
      CREATE TABLE Venue (id INTEGER PRIMARY KEY, name TEXT, city_name TEXT, rating INTEGER, open INTEGER);
      INSERT INTO Venue VALUES (1, 'Alpha', 'Oslo', 5, 1), (2, 'Bravo', NULL, NULL, 0), (3, 'Cafe', 'Paris', 4, 1);
      """)
    let table = try SQLiteLiveTable(
      database: db, table: "Venue", predicate: try SiftPredicate(format: "name != 'Cafe'"),
      sortDescriptors: [SiftSortDescriptor("name", ascending: false)])
    let venues = try table.rows(as: Venue.self, keys: .snakeCase)
    #expect(
      venues == [
        Venue(id: 2, name: "Bravo", cityName: nil, rating: nil, open: false),
        Venue(id: 1, name: "Alpha", cityName: "Oslo", rating: 5, open: true),
      ])
    #expect(try table.row(for: 3, as: Venue.self, keys: .snakeCase)?.cityName == "Paris")
    #expect(try table.row(for: 9, as: Venue.self) == nil)
    struct Wrong: Decodable { var name: Int }
    expectSiftError(id: "decode-mismatch", stage: .decode) { _ = try table.rows(as: Wrong.self) }
    struct Missing: Decodable { var nickname: String }
    expectSiftError(id: "decode-missing-key", stage: .decode) { _ = try table.rows(as: Missing.self) }
  }
}

/// The outputs README and the Typed predicates article print for their live examples.
@Suite struct TypedLiveReadmeTests {
  @Test func readmeExample() throws {
    struct Note: Codable, Sendable {
      var id: Int
      var title: String
      var rating: Int
    }
    let notes = [
      Note(id: 1, title: "Milk", rating: 2), Note(id: 2, title: "Swift", rating: 5),
      Note(id: 3, title: "Linux", rating: 4),
    ]
    let rated = #Predicate<Note> { $0.rating > 3 }
    let live = try SiftLiveResults(
      values: notes, id: \.id, predicate: rated, sortDescriptors: [SortDescriptor(\.title)])
    let changes = try live.apply([.update(1, Note(id: 1, title: "Milk", rating: 4))])
    #expect("\(live.ids) \(changes.inserted) \(live.record(for: 1)?.rating ?? 0)" == "[3, 1, 2] [[0, 1]] 4")
  }

  @Test func articleExample() throws {
    struct Chore: Codable, Sendable {
      var id: Int
      var title: String
      var done: Bool
    }
    let chores = [Chore(id: 1, title: "Milk", done: false), Chore(id: 2, title: "Bread", done: true)]
    let open = try SiftLiveResults(
      values: chores, id: \.id, predicate: #Predicate<Chore> { !$0.done }, sortDescriptors: [SortDescriptor(\.title)])
    let changes = try open.perform { tx in try tx.update(2) { $0.done = false } }
    #expect("\(open.ids) \(changes.inserted)" == "[2, 1] [[0, 0]]")
    #expect(open.record(for: 2)?.title == "Bread")
  }
}
