import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax
import Testing

/// A `#Predicate` converted by `SiftPredicate(_:)` matches the same notes in memory, on SQLite
/// and on PostgreSQL (when `SIFT_POSTGRES` is set) as Foundation's own `predicate.evaluate`:
/// every predicate shape of `TypedDiffPredicates`, with constants drawn per seed, over
/// generated notes.
@Suite("Typed predicates: memory == SQLite == PostgreSQL == Foundation")
struct TypedDifferentialTests {
  typealias Note = TypedDiffNote

  static let seeds: [UInt64] = Array(1...8)

  @Test(arguments: seeds) func predicatesAgree(seed: UInt64) throws {
    let notes = Note.generate(60, seed: seed)
    let records = try notes.map { try SiftRecordEncoder.encode($0) }
    let engines = try ThreeWay(schema: try SQLSchema(json: Note.schema), entity: "TypedNote", records: records)
    var g = SeededRandom(seed: seed &* 7919)
    let shapes = TypedDiffPredicates.all(&g)
    var disagreements: [String] = []
    var informative = 0
    for (label, predicate) in shapes {
      let foundation = try notes.indices.filter { try predicate.evaluate(notes[$0]) }
      if foundation.count > 0 && foundation.count < notes.count { informative += 1 }
      let converted = try SiftPredicate(predicate)
      let o = engines.outcomes(converted)
      var bad: [String] = []
      if try SiftPredicate(format: converted.predicateFormat) != converted { bad.append("does not reparse") }
      if o.memory != .matches(foundation) { bad.append("memory \(o.memory)") }
      if o.sqlite != .matches(foundation) { bad.append("sqlite \(o.sqlite)") }
      if let pg = o.postgres, pg != .matches(foundation) { bad.append("postgresql \(pg)") }
      // The typed fetch over the caller's values gives the same notes.
      let fetched = try SiftFetchRequest(entity: "TypedNote", predicate: predicate).fetch(from: notes)
      if fetched != foundation.map({ notes[$0] }) { bad.append("fetch(from:) \(fetched.count) notes") }
      if !bad.isEmpty {
        disagreements.append(
          "\(label): \(converted.predicateFormat) — Foundation \(foundation.count) matches; "
            + bad.joined(separator: "; "))
      }
    }
    #expect(shapes.count >= 50)
    #expect(informative * 3 >= shapes.count * 2, "most shapes match some notes but not all")
    #expect(engines.postgres != nil || !PostgresTestServer.isAvailable)
    #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
  }

  /// Random trees built at run time (`TypedRandomPredicates`): 80 per seed, up to 3 levels.
  @Test(arguments: seeds) func randomTreesAgree(seed: UInt64) throws {
    let notes = Note.generate(60, seed: seed)
    let records = try notes.map { try SiftRecordEncoder.encode($0) }
    let engines = try ThreeWay(schema: try SQLSchema(json: Note.schema), entity: "TypedNote", records: records)
    var g = SeededRandom(seed: seed &* 104_729)
    var disagreements: [String] = []
    for _ in 0..<80 {
      let predicate = TypedRandomPredicates.make(&g, depth: 3)
      let foundation = try notes.indices.filter { try predicate.evaluate(notes[$0]) }
      let converted = try SiftPredicate(predicate)
      let o = engines.outcomes(converted)
      var bad: [String] = []
      if try SiftPredicate(format: converted.predicateFormat) != converted { bad.append("does not reparse") }
      if o.memory != .matches(foundation) { bad.append("memory \(o.memory)") }
      if o.sqlite != .matches(foundation) { bad.append("sqlite \(o.sqlite)") }
      if let pg = o.postgres, pg != .matches(foundation) { bad.append("postgresql \(pg)") }
      if !bad.isEmpty {
        disagreements.append(
          "\(converted.predicateFormat) — Foundation \(foundation.count) matches; " + bad.joined(separator: "; "))
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
  }

  /// Sorted by converted `SortDescriptor`s: the same order as Foundation's `sorted(using:)`.
  @Test(arguments: seeds.prefix(3)) func sortsAgree(seed: UInt64) throws {
    let notes = Note.generate(40, seed: seed)
    let records = try notes.map { try SiftRecordEncoder.encode($0) }
    let engines = try ThreeWay(schema: try SQLSchema(json: Note.schema), entity: "TypedNote", records: records)
    let orders: [[SortDescriptor<Note>]] = [
      [SortDescriptor(\.rating)], [SortDescriptor(\.title, order: .reverse)],
      [SortDescriptor(\.body), SortDescriptor(\.rating, order: .reverse)],
      [SortDescriptor(\.due, order: .reverse), SortDescriptor(\.title, comparator: .lexical)],
      [SortDescriptor(\.score), SortDescriptor(\.title)],
    ]
    for order in orders {
      let expected = notes.indices.sorted { a, b in
        for d in order {
          switch d.compare(notes[a], notes[b]) {
          case .orderedAscending: return true
          case .orderedDescending: return false
          case .orderedSame: continue
          }
        }
        return a < b
      }
      var request = try SiftFetchRequest(entity: "TypedNote", predicate: nil, sortBy: order)
      #expect(try request.fetch(from: notes) == expected.map { notes[$0] }, "\(request.sortDescriptors)")
      request.resultType = .indices
      let rows = try engines.sqlite.execute(try engines.sqliteCompiler.compile(request))
      #expect(rows.compactMap { $0.first?.intValue.map(Int.init) } == expected, "\(request.sortDescriptors)")
      if let pg = engines.postgres {
        let pgRows = try pg.execute(try engines.postgresCompiler.compile(request))
        #expect(pgRows.compactMap { $0.first?.intValue.map(Int.init) } == expected, "\(request.sortDescriptors)")
      }
    }
  }
}
