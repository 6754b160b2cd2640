import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftColumnar

/// An integer column compared with a double: the kernel's integer range holds exactly the
/// integers the row evaluator's exact comparison accepts, also where a double's step is over 1
/// (fuzz: evaluate, Regressions/evaluate/integer-column-below-two-to-the-63: `n < 2^63.0` was
/// false for Int64.max in columns, since the bound was `2^63.nextDown`, 1,024 below).
@Suite struct ColumnarBoundsTests {
  static let ints: [Int64] = [
    .max, .max - 1, .max - 1023, .max - 1024, .max - 1025, .min, .min + 1, .min + 1024, .min + 1025, 0, 1, -1, 2, 3,
    1 << 53, (1 << 53) + 1, -(1 << 53) - 1,
  ]
  static let bounds: [Double] = [
    9_223_372_036_854_775_808.0, 9_223_372_036_854_774_784.0, -9_223_372_036_854_775_808.0,
    -9_223_372_036_854_774_784.0, -9_223_372_036_854_777_856.0, 9_007_199_254_740_992.0, 9_007_199_254_740_994.0,
    2.5, -2.5, 2.0, -0.0, 0.5, 1e300, -1e300, .infinity, -.infinity,
  ]

  @Test func integerColumnAgainstDoublesAnswersAsRows() throws {
    let values: [SiftValue] = Self.ints.map { .dictionary(["n": .int($0)]) }
    let columns = try SiftColumnarRecords(values: values)
    let rows = try JSONRecords.records(from: .array(values))
    for bound in Self.bounds {
      for op in ["<", "<=", ">", ">=", "==", "!="] {
        let m = try SiftPredicate(format: "n \(op) %@", arguments: [.double(bound)]).compile()
        #expect(try m.matchingIndices(columns) == m.matchingIndices(rows), "n \(op) \(bound)")
      }
      let between = try SiftPredicate(format: "n BETWEEN %@", arguments: [[.double(-bound), .double(bound)]]).compile()
      #expect(try between.matchingIndices(columns) == between.matchingIndices(rows), "n BETWEEN ±\(bound)")
    }
  }

  @Test func int64MaxIsBelowTwoToThe63() throws {
    let columns = try SiftColumnarRecords(values: [["n": .int(.max)], ["n": .int(.min)]])
    #expect(try SiftPredicate(format: "n < 9223372036854775808.0").compile().matchingIndices(columns) == [0, 1])
    #expect(try SiftPredicate(format: "n >= -9223372036854775808.0").compile().matchingIndices(columns) == [0, 1])
    #expect(try SiftPredicate(format: "n > -9223372036854775808.0").compile().matchingIndices(columns) == [0])
    #expect(try SiftPredicate(format: "n >= 9223372036854774784.0").compile().matchingIndices(columns) == [0])
  }
}
