import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// Large ORs of equalities and IN lists are set lookups with the answers (and errors) of the
/// chain they replace; nested SUBQUERYs and catastrophic patterns stop with a clear error in
/// bounded time instead of running for minutes or answering "no match".
@Suite("Bounded cost in memory")
struct HostileCostTests {
  static let constants = ["1", "1.0", "0.5", "-1", "YES", "NO", "nil", "2", "9007199254740993", "{1, 2}"]

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func mergedOrsAndHashedListsAgreeWithTheChain(seed: UInt64) throws {
    var g = FastPathGenerator(rng: SeededRandom(seed: seed))
    let records = (0..<80).map { _ in g.record() }
    let objects = records.map { SiftObject($0) }
    for _ in 0..<30 {
      let key = g.pick(["a", "s", "t", "loc.city"])
      let options = g.pick(["", "", "[c]", "[cd]"])
      let n = Int.random(in: 8...40, using: &g.rng)
      let values = (0..<n).map { _ in g.chance(2) ? g.quoted() : g.pick(Self.constants) }
      var formats = [
        values.map { "\(key) ==\(options) \($0)" }.joined(separator: " OR "),
        "\(key) IN\(options) {\(values.joined(separator: ", "))}",
        "ANY t IN\(options) {\(values.joined(separator: ", "))}",
      ]
      // A run between other terms (order, and so errors, kept).
      formats.append("a < 'x' OR " + formats[0] + " OR s BEGINSWITH 'B'")
      // Equalities of two plain keys, interleaved: gathered per key.
      formats.append(
        values.enumerated().map { "\($0.offset % 2 == 0 ? "a" : "s") ==\(options) \($0.element)" }.joined(
          separator: " OR "))
      for format in formats {
        let p = try SiftPredicate(format: format)
        for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
          let fast = try p.compile(EvaluationOptions(policy: policy), fastPaths: true)
          let slow = try p.compile(EvaluationOptions(policy: policy), fastPaths: false)
          for (i, r) in records.enumerated() {
            #expect(FastPathTests.outcome(fast, r) == FastPathTests.outcome(slow, r), "\(format) on \(i)")
            #expect(
              FastPathTests.outcome(fast, objects[i]) == FastPathTests.outcome(slow, objects[i]),
              "\(format) on object \(i)")
          }
        }
      }
    }
  }

  @Test func orMergingKeepsRunsInPlace() throws {
    let chain = (0..<10).map { "x == \($0)" }.joined(separator: " OR ")
    let p = try SiftPredicate(format: "y == 1 OR " + chain + " OR z == 2")
    guard case .or(let terms) = p.root.kind else { return }
    let merged = SiftOrMerging.merged(terms)
    #expect(merged.count == 3)
    #expect(SiftPredicate(root: merged[1]).predicateFormat == "x IN {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}")
  }

  static func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
  }

  /// The work, not the wall time: a 150,000-element IN list and a 10,000-term OR of
  /// equalities are each one hashed set (`ConstantSet`), so a record costs one lookup.
  @Test func hugeListsAndChainsAreSetLookups() throws {
    let records = try JSONRecords.records(
      from: .array((0..<20_000).map { i in ["qty": .int(Int64(i)), "name": .string("n\(i)")] }))
    let values = (0..<150_000).map { SiftValue.int(Int64($0 * 7)) }
    let inList = try SiftPredicate(format: "qty IN %@", arguments: [.array(values)])
    #expect(try Self.constantSet(inList)?.integers.count == 150_000)
    #expect(try inList.compile().matchingIndices(records).count == (20_000 + 6) / 7)
    let names = try SiftPredicate(format: (0..<10_000).map { "name == 'n\($0 * 3)'" }.joined(separator: " OR "))
    guard case .or(let terms) = names.root.kind else {
      Issue.record("not an OR")
      return
    }
    let merged = SiftOrMerging.merged(terms)
    #expect(merged.count == 1)
    let set = try merged.first.flatMap { try Self.constantSet(SiftPredicate(root: $0)) }
    #expect(set?.strings.count == 10_000)
    #expect(try names.compile().matchingIndices(records).count == 6_667)
  }

  /// The hashed list the compiled comparison `p` tests against, if it has one.
  static func constantSet(_ p: SiftPredicate) throws -> ConstantSet? {
    var compiler = Compiler(functions: FunctionRegistry())
    guard case .comparison(let c) = try compiler.predicate(p.root) else { return nil }
    return c.test.specialized(constantRHS: c.rhs.constant).constantSet
  }

  /// Twenty nested SUBQUERYs over two-element arrays stop with `work-limit`, under either policy.
  @Test func nestedSubqueriesStopWithAnError() throws {
    var format = "$x20 == 1"
    for level in stride(from: 20, through: 1, by: -1) { format = "SUBQUERY(xs, $x\(level), \(format)).@count > 0" }
    let records = try JSONRecords.records(from: .array((0..<1000).map { _ in ["xs": [1, 2]] }))
    for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
      let m = try SiftPredicate(format: format).compile(EvaluationOptions(policy: policy))
      // The work budget stops it (2^20 inner tests a record otherwise): the error says so,
      // whatever the machine's speed; no wall-clock bound.
      do throws(SiftError) {
        _ = try m.matchingIndices(records)
        Issue.record("no error")
      } catch {
        #expect(error.diagnostic.id == "work-limit")
      }
    }
    // Ten levels (1,024 inner tests a record) still answer.
    var ten = "$x10 == 1"
    for level in stride(from: 10, through: 1, by: -1) { ten = "SUBQUERY(xs, $x\(level), \(ten)).@count > 0" }
    #expect(try SiftPredicate(format: ten).compile().matchingIndices(Array(records.prefix(10))).count == 10)
  }

  @Test func oneTimeLimitForEveryPartOfAScan() throws {
    var format = "$x8 == 9"
    for level in stride(from: 8, through: 1, by: -1) { format = "SUBQUERY(xs, $x\(level), \(format)).@count > 0" }
    let records = try JSONRecords.records(from: .array((0..<20_000).map { _ in ["xs": [1, 2, 3]] }))
    var options = EvaluationOptions()
    options.timeLimit = 100
    let m = try SiftPredicate(format: format).compile(options)
    let t = Self.timed {
      do throws(SiftError) {
        _ = try m.matchingIndices(records, in: 0..<records.count, workers: 2)
        Issue.record("finished")
      } catch {
        #expect(error.diagnostic.id == "time-limit")
      }
    }
    #expect(t < 3, "\(t) s")
  }

  @Test func catastrophicPatternsAnswerOrFail() throws {
    let subject = String(repeating: "a", count: 30) + "123"
    let records: [SiftValue] = [["name": .string(subject)], ["name": "aab"], ["name": "b"]]
    let m = try SiftPredicate(format: "name MATCHES '(a+)+b|a+[0-9]+'").compile()
    #expect(try m.matchingIndices(records) == [0, 1])
    // A backreference needs backtracking: out of steps is an error, never a silent false.
    let back = try SiftPredicate(format: #"name MATCHES '(a+)+\\1b'"#).compile(
      EvaluationOptions(policy: .treatAsNoMatch))
    do {
      _ = try back.matchingIndices([["name": SiftValue.string(String(repeating: "a", count: 40) + "c")]])
      Issue.record("no error")
    } catch {
      #expect(error.diagnostic.id == "regex-limit")
      #expect(error.diagnostic.message.contains("(a+)+\\1b"))
    }
  }
}
