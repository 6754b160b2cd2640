import Foundation
import SiftEvaluation
import SiftSyntax

/// `--suite fetch`: in-memory sorting and aggregating (`SiftFetchRequest.execute(on:)`,
/// `SiftExpression.aggregateValue(over:)`) against hand-written Swift over the same
/// `SiftObject` records — read through their public API (`value(forKey:)`), keys extracted
/// once, then `sorted(by:)` with the same nil placement and tiebreak, or `reduce` / a
/// dictionary of groups. The venues sample repeated 10× (10,000 records). Each case checks
/// that both give the same answer, then times them interleaved; `ratio_vs_swift` is Sift's
/// time over the baseline's (the budget: ≤ 1.5).
func runFetchBenchmarks(_ options: BenchOptions) throws {
  let url = BenchOptions.fixturesDirectory.appendingPathComponent("venues.json")
  guard case .array(let items) = try SiftJSON.parse(bytes: [UInt8](Data(contentsOf: url))) else {
    throw BenchOptions.Failure(description: "venues.json is not an array")
  }
  let records = try JSONRecords.records(from: .array(Array(repeating: items, count: 10).flatMap { $0 }))
  for c in try FetchBenchCase.all(records) {
    let sift = try c.sift()
    guard sift == c.swift() else {
      throw BenchOptions.Failure(description: "fetch.\(c.name): Sift and the Swift baseline disagree")
    }
    let t = InterleavedTiming(seconds: options.seconds, [{ blackHole(try? c.sift()) }, { blackHole(c.swift()) }])
    let n = Double(records.count)
    emit([
      ("name", .string("fetch.\(c.name)")), ("ns_per_record", .double(t.nsPerOp[0] / n)),
      ("swift_ns_per_record", .double(t.nsPerOp[1] / n)), ("ratio_vs_swift", .double(t.ratio(0, 1))),
      ("records", .int(Int64(records.count))),
    ])
  }
}

/// One fetch benchmark: Sift's answer and the hand-written one, as comparable values.
struct FetchBenchCase {
  var name: String
  var sift: () throws -> [SiftValue]
  var swift: () -> [SiftValue]

  static func number(_ v: SiftValue?) -> Double? {
    switch v {
    case .int(let i)?: return Double(i)
    case .double(let d)?: return d
    default: return nil
    }
  }

  static func string(_ v: SiftValue?) -> String? {
    if case .string(let s)? = v { return s }
    return nil
  }

  /// Positions ordered by `key` (nil first when ascending, last when descending), ties by position.
  static func sortedPositions<K: Comparable>(_ keys: [K?], ascending: Bool) -> [Int] {
    keys.indices.sorted { a, b in
      switch (keys[a], keys[b]) {
      case (let x?, let y?): return x != y ? (ascending ? x < y : x > y) : a < b
      case (nil, nil): return a < b
      case (nil, _): return ascending
      case (_, nil): return !ascending
      }
    }
  }

  static func positions(_ r: SiftFetchRequest, _ records: [SiftObject]) throws -> [SiftValue] {
    try r.matchingIndices(in: records).map { .int(Int64($0)) }
  }

  static func rows(_ r: SiftFetchRequest, _ records: [SiftObject]) throws -> [SiftValue] {
    guard case .rows(_, let rows) = try r.execute(on: records) else { return [] }
    return rows.map { .array($0) }
  }

