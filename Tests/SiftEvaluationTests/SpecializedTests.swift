import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// The per-kind closures (`ConstantComparisons.swift`, `KeyPathClosures.swift`) and the in-place batch loops
/// against the generic code: every layout, every policy, errors included.
@Suite struct SpecializedTests {
  static func batch<C: Collection>(_ m: SiftMatcher, _ records: C) -> Result<[Int], SiftError>
  where C.Element: SiftRecord {
    Result { () throws(SiftError) -> [Int] in try m.matchingIndices(records) }
  }

  @Test(arguments: [UInt64(4), 9, 16, 25, 36, 49])
  func batchesAgreeWithTheGenericCode(seed: UInt64) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: seed))
    let dicts = (0..<40).map { _ in g.record() }
    let objects = dicts.map { SiftObject($0) }
    let values = dicts.map { SiftValue.dictionary($0) }
    try g.forEachCompiled(60) { format, fast, slow in
      let want = Self.batch(slow, dicts)
      #expect(Self.batch(fast, objects) == want, "\(format) on objects")
      #expect(Self.batch(fast, dicts) == want, "\(format) on dictionaries")
      #expect(Self.batch(fast, values) == want, "\(format) on values")
      #expect(Self.batch(slow, objects) == want, "\(format) on objects, generic")
    }
  }

  /// The shapes the standard benchmark runs, with nil, missing, wrong-kind and error records.
  @Test(arguments: [
    "priceCategory == '$$'", "priceCategory != '$$'", "tipCount >= 100 AND tipCount <= 300",
    "name BEGINSWITH[c] 'blue' AND distance < 10", "ANY tags == 'wifi'", "ALL tags != 'wifi'",
    "menu.@count > 3", "SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0",
    "SUBQUERY(menu, $m, $m.price < 10 AND $m.item BEGINSWITH[c] 'ra').@count == 1",
    "name MATCHES '(Blue|Red) .*'", "distance < 10", "distance >= 9007199254740993",
  ])
  func benchmarkShapesAgree(format: String) throws {
    let rows: [[String: SiftValue]] = [
      [
        "priceCategory": "$$", "tipCount": 100, "name": "Blue bar", "distance": 9.5, "tags": ["wifi"],
        "menu": [["vegan": true, "price": 9.99, "item": "ramen"], ["vegan": false, "price": 3]],
      ],
      [
        "priceCategory": nil, "tipCount": 300.0, "name": "B\u{301}lue", "distance": .double(.nan), "tags": [],
        "menu": [["vegan": 1, "price": 10], ["item": "RAmen"]],
      ],
      [
        "priceCategory": 2, "tipCount": "many", "name": "BLUE", "distance": "far", "tags": [1, "wifi"],
        "menu": [["vegan": true, "price": "cheap"]],
      ],
      ["tipCount": nil, "name": 7, "distance": 9007199254740992.0, "tags": "wifi", "menu": "none"],
      ["name": "Crème", "tags": nil, "menu": [1, nil, ["vegan": true, "price": -1]]],
      ["name": "blu", "menu": [["vegan": nil, "price": nil]], "distance": 10],
      [:],
    ]
    let p = try SiftPredicate(format: format)
    for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
      let options = EvaluationOptions(policy: policy)
      let fast = try p.compile(options, fastPaths: true), slow = try p.compile(options, fastPaths: false)
      // Record by record, so that every error is compared, not just the first.
      for (i, r) in rows.enumerated() {
        let want = Self.batch(slow, [r])
        #expect(Self.batch(fast, [r]) == want, "\(format) on dictionary \(i)")
        #expect(Self.batch(fast, [SiftObject(r)]) == want, "\(format) on object \(i)")
        #expect(Self.batch(fast, [SiftValue.dictionary(r)]) == want, "\(format) on value \(i)")
      }
      #expect(Self.batch(fast, rows.map { SiftObject($0) }) == Self.batch(slow, rows), "\(format)")
    }
  }

  /// `Bytes.asciiPrefix` answers only when it is exact: whenever it does, it agrees with
  /// folding the whole subject and comparing bytes.
  @Test func asciiPrefixIsExactWhenItAnswers() {
    let subjects = [
      "Blue", "blue bar", "BLUEBERRY", "blu", "", "b", "Blue\u{301}", "Blu\u{308}e", "B\u{301}lue", "Crème",
      "Über", "blue\u{301}s", "bluE\u{300}", "ca\u{301}fe", "Cafe\u{301}", "CA", "ÇA", "C\u{327}a", "z", "Z\u{338}",
      "ﬂue", "İstanbul", "blue\u{345}", "Ab\u{300}", "a",
    ]
    let needles = ["blue", "b", "ca", "z", "ab", "Blue"]
    var answered = 0
    for options in [
      ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ] {
      let rule = TextRule(options)
      for n in needles {
        let folded = TextFolding.fold(n, options)
        for s in subjects {
          let truth = TextFolding.fold(s, options).utf8.starts(with: folded.utf8)
          if let answer = Bytes.asciiPrefix(folded, of: s, caseless: rule.caseless) {
            #expect(answer == truth, "\(s) BEGINSWITH \(n) \(options)")
            answered += 1
          }
          #expect(rule.find(rule.prepare(n), in: s, .prefix) == truth, "find: \(s) BEGINSWITH \(n) \(options)")
        }
      }
    }
    #expect(answered > 200)
  }
}
