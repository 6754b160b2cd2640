import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

/// Random records of every kind (missing keys, nulls, mixed kinds, accents and case, arrays,
/// nested objects) and random predicates: the columnar path must give the row evaluator's
/// answer — the same positions, or the same error — under both error policies.
struct ColumnarDifferential {
  var rng: SeededRandom

  mutating func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
  mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

  static let words = [
    "blue", "Blue", "BLUE", "Ñandú", "ñandu", "NANDU", "café", "Cafe", "straße", "STRASSE", "", "b", "z",
  ]

  mutating func scalar() -> SiftValue {
    switch rng.next() % 7 {
    case 0: return .int(Int64(rng.next() % 11) - 5)
    case 1: return .double(Double(Int64(rng.next() % 41) - 20) / 4)
    case 2: return .bool(chance(50))
    case 3: return .string(pick(ColumnarDifferential.words))
    case 4: return .null
    case 5: return .int(pick([Int64.max, Int64.min, 1 << 53, (1 << 53) + 1]))
    default: return .string(pick(ColumnarDifferential.words) + " " + pick(ColumnarDifferential.words))
    }
  }

  /// One record; `mixed` decides whether keys keep one kind.
  mutating func record(mixed: Bool) -> SiftValue {
    var d: [String: SiftValue] = [:]
    func maybe(_ key: String, _ v: SiftValue) {
      if chance(85) { d[key] = chance(10) ? .null : v }
    }
    maybe("i", .int(Int64(rng.next() % 21) - 10))
    maybe("d", chance(50) ? .double(Double(Int64(rng.next() % 81) - 40) / 8) : .int(Int64(rng.next() % 11) - 5))
    maybe("b", .bool(chance(40)))
    maybe("s", .string(pick(ColumnarDifferential.words) + (chance(50) ? " " + pick(ColumnarDifferential.words) : "")))
    maybe("t", .array((0..<Int(rng.next() % 4)).map { _ in .string(pick(ColumnarDifferential.words)) }))
    maybe("a", .array((0..<Int(rng.next() % 4)).map { _ in chance(10) ? .null : .int(Int64(rng.next() % 7)) }))
    maybe("o", .dictionary(["s": .string(pick(ColumnarDifferential.words)), "i": .int(Int64(rng.next() % 5))]))
    if mixed { maybe("m", scalar()) }
    return .dictionary(d)
  }

  static let keys = ["i", "d", "b", "s", "m", "o.s", "o.i", "t", "a", "missing", "o.missing"]
  static let ops = ["==", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"]
  static let options = ["", "[c]", "[d]", "[cd]"]

  mutating func constant(_ op: String) -> SiftValue {
    if op == "BETWEEN" {
      let a = scalar()
      return chance(80) ? .array([a, scalar()]) : a
    }
    if op == "IN" {
      // A long list is one set kernel (`ColumnarPlanner.membershipSetMinimum`).
      if chance(20) { return .array((0..<(16 + Int(rng.next() % 8))).map { _ in scalar() }) }
      return chance(85) ? .array((0..<Int(rng.next() % 4)).map { _ in scalar() }) : scalar()
    }
    return scalar()
  }

  mutating func comparison() -> (String, [SiftValue]) {
    let op = pick(ColumnarDifferential.ops)
    var key = pick(ColumnarDifferential.keys)
    var quantifier = ""
    if key == "t" || key == "a" {
      if chance(20) {
        key += ".@count"
      } else if chance(85) {
        quantifier = pick(["ANY ", "ALL ", "NONE "])
      }
    }
    let opts = op == "IN" || op == "BETWEEN" || chance(40) ? pick(ColumnarDifferential.options) : ""
    if chance(8) {
      return ("%@ IN \(key)", [scalar()])
    }
    return ("\(quantifier)\(key) \(op)\(opts) %@", [constant(op)])
  }

  mutating func predicate(depth: Int) -> (String, [SiftValue]) {
    if depth == 0 || chance(40) { return comparison() }
    let (a, x) = predicate(depth: depth - 1)
    let (b, y) = predicate(depth: depth - 1)
    switch rng.next() % 3 {
    case 0: return ("(\(a)) AND (\(b))", x + y)
    case 1: return ("(\(a)) OR (\(b))", x + y)
    default: return ("NOT (\(a))", x)
    }
  }
}

@Suite struct ColumnarDifferentialTests {
  static func outcome(_ body: () throws -> [Int]) -> String {
    do { return "\(try body())" } catch { return "error: \(error)" }
  }

  @Test(arguments: [(1 as UInt64, false), (2, true), (3, false), (4, true), (2024, true)])
  func columnsAnswerAsRows(seed: UInt64, mixed: Bool) throws {
    var g = ColumnarDifferential(rng: SeededRandom(seed: seed))
    let values = (0..<300).map { _ in g.record(mixed: mixed) }
    let bytes = Array(SiftJSON.serialize(.array(values)).utf8)
    let rows = try JSONRecords.load(bytes: bytes)
    let columns = try SiftColumnarRecords(bytes: bytes)
    #expect(columns.count == rows.count)
    var vectorized = 0
    let total = 400
    for _ in 0..<total {
      let (format, args) = g.predicate(depth: 2)
      guard let predicate = try? SiftPredicate(format: format, arguments: args) else { continue }
      for policy in [ErrorPolicy.strict, .treatAsNoMatch] {
        guard let m = try? predicate.compile(EvaluationOptions(policy: policy)) else { continue }
        let expected = Self.outcome { try m.matchingIndices(rows) }
        #expect(Self.outcome { try m.matchingIndices(columns) } == expected, "\(format) \(args) \(policy)")
        #expect(Self.outcome { try m.matchingIndices(columns, workers: 2) } == expected, "\(format) \(args)")
        if policy == .strict, m.columnarFallback(for: columns) == nil { vectorized += 1 }
      }
    }
    // The kernels must actually be exercised, not only the fallback.
    #expect(vectorized > total / 5, "only \(vectorized) of \(total) predicates ran as kernels")
  }

  @Test func recordsReadBackAsTheRowLoaderReadsThem() throws {
    var g = ColumnarDifferential(rng: SeededRandom(seed: 9))
    let values = (0..<500).map { _ in g.record(mixed: true) }
    let bytes = Array(SiftJSON.serialize(.array(values)).utf8)
    let columns = try SiftColumnarRecords(bytes: bytes)
    let expected = try JSONRecords.values(bytes: bytes)
    for i in 0..<columns.count { #expect(columns.record(at: i) == expected[i], "record \(i)") }
  }
}
