import Foundation
import SiftSyntax

/// A generated predicate: a format string plus its `%@` arguments.
struct GeneratedPredicate: CustomStringConvertible, Sendable {
  var format: String
  var args: [SiftValue]
  var description: String {
    args.isEmpty ? format : format + "  args: " + args.map(SiftJSON.serialize).joined(separator: ", ")
  }
}

/// Seeded random predicates over the `Thing` schema (see `RandomData`), generated from a
/// grammar that only produces forms the SQL compiler supports: typed comparisons with
/// constants of the attribute's kind, string operators with options, IN lists (with nil and
/// empty), BETWEEN, ANY/ALL/NONE over scalar arrays and to-many key paths, @count/@sum/…,
/// SUBQUERY, NOT/AND/OR nesting, and arithmetic on bounded numbers.
struct RandomPredicates {
  var rng: SeededRandom
  private var args: [SiftValue] = []

  init(seed: UInt64) { rng = SeededRandom(seed: seed) }

  mutating func next() -> GeneratedPredicate {
    args = []
    let format = predicate(depth: 0)
    return GeneratedPredicate(format: format, args: args)
  }

  // MARK: Predicates

  private mutating func predicate(depth: Int) -> String {
    let roll = rng.int(in: 0...9)
    if depth < 3 && roll < 3 {
      let count = rng.int(in: 2...3)
      let parts = (0..<count).map { _ in predicate(depth: depth + 1) }
      return "(" + parts.joined(separator: rng.chance(0.5) ? " AND " : " OR ") + ")"
    }
    if depth < 3 && roll == 3 { return "NOT (" + predicate(depth: depth + 1) + ")" }
    return atom()
  }

  private mutating func atom() -> String {
    switch rng.int(in: 0...13) {
    case 0, 1: return numberComparison()
    case 2, 3: return stringComparison(key: rng.pick(["name", "code", "place.city"]))
    case 4: return nilTest()
    case 5: return inList()
    case 6: return between()
    case 7: return quantified()
    case 8: return aggregate()
    case 9: return subquery()
    case 10: return arithmetic()
    case 11: return booleanOrDate()
    case 12: return collectionMembership()
    default: return rng.chance(0.1) ? rng.pick(["TRUEPREDICATE", "FALSEPREDICATE"]) : numberComparison()
    }
  }

  /// The operators of each shape, from `ComparisonOperator.allCases` (a new operator is
  /// drawn without an edit here; `everyOperatorIsDrawn` checks none is left out).
  static let valueOperators = ComparisonOperator.allCases.filter { $0.rightOperand == .value }
  static let textOperators = ComparisonOperator.allCases.filter { $0.rightOperand.isText }

  private mutating func op() -> String { rng.pick(Self.valueOperators).keyword }

  private mutating func options() -> String { rng.pick(["", "", "[c]", "[d]", "[cd]"]) }

  private mutating func bind(_ value: SiftValue) -> String {
    args.append(value)
    return "%@"
  }

  private mutating func intConstant() -> SiftValue {
    rng.chance(0.4) ? .int(rng.pick(RandomData.bigIntegers)) : .int(Int64(rng.int(in: -20...20)))
  }

  private mutating func doubleConstant() -> SiftValue {
    rng.chance(0.4) ? .double(rng.pick(RandomData.doubles)) : .double(Double(rng.int(in: -80...80)) / 4)
  }

  private mutating func numberConstant() -> SiftValue {
    rng.chance(0.5) ? intConstant() : doubleConstant()
  }

  /// A needle that often occurs in the data: a whole pool string, a slice of one, or a
  /// special character.
  private mutating func needle() -> String {
    switch rng.int(in: 0...5) {
    case 0: return rng.pick(RandomData.strings)
    case 1: return rng.pick(["%", "_", "\\", "'", "\"", "ß", "ss", "Σ", "σ", "é", "e\u{301}", "İ", "i"])
    case 2: return rng.pick(RandomData.cities + RandomData.tagPool + RandomData.labels)
    default:
      let s = Array(rng.pick(RandomData.strings))
      if s.isEmpty { return "" }
      let start = rng.int(in: 0...(s.count - 1))
      let end = rng.int(in: start...min(s.count, start + 3))
      return String(s[start..<end])
    }
  }

  private mutating func likePattern() -> String {
    let parts = (0..<rng.int(in: 1...3)).map { _ -> String in
      switch rng.int(in: 0...4) {
      case 0: return "*"
      case 1: return "?"
      case 2: return rng.pick(["%", "_", "\\*", "\\?", "\\\\"])
      default: return needle()
      }
    }
    return parts.joined()
  }

  private mutating func regexPattern() -> String {
    let parts = (0..<rng.int(in: 1...3)).map { _ -> String in
      switch rng.int(in: 0...5) {
      case 0: return ".*"
      case 1: return "."
      case 2: return "[a-z]+"
      case 3: return rng.pick(["(Red|Café)", "a|b", "\\d+", "x?"])
      default: return NSRegularExpression.escapedPattern(for: needle())
      }
    }
    // ICU rejects an empty pattern (an error in every engine, so nothing to compare).
    let pattern = parts.joined()
    return pattern.isEmpty ? "x?" : pattern
  }

  // MARK: Atoms

  private mutating func numberComparison() -> String {
    switch rng.int(in: 0...4) {
    case 0: return "n \(op()) \(bind(numberConstant()))"
    case 1: return "x \(op()) \(bind(numberConstant()))"
    case 2: return "small \(op()) \(bind(intConstant()))"
    case 3: return rng.pick(["n \(op()) x", "small \(op()) n", "place.dist \(op()) x"])
    default: return "place.dist \(op()) \(bind(doubleConstant()))"
    }
  }

