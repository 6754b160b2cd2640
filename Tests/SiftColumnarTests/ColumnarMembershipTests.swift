import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftColumnar

/// `key IN {…}` with a long list is one set lookup a row over the column (issue 35: 150,000
/// integers over 100,000 records took 46 s as an OR of one kernel per element), with exactly
/// the row evaluator's answers for every kind of column and element.
@Suite struct ColumnarMembershipTests {
  static let day = Date(timeIntervalSinceReferenceDate: 86_400)

  /// Elements of every kind, the ones where number, string and date equality is subtle among
  /// them: 1 and 1.0 and YES, -0.0 and 0, 2^53 and 2^53 + 1, NaN, nil, case and accents.
  static let elements: [SiftValue] = [
    .int(1), .double(1.0), .bool(true), .bool(false), .double(-0.0), .int(0), .double(2.5), .double(.nan),
    .int(1 << 53), .int((1 << 53) + 1), .double(9_007_199_254_740_992), .int(.max), .int(.min), .double(1e300),
    .null, .string("blue"), .string("BLUE"), .string("Ñandú"), .string("nandu"), .string("straße"), .string(""),
    .string("1"), .date(day), .date(Date(timeIntervalSinceReferenceDate: -0.5)), .array([.int(1)]),
  ]

  /// Records with a column of each kind (and a key of mixed kinds, which runs on rows).
  static func records() -> [SiftValue] {
    let ints: [SiftValue] = [0, 1, 2, -1, .int(1 << 53), .int((1 << 53) + 1), .int(.max), .int(.min), .null]
    let doubles: [SiftValue] = [0.0, -0.0, 1.0, 2.5, 0.25, 1e300, 9_007_199_254_740_992.0, 3, .null]
    let bools: [SiftValue] = [true, false, .null]
    let strings: [SiftValue] = ["blue", "Blue", "BLUE", "ñandú", "Nandu", "STRASSE", "straße", "", "1", .null]
    let dates: [SiftValue] = [
      .date(day), .date(Date(timeIntervalSinceReferenceDate: -0.5)), .date(Date(timeIntervalSinceReferenceDate: 0)),
      .null,
    ]
    return (0..<90).map { i in
      var d: [String: SiftValue] = [
        "i": ints[i % ints.count], "d": doubles[i % doubles.count], "b": bools[i % bools.count],
        "s": strings[i % strings.count], "t": .array([strings[i % strings.count], strings[(i + 3) % strings.count]]),
        "m": [SiftValue.int(1), "blue", .double(2.5), true][i % 4],
      ]
      if i % 7 != 3 { d["day"] = dates[i % dates.count] }
      return .dictionary(d)
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5])
  func longListsAnswerAsRows(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let values = Self.records()
    let columns = try SiftColumnarRecords(values: values)
    let rows = try JSONRecords.records(from: .array(values))
    var kernels = 0
    for key in ["i", "d", "b", "s", "day", "m", "missing", "ANY t", "NONE t"] {
      for options in ["", "[c]", "[d]", "[cd]"] {
        var list = (0..<ConstantSet.minimumCount).map { _ in
          Self.elements[Int(rng.next() % UInt64(Self.elements.count))]
        }
        if rng.next() % 4 == 0 { list = list.filter { $0 != .null } }
        let m = try SiftPredicate(format: "\(key) IN\(options) %@", arguments: [.array(list)]).compile()
        let expected = try m.matchingIndices(rows)
        #expect(try m.matchingIndices(columns) == expected, "\(key) IN\(options) \(list)")
        let negated = try SiftPredicate(format: "NOT \(key) IN\(options) %@", arguments: [.array(list)]).compile()
        #expect(try negated.matchingIndices(columns) == negated.matchingIndices(rows), "NOT \(key) IN\(options)")
        if m.columnarFallback(for: columns) == nil { kernels += 1 }
      }
    }
    #expect(kernels >= 28, "only \(kernels) lists ran as kernels")
  }

  /// Issue 35's case: the plan is one set lookup, not an OR of 150,000 kernels.
  @Test func aLongListIsOneKernel() throws {
    let values: [SiftValue] = (0..<1000).map { i in ["qty": .int(Int64(i)), "name": .string("n\(i)")] }
    let columns = try SiftColumnarRecords(values: values)
    let list = SiftValue.array((0..<150_000).map { .int(Int64($0 * 3)) })
    let m = try SiftPredicate(format: "qty IN %@", arguments: [list]).compile()
    guard case .leaf(let leaf)? = m.columnarPlan(columns, [:]).plan, case .intSet(let set) = leaf.test else {
      Issue.record("not one set kernel: \(String(describing: m.columnarPlan(columns, [:]).plan))")
      return
    }
    #expect(set.count == 150_000)
    #expect(try m.matchingIndices(columns) == Array(stride(from: 0, to: 1000, by: 3)))
    let names = SiftValue.array((0..<20_000).map { .string("N\($0 * 7)") })
    let folded = try SiftPredicate(format: "name IN[c] %@", arguments: [names]).compile()
    guard case .leaf(let l)? = folded.columnarPlan(columns, [:]).plan, case .stringSet = l.test else {
      Issue.record("not one set kernel for strings")
      return
    }
    #expect(try folded.matchingIndices(columns) == Array(stride(from: 0, to: 1000, by: 7)))
  }

  @Test func collidingBytesAreToldApart() {
    let set = ByteStringSet([Array("ab".utf8), Array("ba".utf8), [], Array("ab".utf8)])
    for (text, expected) in [("ab", true), ("ba", true), ("", true), ("a", false), ("abc", false)] {
      let bytes = Array(text.utf8) + [0]
      #expect(bytes.withUnsafeBufferPointer { set.contains($0.baseAddress!, text.utf8.count) } == expected, "\(text)")
    }
  }
}
