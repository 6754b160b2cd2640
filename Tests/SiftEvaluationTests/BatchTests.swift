import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// Arrays of Sift's own layouts (`[SiftObject]`, `[[String: SiftValue]]`, `[SiftValue]`) are
/// evaluated in place, lending each record without a retain; any other sequence goes record by
/// record. Both must give exactly what `matches(_:)` gives for each record, errors included.
@Suite struct BatchTests {
  /// What a batch call should give: the matching positions, or the first failing record's error
  /// (with the note naming it) under `.strict`.
  static func expected(_ m: SiftMatcher, _ records: [some SiftRecord]) -> Result<[Int], SiftError> {
    var hits: [Int] = []
    for (i, r) in records.enumerated() {
      do {
        if try m.matches(r) { hits.append(i) }
      } catch {
        var failure = error
        failure.diagnostic.notes.append(.init("while evaluating record \(i)"))
        return .failure(failure)
      }
    }
    return .success(hits)
  }

  static func indices<C: Collection>(_ m: SiftMatcher, _ records: C) -> Result<[Int], SiftError>
  where C.Element: SiftRecord {
    Result { () throws(SiftError) -> [Int] in try m.matchingIndices(records) }
  }

  @Test(arguments: [UInt64(3), 7, 11, 19, 42])
  func batchesAgreeWithSingleRecords(seed: UInt64) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: seed))
    let dicts = (0..<40).map { _ in g.record() }
    let objects = dicts.map { SiftObject($0) }
    let values = dicts.map { SiftValue.dictionary($0) }
    let rows = dicts.map { OpaqueRow(fields: $0) }
    var compared = 0
    for _ in 0..<50 {
      let format = g.predicate()
      let p = try SiftPredicate(format: format)
      for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
        let m = try p.compile(EvaluationOptions(policy: policy))
        let want = Self.expected(m, dicts)
        #expect(Self.indices(m, objects) == want, "\(format) on objects")
        #expect(Self.indices(m, dicts) == want, "\(format) on dictionaries")
        #expect(Self.indices(m, values) == want, "\(format) on values")
        #expect(Self.indices(m, rows) == Self.expected(m, rows), "\(format) on user rows")
        // A slice is not an array: the record-by-record path, same answer.
        #expect(Self.indices(m, objects[...]) == want, "\(format) on a slice")
        let filtered = Result { () throws(SiftError) -> [Int] in
          try m.filter(objects).map { o in objects.firstIndex { $0 === o } ?? -1 }
        }
        #expect(filtered == want, "\(format) filter on objects")
        compared += 1
      }
    }
    #expect(compared == 100)
  }

  /// SUBQUERY lends its elements to the iterator slot; nested SUBQUERYs, the variable read
  /// whole, and SUBQUERY results used as values must all see the right element.
  @Test(
    arguments: [
      ("SUBQUERY(menu, $m, $m.vegan == YES).@count == 1", [0, 2]),
      ("SUBQUERY(menu, $m, $m == $m AND $m.price > 3).@count == 1", [0, 2]),
      ("SUBQUERY(menu, $m, SUBQUERY(menu, $n, $n.price < $m.price).@count == 1).@count > 0", [0]),
      ("SUBQUERY(menu, $m, $m.price > 3)[SIZE] == 1", [0, 2]),
      ("ANY SUBQUERY(menu, $m, $m.vegan == YES).price == 12", [2]),
      ("SUBQUERY(tags, $t, $t BEGINSWITH 'w').@count == 1", [0, 1]),
      ("SUBQUERY(menu, $m, $m.price < 10).@count == 0 AND SUBQUERY(menu, $m, $m.price >= 10).@count == 0", [1, 3]),
    ] as [(String, [Int])])
  func subqueryBindings(format: String, expected: [Int]) throws {
    let rows: [SiftValue] = [
      ["tags": ["wifi", "vegan"], "menu": [["vegan": true, "price": 4], ["vegan": false, "price": 2]]],
      ["tags": ["wifi"], "menu": []],
      ["tags": [], "menu": [["vegan": true, "price": 12]]],
      ["tags": nil],
    ]
    let m = try SiftPredicate(format: format).compile()
    #expect(try m.matchingIndices(rows) == expected)
    #expect(try m.matchingIndices(rows.compactMap { SiftObject(value: $0) }) == expected)
    let dicts: [[String: SiftValue]] = rows.compactMap {
      if case .dictionary(let d) = $0 { return d } else { return nil }
    }
    #expect(try m.matchingIndices(dicts) == expected)
    #expect(try m.matchingIndices(dicts.map { OpaqueRow(fields: $0) }) == expected)
  }

  /// The first failing record stops a strict batch and is named; a lenient batch skips it.
  @Test func errorsNameTheRecord() throws {
    let records = [SiftObject(["a": 1]), SiftObject(["a": "x"]), SiftObject(["a": 3])]
    let strict = try SiftPredicate(format: "a > 2").compile()
    expectSiftError(id: "incomparable-values", stage: .evaluate, at: 2) { try strict.matchingIndices(records) }
    do {
      _ = try strict.matchingIndices(records)
    } catch {
      #expect(error.diagnostic.id == "incomparable-values")
      #expect(error.diagnostic.notes.last?.message == "while evaluating record 1")
    }
    let lenient = try SiftPredicate(format: "a > 2").compile(EvaluationOptions(policy: .treatAsNoMatch))
    #expect(try lenient.matchingIndices(records) == [2])
    #expect(try lenient.filter(records).map { $0 === records[2] } == [true])
  }
}