  /// `key op needle` for an equality/order operator (two shares in seven) or any text
  /// operator, its right side made for its shape.
  private mutating func stringComparison(key: String) -> String {
    let o = options()
    if rng.int(in: 0...6) < 2 { return "\(key) \(op())\(o) \(bind(.string(needle())))" }
    let textOp = rng.pick(Self.textOperators)
    switch textOp.rightOperand {
    case .wildcardPattern: return "\(key) \(textOp.keyword)\(o) \(bind(.string(likePattern())))"
    case .regularExpression: return "\(key) \(textOp.keyword)\(rng.pick(["", "[c]"])) \(bind(.string(regexPattern())))"
    default: return "\(key) \(textOp.keyword)\(o) \(bind(.string(needle())))"
    }
  }

  private mutating func nilTest() -> String {
    let key = rng.pick(["name", "n", "x", "flag", "when", "place.city", "place.dist", "code"])
    return rng.chance(0.5) ? "\(key) == nil" : (rng.chance(0.5) ? "\(key) != nil" : "nil == \(key)")
  }

  private mutating func inList() -> String {
    if rng.chance(0.5) {
      var items = (0..<rng.int(in: 0...3)).map { _ in needle() }.map { SiftValue.string($0) }
      if rng.chance(0.3) { items.append(.null) }
      return "\(rng.pick(["name", "place.city", "code"])) IN\(options()) \(bind(.array(items)))"
    }
    var items = (0..<rng.int(in: 0...3)).map { _ in numberConstant() }
    if rng.chance(0.3) { items.append(.null) }
    return "\(rng.pick(["n", "x", "small"])) IN \(bind(.array(items)))"
  }

  private mutating func between() -> String {
    let lo = numberConstant()
    let hi = rng.chance(0.8) ? numberConstant() : lo
    return "\(rng.pick(["n", "x", "small", "place.dist"])) BETWEEN \(bind(.array([lo, hi])))"
  }

  private mutating func quantified() -> String {
    let q = rng.pick(["ANY", "ALL", "NONE", "SOME"])
    switch rng.int(in: 0...4) {
    case 0: return "\(q) nums \(op()) \(bind(intConstant()))"
    case 1: return "\(q) items.price \(op()) \(bind(doubleConstant()))"
    case 2: return "\(q) " + stringComparison(key: "tags")
    case 3: return "\(q) " + stringComparison(key: "items.label")
    default: return "\(q) items.qty IN \(bind(.array([intConstant(), .int(Int64(rng.int(in: 0...6)))])))"
    }
  }

  private mutating func aggregate() -> String {
    let path = rng.pick([
      "tags.@count", "nums.@count", "items.@count", "nums.@sum", "nums.@avg", "nums.@min",
      "nums.@max", "items.@sum.price", "items.@avg.price", "items.@max.qty", "items.@min.price",
    ])
    return "\(path) \(op()) \(bind(rng.chance(0.7) ? .int(Int64(rng.int(in: 0...12))) : doubleConstant()))"
  }

  private mutating func subquery() -> String {
    let inner: String
    switch rng.int(in: 0...3) {
    case 0: inner = "$i.price \(op()) \(bind(doubleConstant()))"
    case 1: inner = "$i.vegan == \(rng.pick(["YES", "NO"])) AND $i.qty \(op()) \(bind(.int(Int64(rng.int(in: 0...6)))))"
    case 2: inner = "$i.label \(rng.pick(["==", "BEGINSWITH", "CONTAINS"]))\(options()) \(bind(.string(needle())))"
    default:
      return
        "SUBQUERY(tags, $t, $t \(rng.pick(["==", "BEGINSWITH", "!="]))\(options()) \(bind(.string(needle())))).@count \(op()) \(rng.int(in: 0...2))"
    }
    return "SUBQUERY(items, $i, \(inner)).@count \(op()) \(rng.int(in: 0...3))"
  }

  private mutating func arithmetic() -> String {
    let k = rng.pick(["1", "2", "3", "-4", "0.5", "2.5"])
    let divisor = rng.pick(["2", "3", "-3", "4.0", "0.5"])
    let lhs = rng.pick([
      "small + \(k)", "small - \(k)", "small * \(k)", "small / \(divisor)", "-small",
      "x * \(k)", "x / \(divisor)", "small * small", "small + place.dist", "(small - 1) * \(k)",
      "small ** 2",
    ])
    return "\(lhs) \(op()) \(bind(numberConstant()))"
  }

  private mutating func booleanOrDate() -> String {
    switch rng.int(in: 0...3) {
    case 0: return "flag \(rng.pick(["==", "!="])) \(rng.pick(["YES", "NO", "1", "0", "TRUE"]))"
    case 1: return "flag \(rng.pick(["==", "!="])) \(bind(.bool(rng.chance(0.5))))"
    case 2: return "when \(op()) \(bind(.date(Date(timeIntervalSince1970: rng.pick(RandomData.dates)))))"
    default:
      return
        "when BETWEEN \(bind(.array([.date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: rng.pick(RandomData.dates)))])))"
    }
  }

  private mutating func collectionMembership() -> String {
    switch rng.int(in: 0...3) {
    case 0: return "\(bind(.string(rng.pick(RandomData.tagPool)))) IN\(options()) tags"
    case 1: return "tags CONTAINS\(options()) \(bind(.string(rng.pick(RandomData.tagPool))))"
    case 2: return "nums CONTAINS \(bind(.int(Int64(rng.int(in: -5...9)))))"
    default: return "\(bind(.int(Int64(rng.int(in: -5...9))))) IN nums"
    }
  }
}
