import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftLive

/// One sort order everywhere: seeded random keys of mixed kinds (nil, booleans, small and
/// large integers, doubles with NaN, strings that differ by case, accents and digits, dates,
/// arrays) order identically in the fetch's sort (`SiftFetchRequest.sort`, its columnar
/// layouts and its top-k path), matcher output sorted by a fetch request, the live results'
/// comparator (`SiftSortKeyReader`), live results built at once and record by record, and
/// `SiftSortOrder` itself with the descriptor's nil placement and direction (the spec).
@Suite struct SortOrderPropertyTests {
  typealias Record = [String: SiftValue]

  static let strings = [
    "apple", "Apple", "APPLE", "äpple", "Émile", "emile", "EMILE", "ß", "ss", "file9", "file10", "File10",
    "zebra", "", "é", "e\u{301}", "ﬁle", "Ωmega",
  ]

  /// One random key; `kind` picks a single kind (so the fetch uses its number, byte or
  /// localized layout), nil mixes them all.
  static func value(_ rng: inout SeededRandom, kind: Int?) -> SiftValue {
    switch kind ?? rng.below(8) {
    case 0: return .null
    case 1: return rng.chance(0.5) ? .bool(rng.chance(0.5)) : .int(Int64(rng.below(5)) - 2)
    case 2:
      return rng.chance(0.8) ? .int(Int64(rng.below(9)) - 4) : .int(rng.pick([Int64.max, Int64.min, 1 << 53 + 1]))
    case 3: return .double(rng.chance(0.1) ? .nan : Double(rng.below(17)) / 4 - 2)
    case 4, 5: return .string(rng.pick(strings))
    case 6: return .date(Date(timeIntervalSince1970: Double(rng.below(5)) * 1000.5))
    default:
      let n = rng.below(3)
      return .array((0..<n).map { _ in rng.chance(0.5) ? .int(Int64(rng.below(3))) : .string(rng.pick(strings)) })
    }
  }

  static func records(seed: UInt64, count: Int) -> [Record] {
    var rng = SeededRandom(seed: seed)
    let kinds: [Int?] = [nil, nil, 2, 3, 4, 6, 1]
    let k1 = kinds[Int(seed % UInt64(kinds.count))], k2 = kinds[Int((seed / 7) % UInt64(kinds.count))]
    return (0..<count).map { _ in
      var r: Record = [:]
      // Nils arrive both as a missing key and as an explicit null.
      if !rng.chance(0.1) { r["a"] = value(&rng, kind: k1) }
      if !rng.chance(0.1) { r["b"] = value(&rng, kind: k2) }
      return r
    }
  }

  /// The spec: nils per descriptor, then `SiftSortOrder`, reversed when descending; ties by
  /// position.
  static func specOrder(_ records: [Record], _ descriptors: [SiftSortDescriptor]) -> [Int] {
    func compare(_ a: SiftValue, _ b: SiftValue, _ d: SiftSortDescriptor) -> Int {
      let an = a == .null, bn = b == .null
      if an || bn { return an && bn ? 0 : (an == d.nilsFirst ? -1 : 1) }
      let c = SiftSortOrder.compare(a, b, d.comparison)
      return d.ascending ? c : -c
    }
    return records.indices.sorted { i, j in
      for d in descriptors {
        let c = compare(records[i][d.keyPath] ?? .null, records[j][d.keyPath] ?? .null, d)
        if c != 0 { return c < 0 }
      }
      return i < j
    }
  }

  static func descriptorSets() -> [[SiftSortDescriptor]] {
    var sets: [[SiftSortDescriptor]] = []
    for comparison in [SiftSortDescriptor.Comparison.binary, .caseInsensitive, .localizedStandard] {
      for (ascending, nulls) in [(true, .automatic), (false, .automatic), (true, .last), (false, .first)]
        as [(Bool, SiftSortDescriptor.NullPlacement)]
      {
        let d = SiftSortDescriptor("a", ascending: ascending, comparison: comparison, nulls: nulls)
        sets.append([d])
        sets.append([d, SiftSortDescriptor("b", ascending: !ascending, comparison: comparison)])
      }
    }
    return sets
  }

  /// The record positions live results hold, from their ids (`.int(position)`).
  static func positions(_ ids: [SiftValue]) -> [Int] {
    ids.map { id in
      if case .int(let i) = id { return Int(i) }
      return -1
    }
  }

  /// Records an issue naming the first position where `order` leaves `spec`, and its records.
  static func same(_ order: [Int], _ spec: [Int], _ records: [Record], _ label: String) {
    guard order != spec else { return }
    let n = min(order.count, spec.count)
    let i = (0..<n).first { order[$0] != spec[$0] } ?? n
    let got = i < order.count ? "\(order[i]) \(records[order[i]])" : "end"
    let want = i < spec.count ? "\(spec[i]) \(records[spec[i]])" : "end"
    Issue.record("\(label): position \(i) holds \(got), the spec says \(want)")
  }

  @Test(arguments: 1...14 as ClosedRange<UInt64>)
  func everyEngineSortsMixedKeysAlike(seed: UInt64) throws {
    let records = Self.records(seed: seed, count: 180)
    let all = Array(records.indices)
    for descriptors in Self.descriptorSets() {
      let label = "seed \(seed), " + descriptors.map(\.description).joined(separator: ", ")
      let spec = Self.specOrder(records, descriptors)

      // The fetch's sort, and a page of matcher output (the top-k path: 5 of 180).
      let request = SiftFetchRequest(entity: "T", sortDescriptors: descriptors)
      Self.same(try request.sort(all, of: records), spec, records, "fetch sort, \(label)")
      let page = SiftFetchRequest(
        entity: "T", predicate: try SiftPredicate(format: "TRUEPREDICATE"), sortDescriptors: descriptors, limit: 5)
      let paged = try page.execute(on: records)
      #expect(paged == .indices(Array(spec.prefix(5))), "fetch page, \(label)")

      // The live results' comparator on keys read one record at a time.
      let reader = try SiftSortKeyReader(descriptors)
      let keys = try records.map { try reader.keys(of: $0) }
      let byReader = all.sorted { i, j in
        let c = reader.compare(keys[i], keys[j])
        return c != 0 ? c < 0 : i < j
      }
      Self.same(byReader, spec, records, "SiftSortKeyReader, \(label)")

      // Live results: fetched at once, and grown one insert at a time (binary insertion).
      let ids = all.map { SiftValue.int(Int64($0)) }
      let live = try SiftLiveResults(records: records, ids: ids, predicate: nil, sortDescriptors: descriptors)
      Self.same(Self.positions(live.ids), spec, records, "live results, \(label)")
      let grown = try SiftLiveResults<SiftValue, Record>(
        records: [], ids: [], predicate: nil, sortDescriptors: descriptors)
      for i in all { _ = try grown.apply([.insert(ids[i], records[i])]) }
      Self.same(Self.positions(grown.ids), spec, records, "live results grown, \(label)")
    }
  }
}
