import Foundation
import SiftSyntax

/// Seeded random records for the differential tests, over the `Thing` schema in
/// `DifferentialSchema`: nulls, missing keys, Unicode (combining marks, ß, Σ, Turkish İ,
/// ligatures), `%`/`_`/`\` in strings, empty arrays and to-manys, integers near 2^53 and the
/// Int64 limits, negative zero.
enum RandomData {
  static let strings: [String] = [
    "Café", "Cafe\u{301}", "CAFÉ", "cafe", "straße", "STRASSE", "Strasse", "ΣΊΣΥΦΟΣ", "σίσυφος",
    "ΌΣΟΣ", "100%", "100% pure", "a_b", "a\\b", "back\\slash%_", "", " ", "Zoë", "zoe", "Ångström",
    "O'Brien", "say \"hi\"", "naïve café", "🎉 party", "İstanbul", "istanbul", "ﬁne", "fine",
    "Red bar", "red BAR", "ñandú", "Crème Brûlée", "creme brulee", "*star?", "x", "X", "ab", "abc",
    "Abc", "ABC", "b", "Montréal", "Zürich", "zurich", "Σ", "ς", "σ", "ß", "SS", "ǅemal", "Ǆ",
  ]

  static let tagPool: [String] = [
    "wifi", "WiFi", "vegan", "végan", "cheap", "", "50%", "a_b", "ß", "SS", "Σ", "σ", "ok",
  ]

  static let cities: [String] = ["Berlin", "berlin", "Paris", "Zürich", "ZURICH", "Montréal", "", "Σπάρτη"]

  static let labels: [String] = ["taco", "Taco", "pie", "crème", "creme", "ramen", "50% off", "a_b"]

  static let bigIntegers: [Int64] = [
    0, 1, -1, 2, 7, 42, -42, 1000, 9_007_199_254_740_991, 9_007_199_254_740_992,
    9_007_199_254_740_993, -9_007_199_254_740_993, Int64.max, Int64.max - 1, Int64.min,
    Int64.min + 1, 4_611_686_018_427_387_904,
  ]

  static let doubles: [Double] = [
    0.0, -0.0, 0.5, -2.5, 3.25, 1e15, 9_007_199_254_740_992.0, 1e-7, -1e300, 42.0, 7.5, 100.25,
  ]

  static let dates: [Double] = [0, 1, 946_684_800, 1_650_733_173, 1_650_733_173.5, -86_400]

  /// `count` records (index = position) from `seed`.
  static func records(seed: UInt64, count: Int) -> [SiftValue] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).map { _ in record(&rng) }
  }

  private static func record(_ rng: inout SeededRandom) -> SiftValue {
    var r: [String: SiftValue] = [:]
    func maybe(_ key: String, _ make: (inout SeededRandom) -> SiftValue) {
      let roll = rng.int(in: 0...9)
      if roll == 0 { return }  // missing key
      r[key] = roll == 1 ? .null : make(&rng)
    }
    maybe("name") { rng in
      rng.chance(0.2) ? .string(rng.pick(strings) + " " + rng.pick(strings)) : .string(rng.pick(strings))
    }
    maybe("code") { rng in .string(code(&rng)) }
    maybe("n") { rng in rng.chance(0.5) ? .int(rng.pick(bigIntegers)) : .int(Int64(rng.int(in: -20...20))) }
    maybe("small") { rng in .int(Int64(rng.int(in: -30...30))) }
    maybe("x") { rng in
      rng.chance(0.5) ? .double(rng.pick(doubles)) : .double(Double(rng.int(in: -400...400)) / 4)
    }
    maybe("flag") { rng in .bool(rng.chance(0.5)) }
    maybe("when") { rng in .date(Date(timeIntervalSince1970: rng.pick(dates))) }
    maybe("tags") { rng in .array((0..<rng.int(in: 0...3)).map { _ in .string(rng.pick(tagPool)) }) }
    maybe("nums") { rng in .array((0..<rng.int(in: 0...4)).map { _ in .int(Int64(rng.int(in: -5...9))) }) }
    maybe("place") { rng in
      var p: [String: SiftValue] = [:]
      if !rng.chance(0.15) { p["city"] = rng.chance(0.1) ? .null : .string(rng.pick(cities)) }
      if !rng.chance(0.15) { p["dist"] = .double(Double(rng.int(in: 0...80)) / 2) }
      return .dictionary(p)
    }
    maybe("items") { rng in
      .array(
        (0..<rng.int(in: 0...4)).map { _ in
          var m: [String: SiftValue] = [:]
          if !rng.chance(0.1) { m["label"] = .string(rng.pick(labels)) }
          if !rng.chance(0.1) { m["price"] = .double(Double(rng.int(in: 0...200)) / 4) }
          if !rng.chance(0.1) { m["qty"] = .int(Int64(rng.int(in: 0...6))) }
          if !rng.chance(0.1) { m["vegan"] = .bool(rng.chance(0.5)) }
          return .dictionary(m)
        })
    }
    return .dictionary(r)
  }

  private static func code(_ rng: inout SeededRandom) -> String {
    let alphabet = Array("abAB01_%\\*?.")
    return String((0..<rng.int(in: 0...5)).map { _ in rng.pick(alphabet) })
  }
}
