import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Golden SQL on a Core Data store's layout (`Z_PK`, `Z_ENT` row filters for inheritance,
/// `Z_`-prefixed columns, join tables, reference-date seconds): the Library model mapped onto
/// `Library.sql`, in `Tests/Fixtures/sql/golden/sqlite-coredata.sql`. Each case also runs on
/// that store and its answer (the matching `Z_PK`s) is part of the golden text. Re-record
/// with `RECORD_GOLDEN=1 swift test --filter CoreDataGoldenTests`, then review the diff.
@Suite("Golden SQL on Core Data stores")
struct CoreDataGoldenTests {
  static let date = SiftValue.date(Date(timeIntervalSinceReferenceDate: 0))

  /// (entity, predicate, arguments).
  static let predicates: [(String, String, [SiftValue])] = [
    ("Item", "TRUEPREDICATE", []),
    ("Book", "TRUEPREDICATE", []),
    ("Novel", "TRUEPREDICATE", []),
    ("Comic", "TRUEPREDICATE", []),
    ("Novel", "genre ==[c] 'fantasy'", []),
    ("Book", "pages > 250", []),
    ("Comic", "illustrator BEGINSWITH 'Sam'", []),
    ("Book", "inPrint == YES", []),
    ("Book", "inPrint == nil", []),
    ("Item", "createdAt < %@", [date]),
    ("Item", "createdAt == nil", []),
    ("Author", "born < %@", [date]),
    ("Item", "ANY tags.name == 'fantasy'", []),
    ("Item", "tags.@count == 0", []),
    ("Tag", "ANY items.title == 'The Sandman'", []),
    ("Book", "ANY authors.name BEGINSWITH 'Neil'", []),
    ("Book", "SUBQUERY(authors, $a, $a.name CONTAINS 'Terry').@count > 0", []),
    ("Author", "books.@count == 0", []),
    ("Book", "publisher.name == 'Gollancz'", []),
    ("Book", "publisher == nil", []),
    ("Publisher", "books.@sum.pages == 831", []),
    ("Item", "notes.@count > 0", []),
    ("Book", "title MATCHES[c] 'the .*'", []),
    ("Book", "title LIKE[cd] '*omens'", []),
  ]

  /// Whole statements: the to-one joins, sorts, aggregates.
  static func requests() throws -> [(String, SiftFetchRequest)] {
    [
      (
        "fetch: publisher.name == 'Gollancz'",
        SiftFetchRequest(entity: "Book", predicate: try SiftPredicate(format: "publisher.name == 'Gollancz'"))
      ),
      (
        "fetch: publisher.name == nil OR pages > 300, sorted by title",
        SiftFetchRequest(
          entity: "Book", predicate: try SiftPredicate(format: "publisher.name == nil OR pages > 300"),
          sortDescriptors: [SiftSortDescriptor("title")])
      ),
      (
        "fetch: count of novels per genre",
        SiftFetchRequest(entity: "Novel", resultType: .aggregates([SiftAggregate(.count)], groupBy: ["genre"]))
      ),
    ]
  }

  static func render() throws -> String {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Library.xcdatamodeld"))
    let store = try StoreFixture(model: model, script: "Library.sql")
    var out =
      "-- Golden SQL on a Core Data store (Library). Re-record: RECORD_GOLDEN=1 swift test --filter CoreDataGoldenTests\n\n"
    func answer(_ rows: [[SQLValue]]) -> String {
      "[" + rows.map { $0.map(\.description).joined(separator: " ") }.joined(separator: ", ") + "]"
    }
    for (entity, format, args) in predicates {
      let w = try store.compiler.compileWhere(try SiftPredicate(format: format, arguments: args), entity: entity)
      let from = try store.compiler.fromClause(entity: entity)
      let run = SQLStatement(
        sql: "SELECT t0.\"Z_PK\" FROM \(from) WHERE \(w.sql) ORDER BY t0.\"Z_PK\"", bindings: w.bindings)
      out +=
        "-- \(entity): \(format)"
        + (args.isEmpty ? "" : "  args: " + args.map(SiftJSON.serialize).joined(separator: ", "))
      out += "\n\(w.sql)\n-- bindings: [" + w.bindings.map(\.description).joined(separator: ", ") + "]\n"
      out += "-- Z_PK: " + answer(try store.db.execute(run)) + "\n\n"
    }
    for (title, request) in try requests() {
      let st = try store.compiler.compile(request)
      out +=
        "-- \(request.entity): \(title)\n\(st.sql)\n-- bindings: ["
        + st.bindings.map(\.description).joined(separator: ", ") + "]\n"
      out += "-- rows: " + answer(try store.db.execute(st)) + "\n\n"
    }
    return out
  }

  @Test func matchesGoldenFile() throws {
    let text = try Self.render()
    let url = CoreDataFixtures.directory.deletingLastPathComponent().appendingPathComponent(
      "sql/golden/sqlite-coredata.sql")
    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    let a = text.split(separator: "\n", omittingEmptySubsequences: false)
    let b = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let firstDiff = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      text == golden,
      "line \((firstDiff?.offset ?? min(a.count, b.count)) + 1): got \(firstDiff.map { String($0.element.0) } ?? "<end>")"
    )
  }
}
