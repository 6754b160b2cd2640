import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// ANY / ALL / NONE kernels (running match counts per part) against the row evaluator, over
/// more records than one scan part (16,384) so rows sit on both sides of part boundaries:
/// empty arrays, null elements, null and missing arrays, non-ASCII and empty strings.
@Suite struct ColumnarQuantifierTests {
  static let words: [SiftValue] = ["wifi", "vegan", "", "Ñandú", "ñandu", "WIFI", .null]

  static let values: [SiftValue] = {
    var rng = SeededRandom(seed: 77)
    return (0..<40_000).map { i -> SiftValue in
      var d: [String: SiftValue] = ["id": .int(Int64(i))]
      switch rng.next() % 10 {
      case 0: d["tags"] = .null
      case 1: break  // missing
      default:
        let n = Int(rng.next() % 6)
        d["tags"] = .array((0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] })
      }
      let m = Int(rng.next() % 4)
      d["n"] = .array((0..<m).map { _ in rng.next() % 9 == 0 ? .null : .int(Int64(rng.next() % 5)) })
      return .dictionary(d)
    }
  }()

  static let formats = [
    "ANY tags == 'wifi'", "ALL tags == 'wifi'", "NONE tags == 'wifi'", "ANY tags ==[c] 'wifi'",
    "ALL tags ==[cd] 'nandu'", "NONE tags BEGINSWITH[d] 'n'", "ANY tags == ''", "ALL tags BEGINSWITH 'w'",
    "tags CONTAINS 'vegan'", "ANY tags == nil", "NONE tags == nil", "ANY n >= 3", "ALL n < 4", "NONE n == 0",
    "ANY n == nil", "NOT (ANY tags == 'vegan') AND ALL n >= 1",
  ]

  @Test(arguments: formats)
  func quantifiersAnswerAsRows(_ format: String) throws {
    let bytes = Array(SiftJSON.serialize(.array(Self.values)).utf8)
    let rows = try JSONRecords.load(bytes: bytes)
    let columns = try SiftColumnarRecords(bytes: bytes)
    let m = try SiftPredicate(format: format).compile()
    #expect(m.columnarFallback(for: columns) == nil, "\(format) runs as kernels")
    let expected = try m.matchingIndices(rows)
    #expect(!expected.isEmpty && expected.count < rows.count, "\(format) tells records apart")
    #expect(try m.matchingIndices(columns) == expected, "\(format)")
    #expect(try m.matchingIndices(columns, workers: 2) == expected, "\(format), two threads")
    #expect(try m.count(columns) == expected.count, "\(format), count")
  }
}