  static func all(_ records: [SiftObject]) throws -> [FetchBenchCase] {
    func ints(_ xs: [Int]) -> [SiftValue] { xs.map { .int(Int64($0)) } }
    let byRating = SiftFetchRequest(entity: "Venue", sortDescriptors: [SiftSortDescriptor("rating", ascending: false)])
    let byName = SiftFetchRequest(entity: "Venue", sortDescriptors: [SiftSortDescriptor("name")])
    let byNameCI = SiftFetchRequest(
      entity: "Venue", sortDescriptors: [SiftSortDescriptor("name", comparison: .caseInsensitive)])
    let twoKeys = SiftFetchRequest(
      entity: "Venue",
      sortDescriptors: [SiftSortDescriptor("priceCategory"), SiftSortDescriptor("distance", ascending: false)])
    let top10 = SiftFetchRequest(entity: "Venue", sortDescriptors: [SiftSortDescriptor("distance")], limit: 10)
    let sum = SiftFetchRequest(
      entity: "Venue", resultType: .aggregates([SiftAggregate(.sum, "specialCount")], groupBy: []))
    let grouped = SiftFetchRequest(
      entity: "Venue",
      resultType: .aggregates([SiftAggregate(.count), SiftAggregate(.avg, "distance")], groupBy: ["priceCategory"]))
    let sumExpression = try SiftExpression(format: "sum:(specialCount)")
    return [
      FetchBenchCase(name: "sort.double-desc", sift: { try positions(byRating, records) }) {
        ints(sortedPositions(records.map { number($0.value(forKey: "rating")) }, ascending: false))
      },
      FetchBenchCase(name: "sort.string", sift: { try positions(byName, records) }) {
        ints(
          sortedPositions(
            records.map { string($0.value(forKey: "name")).map { Array($0.utf8) }.map(ByteKey.init) }, ascending: true))
      },
      FetchBenchCase(name: "sort.string-ci", sift: { try positions(byNameCI, records) }) {
        ints(
          sortedPositions(
            records.map { string($0.value(forKey: "name")).map { ByteKey(Array($0.lowercased().utf8)) } },
            ascending: true))
      },
      FetchBenchCase(name: "sort.two-keys", sift: { try positions(twoKeys, records) }) {
        let cat = records.map { string($0.value(forKey: "priceCategory")) }
        let dist = records.map { number($0.value(forKey: "distance")) }
        return ints(
          records.indices.sorted { a, b in
            if cat[a] != cat[b] {
              guard let x = cat[a] else { return true }
              guard let y = cat[b] else { return false }
              return x < y
            }
            switch (dist[a], dist[b]) {
            case (let x?, let y?): return x != y ? x > y : a < b
            case (nil, nil): return a < b
            case (nil, _): return false
            case (_, nil): return true
            }
          })
      },
      FetchBenchCase(name: "sort.limit-10", sift: { try positions(top10, records) }) {
        ints(Array(sortedPositions(records.map { number($0.value(forKey: "distance")) }, ascending: true).prefix(10)))
      },
      FetchBenchCase(name: "aggregate.sum", sift: { try rows(sum, records) }) {
        [.array([.int(records.reduce(0) { $0 + (number($1.value(forKey: "specialCount")).map { Int64($0) } ?? 0) })])]
      },
      FetchBenchCase(name: "aggregate.expression-sum", sift: { [try sumExpression.aggregateValue(over: records)] }) {
        [.int(records.reduce(0) { $0 + (number($1.value(forKey: "specialCount")).map { Int64($0) } ?? 0) })]
      },
      FetchBenchCase(name: "aggregate.group-count-avg", sift: { try rows(grouped, records) }) {
        var groups: [String?: (count: Int64, sum: Double, n: Int)] = [:]
        for r in records {
          let k = string(r.value(forKey: "priceCategory"))
          var g = groups[k] ?? (0, 0, 0)
          g.count += 1
          if let d = number(r.value(forKey: "distance")) { g.sum += d; g.n += 1 }
          groups[k] = g
        }
        let ordered = groups.sorted { a, b in
          switch (a.key, b.key) {
          case (let x?, let y?): return x < y
          case (nil, _): return b.key != nil
          case (_, nil): return false
          }
        }
        return ordered.map { k, g in
          .array([k.map { .string($0) } ?? .null, .int(g.count), g.n == 0 ? .null : .double(g.sum / Double(g.n))])
        }
      },
    ]
  }
}

/// A string's UTF-8 bytes ordered as bytes (code-point order, as Sift's binary comparison).
struct ByteKey: Comparable {
  var bytes: [UInt8]
  init(_ bytes: [UInt8]) { self.bytes = bytes }
  static func < (a: ByteKey, b: ByteKey) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
