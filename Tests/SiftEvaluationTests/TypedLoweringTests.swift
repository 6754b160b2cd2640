import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

/// The typed path in memory (`TypedLowering`, the sort keys read through key paths into the
/// fetch's sort columns) gives the answers of the same request over encoded values: stored
/// properties read at their offsets, a class's properties through its key paths, and the
/// numbers sort (ties in input order, descending, NaN, Ints beyond 2^53, pages large and small).
@Suite struct TypedLoweringTests {
  struct Row: Codable {
    var id: Int
    var big: Int
    var score: Double
    var on: Bool
    var at: Date
    var title: String
  }

  /// A class: `MemoryLayout.offset(of:)` is nil for its key paths, so they are applied.
  final class Box: Codable {
    var id: Int
    var on: Bool
    var at: Date
    var title: String
    init(_ r: Row) { (id, on, at, title) = (r.id, r.on, r.at, r.title) }
  }

  static let rows: [Row] = (0..<300).map { (i: Int) -> Row in
    let big = i % 7 == 0 ? (1 << 60) + i % 5 : i % 11
    let score = i % 13 == 0 ? Double.nan : Double(i % 17) / 4
    let at = Date(timeIntervalSince1970: Double(i % 23) * 1e9 + 0.25)
    return Row(id: i, big: big, score: score, on: i % 3 == 0, at: at, title: ["b", "a", "é", "B"][i % 4])
  }

  /// The typed request and the same request as format strings, over `values`: same positions.
  func expectSame<T: Encodable>(
    _ typed: SiftFetchRequest, _ format: String, _ sorts: [SiftSortDescriptor], over values: [T],
    ids: (T) -> Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var encoded = typed
    encoded.predicate = try SiftPredicate(format: format)
    encoded.sortDescriptors = sorts
    #expect(encoded.predicate == typed.predicate, sourceLocation: sourceLocation)
    for (limit, offset) in [(nil, nil), (5, 3), (200, 10), (1, 0)] as [(Int?, Int?)] {
      var t = typed, e = encoded
      (t.limit, t.offset, e.limit, e.offset) = (limit, offset, limit, offset)
      #expect(
        try t.fetch(from: values).map(ids) == e.fetch(from: values).map(ids), "\(format) \(String(describing: limit))",
        sourceLocation: sourceLocation)
      #expect(try t.fetchCount(from: values) == e.fetchCount(from: values), sourceLocation: sourceLocation)
    }
  }

  @Test func numberSortsAgreeWithTheEncodedFetch() throws {
    let sorts: [(SortDescriptor<Row>, SiftSortDescriptor)] = [
      (SortDescriptor(\.at, order: .reverse), SiftSortDescriptor("at", ascending: false)),
      (SortDescriptor(\.at), SiftSortDescriptor("at")),
      (SortDescriptor(\.score), SiftSortDescriptor("score")),
      (SortDescriptor(\.score, order: .reverse), SiftSortDescriptor("score", ascending: false)),
      (SortDescriptor(\.big, order: .reverse), SiftSortDescriptor("big", ascending: false)),
      (SortDescriptor(\.id, order: .reverse), SiftSortDescriptor("id", ascending: false)),
    ]
    for (typedSort, formatSort) in sorts {
      let typed = try SiftFetchRequest(
        entity: "Row", predicate: #Predicate<Row> { $0.on || $0.id >= 100 }, sortBy: [typedSort])
      try expectSame(typed, "on == YES OR id >= 100", [formatSort], over: Self.rows, ids: { $0.id })
    }
    let at = Date(timeIntervalSince1970: 1.5e10)
    let scanned = try SiftFetchRequest(
      entity: "Row", predicate: #Predicate<Row> { $0.on == false && 20 <= $0.id && $0.at <= at && !($0.big > 3) },
      sortBy: [SortDescriptor(\.at)])
    try expectSame(
      scanned, scanned.predicate?.predicateFormat ?? "", [SiftSortDescriptor("at")], over: Self.rows, ids: { $0.id })
    let two = try SiftFetchRequest(
      entity: "Row", predicate: #Predicate<Row> { $0.id != 7 }, sortBy: [SortDescriptor(\.title), SortDescriptor(\.at)])
    try expectSame(
      two, "id != 7", [SiftSortDescriptor("title"), SiftSortDescriptor("at")], over: Self.rows, ids: { $0.id })
  }

  @Test func aClassIsReadThroughItsKeyPaths() throws {
    let boxes = Self.rows.map(Box.init)
    let at = Date(timeIntervalSince1970: 5e9)
    let typed = try SiftFetchRequest(
      entity: "Box", predicate: #Predicate<Box> { !$0.on && ($0.at > at || $0.title == "é") && $0.id < 250 },
      sortBy: [SortDescriptor(\.at, order: .reverse), SortDescriptor(\.title)])
    let sorts = [SiftSortDescriptor("at", ascending: false), SiftSortDescriptor("title")]
    try expectSame(typed, typed.predicate?.predicateFormat ?? "", sorts, over: boxes, ids: { $0.id })
  }
}
