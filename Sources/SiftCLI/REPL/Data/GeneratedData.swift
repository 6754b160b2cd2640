import Foundation
import SiftColumnar
import SiftSyntax

/// Synthetic venue-like records for trying the REPL at scale (`.generate 1000000`,
/// `sift --generate 1000000`): the same records for the same count and seed on every platform.
///
/// Each record has `id` (0, 1, …), `name` (e.g. `"quiet Noodle House"`), `city`, `distance`
/// (0–50, two decimals), `rating` (1–5, one decimal), `tipCount` (0–999), `favorite` (one in
/// ten), `createdAt` (a date in 2020–2024) and `tags` (zero to three distinct strings).
///
/// ```swift
/// let set = GeneratedData.dataSet(name: "big", count: 1_000_000)
/// set.count   // 1000000
/// ```
enum GeneratedData {
  /// The largest count `.generate` accepts (about 4 GB of records in memory).
  static let maxCount = 10_000_000

  static let adjectives = ["quiet", "Happy", "new", "Red", "golden", "Ñandú", "little", "old", "Blue", "late"]
  static let kinds = ["Noodle House", "bar", "Tea Room", "Diner", "Pizzeria", "Taquería", "Deli", "Café", "Bakery"]
  static let cities = [
    "Tokyo", "Montréal", "berlin", "São Paulo", "Zürich", "Boston", "Lagos", "Taipei", "Lima", "Oslo",
  ]
  static let tagNames = ["wifi", "vegan", "cheap", "pet-friendly", "late-night", "outdoor", "rooftop", "brunch"]

  /// The default columns of a generated entity's tables.
  static let columns = ["id", "name", "city", "distance", "rating", "tipCount", "favorite", "tags"]

  /// `count` records as a data set named `name`, held as columns (as `.load` holds a file):
  /// each record goes into the columns as it is made, never all held as values or rows.
  static func dataSet(name: String, count: Int, seed: UInt64 = 1) -> REPLDataSet {
    var builder = SiftColumnarBuilder()
    // Every generated record is a dictionary of storable values: append cannot fail here.
    generate(count: count, seed: seed) { try? builder.append($0) }
    return REPLDataSet(name: name, columns: builder.build(), defaultColumns: columns, origin: "generated")
  }

  /// `count` records (none when `count` is not positive).
  static func records(count: Int, seed: UInt64 = 1) -> [SiftValue] {
    var out: [SiftValue] = []
    out.reserveCapacity(max(0, count))
    generate(count: count, seed: seed) { out.append($0) }
    return out
  }

  /// Hands each of `count` records to `body`, in order.
  static func generate(count: Int, seed: UInt64, _ body: (SiftValue) -> Void) {
    var rng = SeededRandom(seed: seed)
    let start = 1_577_836_800.0  // 2020-01-01T00:00:00Z
    let span: UInt64 = 5 * 365 * 86_400
    for i in 0..<max(0, count) {
      let name = adjectives[rng.below(adjectives.count)] + " " + kinds[rng.below(kinds.count)]
      var tags: [SiftValue] = []
      let tagCount = rng.below(4)
      var offset = rng.below(tagNames.count)
      for _ in 0..<tagCount {
        tags.append(.string(tagNames[offset]))
        offset = (offset + 1 + rng.below(2)) % tagNames.count
      }
      let record: [String: SiftValue] = [
        "id": .int(Int64(i)),
        "name": .string(name),
        "city": .string(cities[rng.below(cities.count)]),
        "distance": .double(Double(rng.below(5_001)) / 100),
        "rating": .double(Double(10 + rng.below(41)) / 10),
        "tipCount": .int(Int64(rng.below(1_000))),
        "favorite": .bool(rng.below(10) == 0),
        "createdAt": .date(Date(timeIntervalSince1970: start + Double(rng.next() % span))),
        "tags": .array(tags),
      ]
      body(.dictionary(record))
    }
  }
}
